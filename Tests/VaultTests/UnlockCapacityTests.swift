import Testing
import Vault

/// How many key derivations may run at once, from the texts of `/proc` and the cgroup files.
@Suite struct UnlockCapacityTests {
  static let mebibyte: UInt64 = 1 << 20
  static let gibibyte: UInt64 = 1 << 30
  /// scrypt's 128 MiB (and a little) plus a process's own 40 MiB.
  static let perUnlock = 129 * mebibyte + UnlockCapacity.processOverhead

  /// The turns `cores` and `memory` allow, each unlock taking `perUnlock`.
  static func turns(cores: Int, memory: UInt64?) -> Int {
    UnlockCapacity.turns(cores: cores, memoryAvailable: memory, perUnlock: perUnlock)
  }

  @Test func theTurnsAreTheCoresOrWhatTheMemoryHoldsAndAtLeastOne() {
    #expect(Self.turns(cores: 2, memory: 4 * Self.gibibyte) == 2)
    #expect(Self.turns(cores: 64, memory: 4 * Self.gibibyte) == 24)
    #expect(Self.turns(cores: 8, memory: 100 * Self.mebibyte) == 1)
    #expect(Self.turns(cores: 8, memory: 0) == 1)
    #expect(Self.turns(cores: 4, memory: nil) == 4)
  }

  @Test func theCoresAreTheAllowedListOfTheProcessStatus() {
    let status =
      "Name:\tauthtui\nCpus_allowed:\tf0f\nCpus_allowed_list:\t0-3,8,10-11\nMems_allowed:\t1\n"
    #expect(UnlockCapacity.allowedCores(status: status) == 7)
    #expect(UnlockCapacity.allowedCores(status: "Cpus_allowed_list:\t5\n") == 1)
    #expect(UnlockCapacity.allowedCores(status: "Name:\tx\n") == nil)
    #expect(UnlockCapacity.allowedCores(status: "Cpus_allowed_list:\t3-1\n") == nil)
    #expect(UnlockCapacity.allowedCores(status: nil) == nil)
  }

  @Test func aCPUQuotaOfAnyCgroupAboveLimitsTheCoresRoundedUp() {
    let v2 = "0::/user.slice/user-1000.slice/session-2.scope\n"
    let files = [
      "/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope/cpu.max": "max 100000\n",
      "/sys/fs/cgroup/user.slice/cpu.max": "150000 100000\n",
    ]
    #expect(UnlockCapacity.coreQuota(cgroups: v2, read: { files[$0] }) == 2)
    #expect(UnlockCapacity.coreQuota(cgroups: v2, read: { _ in "max 100000\n" }) == nil)
    let v1 = "3:cpu,cpuacct:/docker/abc\n"
    let quota = [
      "/sys/fs/cgroup/cpu/docker/abc/cpu.cfs_quota_us": "50000\n",
      "/sys/fs/cgroup/cpu/docker/abc/cpu.cfs_period_us": "100000\n",
      "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1\n",
      "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n",
    ]
    #expect(UnlockCapacity.coreQuota(cgroups: v1, read: { quota[$0] }) == 1)
  }

  @Test func theMemoryIsTheLeastOfMemAvailableAndEachCgroupsRoomUpToTheRoot() {
    let meminfo = "MemTotal:       32768000 kB\nMemFree:  1000 kB\nMemAvailable:    8388608 kB\n"
    // The 4 GiB container of the report: 3 GiB in use leaves 1 GiB, whatever the host has.
    let v2 = "0::/system.slice/runner.service\n"
    let files = [
      "/sys/fs/cgroup/system.slice/runner.service/memory.max": "max\n",
      "/sys/fs/cgroup/system.slice/runner.service/memory.current": "3221225472\n",
      "/sys/fs/cgroup/system.slice/memory.max": "4294967296\n",
      "/sys/fs/cgroup/system.slice/memory.current": "3221225472\n",
    ]
    let contained = UnlockCapacity.memoryAvailable(
      meminfo: meminfo, cgroups: v2, read: { files[$0] })
    #expect(contained == Self.gibibyte)
    #expect(Self.turns(cores: 2, memory: contained) == 2)
    #expect(Self.turns(cores: 16, memory: contained) == 6)
    // No cgroup limit: MemAvailable alone.
    #expect(
      UnlockCapacity.memoryAvailable(meminfo: meminfo, cgroups: v2, read: { _ in nil })
        == 8 * Self.gibibyte)
  }

  @Test func cgroupVersionOneLimitsCountAndItsNoLimitDoesNot() {
    let meminfo = "MemAvailable:    8388608 kB\n"
    let v1 = "9:pids:/docker/abc\n4:memory:/docker/abc\n0::/\n"
    let limited = [
      "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "2147483648\n",
      "/sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes": "1610612736\n",
      "/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
      "/sys/fs/cgroup/memory/memory.usage_in_bytes": "2605379584\n",
    ]
    #expect(
      UnlockCapacity.memoryAvailable(meminfo: meminfo, cgroups: v1, read: { limited[$0] })
        == 512 * Self.mebibyte)
    // Usage above the limit leaves no room: one turn at a time.
    let over = [
      "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "1073741824\n",
      "/sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes": "1073745920\n",
    ]
    let none = UnlockCapacity.memoryAvailable(meminfo: meminfo, cgroups: v1, read: { over[$0] })
    #expect(none == 0)
    #expect(Self.turns(cores: 4, memory: none) == 1)
    // Nothing readable at all: not known.
    #expect(UnlockCapacity.memoryAvailable(meminfo: nil, cgroups: nil, read: { _ in nil }) == nil)
  }
}
