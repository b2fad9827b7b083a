import Crypto
import Foundation
import Locations

/// How many key derivations may run at once on this machine: the unlock turns a process waits
/// for when it finds this many held (`Vault+UnlockTurns.swift`).
///
/// One scrypt derivation with the vault's parameters takes `Scrypt.Parameters.memoryBound`
/// (128 MiB with the default ones) and one core for about half a second. The number is
/// `max(1, min(cores this process may use, memory available / (that memory + a process's
/// own)))`, where the memory available is the smallest of `/proc/meminfo`'s `MemAvailable`
/// and the room each memory cgroup above this process has left (v2 `memory.max` minus
/// `memory.current`, v1 `memory.limit_in_bytes` minus `memory.usage_in_bytes`): in a 4 GiB
/// container, 200 unlocks at once were otherwise killed by the kernel without a word.
package enum UnlockCapacity {
  /// What an authtui process needs beside the derivation itself (its own heap and stacks).
  package static let processOverhead: UInt64 = 40 * 1024 * 1024

  /// The turns for a derivation with `parameters`, from what this process reads now.
  package static func turns(for parameters: Scrypt.Parameters) -> Int {
    let cgroups = contents(of: "/proc/self/cgroup")
    let cores = [
      allowedCores(status: contents(of: "/proc/self/status")),
      coreQuota(cgroups: cgroups, read: contents(of:)),
    ].compactMap { $0 }.min()
    return turns(
      cores: cores ?? ProcessInfo.processInfo.activeProcessorCount,
      memoryAvailable: memoryAvailable(
        meminfo: contents(of: "/proc/meminfo"), cgroups: cgroups, read: contents(of:)),
      perUnlock: parameters.memoryBound + processOverhead)
  }

  /// `max(1, min(cores, memoryAvailable / perUnlock))`; the cores alone when the memory is not
  /// known.
  package static func turns(cores: Int, memoryAvailable: UInt64?, perUnlock: UInt64) -> Int {
    let byMemory = memoryAvailable.map { Int(clamping: $0 / max(perUnlock, 1)) } ?? cores
    return max(1, min(cores, byMemory))
  }

  /// The cores this process may run on: the `Cpus_allowed_list` of `/proc/self/status`
  /// (`0-3,8,10-11`), which `taskset` and cpusets set; nil when it is not there.
  package static func allowedCores(status: String?) -> Int? {
    guard
      let line = status?.split(separator: "\n").first(where: {
        $0.hasPrefix("Cpus_allowed_list:")
      })
    else { return nil }
    var count = 0
    for range in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
      let bounds = range.trimmingCharacters(in: .whitespaces).split(separator: "-")
      guard let first = bounds.first.flatMap({ Int($0) }) else { return nil }
      let last = bounds.count == 2 ? Int(bounds[1]) : first
      guard let last, last >= first else { return nil }
      count += last - first + 1
    }
    return count > 0 ? count : nil
  }

  /// The cores a CPU quota of the cgroups above this process allows, rounded up (v2 `cpu.max`
  /// `200000 100000`, v1 `cpu.cfs_quota_us` over `cpu.cfs_period_us`); nil without a quota.
  package static func coreQuota(cgroups: String?, read: (String) -> String?) -> Int? {
    var smallest: Int?
    for folder in cgroupFolders(cgroups, controller: "cpu") {
      let quota: (Double, Double)?
      if folder.version == 2 {
        let fields = read(folder.path + "/cpu.max")?.split(separator: " ")
        quota = fields.flatMap { fields in
          guard fields.count == 2, let quota = Double(fields[0]),
            let period = Double(trim(fields[1]))
          else { return nil }
          return (quota, period)
        }
      } else {
        quota = number(read(folder.path + "/cpu.cfs_quota_us")).flatMap { quota in
          number(read(folder.path + "/cpu.cfs_period_us")).map { (quota, $0) }
        }
      }
      guard let (limit, period) = quota, limit > 0, period > 0 else { continue }
      let cores = max(1, Int((limit / period).rounded(.up)))
      smallest = min(smallest ?? cores, cores)
    }
    return smallest
  }

  /// The memory this process may still take, in bytes: the smallest of `MemAvailable` (from
  /// `meminfo`, the text of `/proc/meminfo`) and, for each memory cgroup from this process's
  /// own (`cgroups`, the text of `/proc/self/cgroup`) up to the root, its limit minus its
  /// usage. A cgroup without a limit (`max`, or v1's near-2^63) does not count; nil when
  /// nothing could be read.
  package static func memoryAvailable(
    meminfo: String?, cgroups: String?, read: (String) -> String?
  ) -> UInt64? {
    var available = meminfo.flatMap(memAvailable(in:))
    for folder in cgroupFolders(cgroups, controller: "memory") {
      let (limitFile, usageFile) =
        folder.version == 2
        ? ("memory.max", "memory.current") : ("memory.limit_in_bytes", "memory.usage_in_bytes")
      // v1 writes "no limit" as the largest page-aligned 63-bit number.
      guard let limit = number(read(folder.path + "/" + limitFile)), limit < Double(1 << 62),
        let usage = number(read(folder.path + "/" + usageFile))
      else { continue }
      let room = limit > usage ? UInt64(limit - usage) : 0
      available = min(available ?? room, room)
    }
    return available
  }

  /// `MemAvailable:   23458516 kB`, in bytes.
  static func memAvailable(in meminfo: String) -> UInt64? {
    guard let line = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") })
    else { return nil }
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.count >= 2, let amount = UInt64(fields[1]) else { return nil }
    let unit: UInt64 = fields.count >= 3 && fields[2].lowercased() == "kb" ? 1024 : 1
    return amount.multipliedReportingOverflow(by: unit).overflow ? nil : amount * unit
  }

  /// A cgroup folder whose files say this process's limits, and its hierarchy's version.
  struct CgroupFolder: Equatable {
    let path: String
    let version: Int
  }

  /// The folders of `controller`'s hierarchy from this process's cgroup up to the hierarchy's
  /// root, as `/proc/self/cgroup` (`cgroups`) names them: v2's `0::/user.slice/…` under
  /// `/sys/fs/cgroup`, v1's `4:memory:/docker/…` under `/sys/fs/cgroup/memory`. A cgroup
  /// namespace or a container's mount may leave only the upper folders there: missing ones
  /// simply read as nothing.
  static func cgroupFolders(_ cgroups: String?, controller: String) -> [CgroupFolder] {
    var folders: [CgroupFolder] = []
    for line in (cgroups ?? "").split(separator: "\n") {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3, fields[2].hasPrefix("/") else { continue }
      let root: String
      let version: Int
      if fields[0] == "0" && fields[1].isEmpty {
        (root, version) = ("/sys/fs/cgroup", 2)
      } else if fields[1].split(separator: ",").contains(Substring(controller)) {
        (root, version) = ("/sys/fs/cgroup/" + controller, 1)
      } else {
        continue
      }
      var path = String(fields[2])
      while true {
        folders.append(CgroupFolder(path: path == "/" ? root : root + path, version: version))
        guard path != "/", path.utf8.contains(UInt8(ascii: "/")) else { break }
        path = PathText.folder(of: path)
      }
    }
    return folders
  }

  private static func number(_ text: String?) -> Double? {
    text.flatMap { Double(trim(Substring($0))) }
  }

  private static func trim(_ text: Substring) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func contents(of path: String) -> String? {
    try? String(contentsOfFile: path, encoding: .utf8)
  }
}
