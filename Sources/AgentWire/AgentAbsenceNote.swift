#if canImport(Glibc)
  import Glibc
#endif

/// The front's word to the full program it becomes by `exec`: "I asked the agent for this
/// `token` and found none". The full program then does not ask again, and `token` without an
/// agent connects once, not twice. Or "the agent took this `token` request and stopped
/// answering" (it was stopped or killed mid-request): the full program asks again, and when it
/// must then unlock the vault itself and cannot, it says why there was no agent's answer.
///
/// The note is an environment variable holding the identity of the process that wrote it:
/// its pid and its start time (`/proc/self/stat`), which `exec` keeps and no other process
/// shares. The full program reads it and removes it before anything else runs, so a child never
/// inherits it; a note found in any other process (one a user exported, one a parent left) names
/// another process and is only removed. Even a note taken as this process's own does no more
/// than skip one connection attempt: no secret rides on it, and the command then unlocks the
/// vault itself as it would with no agent.
package enum AgentAbsenceNote {
  /// The variable that carries the note.
  package static let variable = "AUTHTUI_FRONT_FOUND_NO_AGENT"

  /// What the front found when it asked the agent.
  package enum Finding: Sendable, Equatable {
    /// No usable agent: the full program does not ask again.
    case noAgent
    /// The agent took the request and gave no answer.
    case stoppedAnswering
  }

  /// The word after the identity in the note for `stoppedAnswering`.
  static let stoppedAnsweringWord = "silent"

  /// Leaves the note for the program this process is about to `exec`.
  package static func leave(_ finding: Finding = .noAgent) {
    guard let identity = processIdentity() else { return }
    setenv(
      variable, finding == .noAgent ? identity : identity + " " + stoppedAnsweringWord, 1)
  }

  /// What the front of this very process noted, if it left a note; the note is removed either
  /// way. Read once, when first asked: the full program asks first thing, before any thread or
  /// child.
  package static let found: Finding? = take()

  /// True when the front of this very process found no agent.
  package static var leftByFront: Bool { found == .noAgent }

  /// Reads and removes the note: what it says, when it names this process.
  static func take() -> Finding? {
    guard let value = getenv(variable).map({ String(cString: $0) }) else { return nil }
    unsetenv(variable)
    guard let identity = processIdentity() else { return nil }
    if value == identity { return .noAgent }
    if value == identity + " " + stoppedAnsweringWord { return .stoppedAnswering }
    return nil
  }

  /// `PID:START`, the start time in clock ticks since boot (field 22 of `/proc/self/stat`); nil
  /// when it cannot be read (then no note is left, and none is taken).
  static func processIdentity() -> String? {
    let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[0..<count], as: UTF8.self)
    // The command name (field 2) is in parentheses and may hold spaces or parentheses: the
    // fields after it start after the last `)`, with field 3.
    guard let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 19, let start = UInt64(fields[19]) else { return nil }
    return "\(getpid()):\(start)"
  }
}
