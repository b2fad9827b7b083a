import Foundation
import Testing

@testable import System

#if canImport(Glibc)
  import Glibc
#endif

/// `StartupPages`: which mappings it may drop, read from `/proc/PID/smaps` text, and what a
/// release does to real mappings of this process: clean file pages leave the page tables and
/// read back the same, a mapping with pages of its own keeps them.
@Suite struct StartupPagesTests {
  /// One mapping's lines as the kernel writes them.
  private static func mapping(
    _ header: String, rss: Int, anonymous: Int, locked: Int = 0
  ) -> String {
    """
    \(header)
    Size:                 64 kB
    KernelPageSize:        4 kB
    Rss:                 \(rss) kB
    Pss:                 \(rss) kB
    Anonymous:           \(anonymous) kB
    Locked:              \(locked) kB
    THPeligible:           0
    VmFlags: rd ex mr mw me sd

    """
  }

  @Test func onlyCleanPrivateReadOnlyFileMappingsAreReleasable() {
    // Each mapping's first line, then its resident, anonymous and locked kilobytes.
    let mappings: [(String, Int, Int, Int)] = [
      ("55d0a0000000-55d0a0010000 r-xp 00001000 08:01 1234   /usr/lib/libswiftCore.so", 48, 0, 0),
      ("55d0a0010000-55d0a0020000 r--p 00011000 08:01 1234   /usr/lib/libswiftCore.so", 12, 0, 0),
      // Relocated, then made read-only: its pages are its own.
      ("55d0a0020000-55d0a0030000 r--p 00021000 08:01 1234   /usr/lib/libswiftCore.so", 16, 16, 0),
      ("55d0a0030000-55d0a0040000 rw-p 00031000 08:01 1234   /usr/lib/libswiftCore.so", 8, 8, 0),
      ("55d0a1000000-55d0a2000000 rw-p 00000000 00:00 0   [heap]", 900, 900, 0),
      ("7f0000000000-7f0000010000 r--p 00000000 00:00 0", 4, 0, 0),
      ("7f0000010000-7f0000020000 r--s 00000000 08:01 99   /tmp/shared.db", 4, 0, 0),
      ("7f0000020000-7f0000030000 r-xp 00000000 08:01 77   /opt/locked.so", 4, 0, 4),
      ("7f0000030000-7f0000040000 r-xp 00000000 08:01 78   /opt/old.so (deleted)", 4, 0, 0),
      ("7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0   [vdso]", 4, 0, 0),
      ("7f0000040000-7f0000050000 r-xp 00000000 08:01 79   /opt/with spaces/lib.so", 20, 0, 0),
    ]
    let smaps = mappings.map { Self.mapping($0, rss: $1, anonymous: $2, locked: $3) }.joined()
    #expect(
      StartupPages.releasable(smaps: smaps) == [
        .init(start: 0x55d0_a000_0000, end: 0x55d0_a001_0000, residentKilobytes: 48),
        .init(start: 0x55d0_a001_0000, end: 0x55d0_a002_0000, residentKilobytes: 12),
        .init(start: 0x7f00_0004_0000, end: 0x7f00_0005_0000, residentKilobytes: 20),
      ])
  }

  @Test func aMappingWithoutItsFieldsOrWithGarbageIsLeftAlone() {
    let smaps = """
      55d0a0000000-55d0a0010000 r-xp 00001000 08:01 1234   /usr/lib/a.so
      Rss:                  48 kB
      55d0a0010000-55d0a0020000 r-xp 00001000 08:01 1234   /usr/lib/b.so
      Rss:                  lots kB
      Anonymous:             0 kB
      zzzz-55d0a0030000 r-xp 00001000 08:01 1234   /usr/lib/c.so
      Rss:                  48 kB
      Anonymous:             0 kB
      55d0a0040000-55d0a0030000 r-xp 00001000 08:01 1234   /usr/lib/d.so
      Rss:                  48 kB
      Anonymous:             0 kB
      \u{0}\u{ff} - -
      """
    #expect(StartupPages.releasable(smaps: smaps).isEmpty)
  }

  /// The resident kilobytes of this process's mapping that starts at `address`.
  private static func resident(at address: UnsafeMutableRawPointer) throws -> Int? {
    let smaps = try #require(StartupPages.readAll("/proc/self/smaps"))
    let start = String(UInt(bitPattern: address), radix: 16)
    var inside = false
    for line in smaps.split(separator: "\n") {
      if line.contains("-") && line.first?.isHexDigit == true && line.contains(" ") {
        let first = line.prefix { $0 != "-" }
        inside = first.drop { $0 == "0" } == start.drop { $0 == "0" }
      } else if inside && line.hasPrefix("Rss:") {
        return Int(line.split(separator: " ")[1])
      }
    }
    return nil
  }

  @Test func releasedFilePagesLeaveAndReadBackTheSame() throws {
    let path = NSTemporaryDirectory() + "startup-pages-\(UUID().uuidString)"
    defer { unlink(path) }
    let size = 64 * 4096
    let contents = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    try contents.write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let mapped = try #require(
      mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0).flatMap {
        $0 == MAP_FAILED ? nil : $0
      })
    defer { munmap(mapped, size) }
    // A second mapping, written and then made read-only: its pages are its own, and must stay.
    let own = try #require(
      mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, descriptor, 0).flatMap {
        $0 == MAP_FAILED ? nil : $0
      })
    defer { munmap(own, size) }
    memset(own, 0x5a, size)
    try #require(mprotect(own, size, PROT_READ) == 0)

    // Touched: resident.
    var sum = 0
    for offset in stride(from: 0, to: size, by: 4096) {
      sum &+= Int(mapped.load(fromByteOffset: offset, as: UInt8.self))
    }
    #expect(sum != 0)
    #expect(try Self.resident(at: mapped) ?? 0 >= 64 * 4)

    let released = StartupPages.release()
    #expect(released >= 64 * 4)
    #expect(try Self.resident(at: mapped) == 0)
    #expect(Data(bytes: mapped, count: size) == contents)
    #expect(try Self.resident(at: mapped) ?? 0 >= 64 * 4)
    #expect(Data(bytes: own, count: size) == Data(repeating: 0x5a, count: size))
  }
}
