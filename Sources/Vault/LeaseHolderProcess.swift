import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Which process holds a refresh lease, precisely enough to tell that it has ended.
///
/// A holder killed mid-refresh (SIGKILL, a crash, an agent stopped hard) leaves its lease row
/// behind; without this, every other caller would wait out the whole lease. The row records
/// the holder's pid and an identity: the boot, the pid namespace and the process's start time
/// (`/proc/PID/stat`), so that a pid reused by another process, a zombie, or a process of
/// another machine or container sharing the file is never mistaken for the holder. When the
/// identity cannot be compared (no `/proc`, another boot or namespace) the holder counts as
/// running and only the lease's expiry frees it: the safe direction.
public struct LeaseHolderProcess: Sendable, Equatable {
  /// The process id.
  public let pid: Int32
  /// `BOOT_ID/PIDNS/STARTTIME`, or empty when `/proc` could not be read.
  public let identity: String

  /// This process.
  public static let current = LeaseHolderProcess(
    pid: getpid(), identity: identity(of: getpid()) ?? "")

  init(pid: Int32, identity: String) {
    self.pid = pid
    self.identity = identity
  }

  /// False only when this process can tell that the holder has ended.
  public var isRunning: Bool {
    guard pid > 0 else { return true }
    let ours = Self.current.identity
    guard !identity.isEmpty, !ours.isEmpty else {
      // No identity to compare: only a pid that no longer exists at all tells.
      return !(kill(pid, 0) == -1 && errno == ESRCH)
    }
    let recorded = identity.split(separator: "/", omittingEmptySubsequences: false)
    let mine = ours.split(separator: "/", omittingEmptySubsequences: false)
    guard recorded.count == 3, mine.count == 3, recorded[0] == mine[0], recorded[1] == mine[1]
    else { return true }
    guard let stat = Self.processStat(of: pid) else {
      return !(kill(pid, 0) == -1 && errno == ESRCH)
    }
    // A zombie has ended (only its exit status is left to collect); a different start time is
    // another process that got the same pid.
    if stat.state == "Z" || stat.state == "X" { return false }
    return String(recorded[2]) == stat.startTime
  }

  /// `BOOT_ID/PIDNS/STARTTIME` of `pid`, or nil without `/proc`.
  static func identity(of pid: Int32) -> String? {
    guard
      let boot = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines),
      let stat = processStat(of: pid)
    else { return nil }
    // The link reads `pid:[4026531836]`: the namespace's inode.
    guard
      let namespace = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/ns/pid")
    else { return nil }
    return "\(boot)/\(namespace.filter(\.isNumber))/\(stat.startTime)"
  }

  /// The state letter and start time (field 22) of `/proc/PID/stat`; nil when it is gone.
  /// The one reader of that file above the front (which may not use Foundation).
  package static func processStat(of pid: Int32) -> (state: Character, startTime: String)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    // After "pid (comm)": field 3 is the state, field 22 the start time.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 19, let state = fields[0].first else { return nil }
    return (state, String(fields[19]))
  }
}
