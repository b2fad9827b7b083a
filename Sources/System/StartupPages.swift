import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The pages of program code and read-only data that a long-running authtui (the agent, the
/// UI) mapped while it started and has no further use for, taken out of its page tables.
///
/// A Swift program maps Foundation, the Swift runtime, libcurl and some fifty other libraries,
/// and starting (reading the configuration, unlocking the vault, the first listing) touches
/// about 30 MB of their code and constant data: all of it clean pages of files, which the
/// kernel shares with every process that maps the same libraries and may drop from the page
/// tables whenever it likes, but which count towards the process's resident size (VmRSS, RES
/// in `top`) until it does. `release()` drops them at once, the way reclaim would: what the
/// process touches again comes back from the page cache on its next use (a minor fault, no
/// disk read while the file stays cached). Android's app compaction does the same to the file
/// pages of background apps.
///
/// Only what reclaim itself could drop without writing anything is released: the pages of
/// private file mappings that cannot be written and hold no page of the process's own (a
/// relocated read-only segment, whose pages were copied on write, keeps them: dropping those
/// would bring back the file's unrelocated bytes). The process's own memory (heap, stacks,
/// keys and tokens) is never touched.
///
/// The mappings are listed once and released at once, while other threads run: a new mapping
/// never lands on a listed range, since ranges in use are not reused, unless a library is
/// unloaded and another mapped there in between (glibc never unloads what it loads for name
/// lookups, and authtui itself unloads no library).
public enum StartupPages {
  /// A mapping that `release()` may drop: its address range.
  public struct Mapping: Equatable, Sendable {
    public let start: UInt
    public let end: UInt
    /// Resident kilobytes when it was read.
    public let residentKilobytes: Int
  }

  /// Drops the resident pages of every releasable mapping (`releasable(smaps:)` of
  /// `/proc/self/smaps`); the kilobytes that were resident in them. Nothing happens if the file
  /// cannot be read.
  @discardableResult
  public static func release() -> Int {
    guard let smaps = readAll("/proc/self/smaps") else { return 0 }
    var released = 0
    for mapping in releasable(smaps: smaps) where mapping.residentKilobytes > 0 {
      guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
      if madvise(address, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
        released += mapping.residentKilobytes
      }
    }
    return released
  }

  /// The whole text of the file at `path`, read to its end (a /proc file's size says 0, and
  /// `String(contentsOfFile:)` reads nothing of it).
  static func readAll(_ path: String) -> String? {
    guard let file = FileHandle(forReadingAtPath: path), let data = try? file.readToEnd()
    else { return nil }
    try? file.close()
    return String(decoding: data, as: UTF8.self)
  }

  /// The mappings of `smaps` (the text of `/proc/PID/smaps`) that are private, not writable,
  /// of a file (the path starts with `/`), with no anonymous (copied-on-write) page and none
  /// locked. A mapping whose fields are missing or unreadable is left alone.
  public static func releasable(smaps: String) -> [Mapping] {
    var mappings: [Mapping] = []
    var current: (start: UInt, end: UInt, eligible: Bool)?
    var resident: Int?
    var anonymous: Int?
    var locked: Int?
    func finish() {
      if let current, current.eligible, let resident, anonymous == 0, locked ?? 0 == 0 {
        mappings.append(
          Mapping(start: current.start, end: current.end, residentKilobytes: resident))
      }
      current = nil
      resident = nil
      anonymous = nil
      locked = nil
    }
    for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
      // A field's name ends with a colon; any other line starts a mapping (one that does not
      // read as one is no mapping: the fields after it are nobody's).
      guard line.prefix(while: { $0 != " " }).hasSuffix(":") else {
        finish()
        current = header(line)
        continue
      }
      guard current != nil else { continue }
      if let value = field(line, "Rss:") {
        resident = value
      } else if let value = field(line, "Anonymous:") {
        anonymous = value
      } else if let value = field(line, "Locked:") {
        locked = value
      }
    }
    finish()
    return mappings
  }

  /// A mapping's first line, `START-END PERMS OFFSET DEV INODE [PATH]`: its range, and whether
  /// its permissions and path make it a candidate. Nil for a line that does not read so.
  private static func header(_ line: Substring) -> (start: UInt, end: UInt, eligible: Bool)? {
    let words = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
    guard words.count >= 5, let dash = words[0].firstIndex(of: "-"),
      let start = UInt(words[0][..<dash], radix: 16),
      let end = UInt(words[0][words[0].index(after: dash)...], radix: 16), start < end,
      words[1].utf8.count == 4
    else { return nil }
    let permissions = Array(words[1].utf8)
    let path = words.count == 6 ? words[5].drop { $0 == " " } : ""
    let eligible =
      permissions[1] == UInt8(ascii: "-") && permissions[3] == UInt8(ascii: "p")
      && path.hasPrefix("/") && !path.hasSuffix(" (deleted)")
    return (start, end, eligible)
  }

  /// The kilobytes of a field line `NAME   VALUE kB`, if `line` is that field's.
  private static func field(_ line: Substring, _ name: String) -> Int? {
    guard line.hasPrefix(name) else { return nil }
    let rest = line.dropFirst(name.count).split(separator: " ", omittingEmptySubsequences: true)
    guard rest.count == 2, rest[1] == "kB" else { return nil }
    return Int(rest[0])
  }
}
