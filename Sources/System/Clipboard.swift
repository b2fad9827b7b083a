import Crypto
import Foundation
import Isolation
import Spelling
import Terminal

#if canImport(Glibc)
  import Glibc
#endif

/// Puts a token on the clipboard and takes it off again: OSC 52 to the terminal (which works
/// over SSH and, with `set -s set-clipboard on`, inside tmux), plus `wl-copy` or `xclip` when a
/// local display has one. After `clearAfter` seconds a detached janitor clears each clipboard
/// that still holds the token (compared by SHA-256, so the token itself is never handed to
/// another process's argument list). The terminal's clipboard cannot be read back over SSH, so
/// there the janitor clears it whatever it holds by then; inside tmux it checks tmux's buffer.
public enum Clipboard {
  /// Where the token went.
  public struct Report: Sendable, Equatable {
    /// The terminal was sent OSC 52.
    public var terminal: Bool
    /// The local clipboard tool used, if any (`wl-copy`, `xclip`).
    public var localTool: String?
    /// Inside tmux, its `set-clipboard` option (`on`, `external`, `off`) as tmux answered;
    /// nil outside tmux, or when tmux could not be asked.
    public var tmuxSetClipboard: String?
    /// Why the local clipboard tool there was did not take the text ("xclip could not copy it
    /// (it exited with status 1; is DISPLAY=:0 still there?)"); nil when it did, or there was
    /// none.
    public var localToolFailure: String?

    /// Creates a report.
    public init(
      terminal: Bool, localTool: String? = nil, tmuxSetClipboard: String? = nil,
      localToolFailure: String? = nil
    ) {
      self.terminal = terminal
      self.localTool = localTool
      self.tmuxSetClipboard = tmuxSetClipboard
      self.localToolFailure = localToolFailure
    }
  }

  /// Copies `text`. `writeToTerminal` sends the OSC 52 sequence (the command line writes it to
  /// /dev/tty; the UI hands it to its screen); `terminalPath` is the tty the janitor writes the
  /// clearing sequence to. Clearing is skipped when `clearAfter` is zero.
  public static func copy(
    _ text: String, clearAfter: TimeInterval, terminalPath: String?,
    writeToTerminal: (String) -> Bool,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Report {
    var report = Report(terminal: writeToTerminal(ClipboardSequence.osc52(copying: text)))
    if report.terminal {
      report.tmuxSetClipboard = tmuxSetClipboard(environment: environment)
    }
    let tool = localTool(environment: environment)
    if let tool {
      if let failure = hand(text, to: tool, environment: environment) {
        report.localToolFailure = "\(tool.name) could not copy it (\(failure))"
      } else {
        report.localTool = tool.name
      }
    }
    // Nothing to clear where nothing was copied.
    if clearAfter > 0, report.terminal || report.localTool != nil {
      scheduleClearing(
        digest: SHA256.hash(text).map { String(format: "%02x", $0) }.joined(), after: clearAfter,
        terminalPath: report.terminal ? terminalPath : nil,
        tool: report.localTool.flatMap { _ in tool },
        insideTmux: !(environment["TMUX"] ?? "").isEmpty, environment: environment)
    }
    return report
  }

  /// Writes OSC 52 straight to the controlling terminal, for the command line.
  public static func writeToControllingTerminal(_ sequence: String) -> Bool {
    let descriptor = open("/dev/tty", O_WRONLY | O_NOCTTY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let bytes = Array(sequence.utf8)
    return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
  }

  /// How long tmux has to answer: a server that hangs must not hold the copy (the UI's status
  /// line waits for it). Generous: on a loaded machine (a parallel test run on two cores) a
  /// tmux client has taken seconds to start and answer, and a slow answer is still the answer.
  static let tmuxDeadline: Duration = .seconds(30)

  /// Inside tmux (`TMUX` set), tmux's `set-clipboard` option as the server answers
  /// `show-options -sv set-clipboard`; nil outside tmux or when tmux cannot be asked (or does
  /// not answer within `tmuxDeadline`).
  public static func tmuxSetClipboard(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    guard !(environment["TMUX"] ?? "").isEmpty,
      case .found(let tmux) = ForegroundCommand.locate("tmux", environment: environment),
      let answer = try? SpawnedProcess.output(
        of: tmux, arguments: ["show-options", "-sv", "set-clipboard"], environment: environment,
        standardInput: .null, standardError: .null, deadline: tmuxDeadline),
      answer.termination.succeeded
    else { return nil }
    let value = String(decoding: answer.output, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return ["on", "external", "off"].contains(value) ? value : nil
  }

  /// The path of the controlling terminal, for the janitor.
  public static func controllingTerminalPath() -> String? {
    for descriptor: Int32 in [2, 1, 0] {
      if isatty(descriptor) == 1, let name = ttyname(descriptor) {
        return String(validatingCString: name)
      }
    }
    return nil
  }

  struct LocalTool {
    let name: String
    /// Shell text that reads the new contents on standard input.
    let copy: String
    /// Shell text that prints the current contents.
    let paste: String
    /// Shell text that empties the clipboard.
    let clear: String
    /// The variable that names the display it needs (`WAYLAND_DISPLAY`, `DISPLAY`).
    let display: String
  }

  /// `wl-copy` under Wayland, `xclip` under X, when installed and a display exists (both fail
  /// without one).
  static func localTool(environment: [String: String]) -> LocalTool? {
    if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty,
      DetachedCommand.isAvailable("wl-copy", environment: environment)
    {
      return LocalTool(
        name: "wl-copy", copy: "wl-copy", paste: "wl-paste --no-newline", clear: "wl-copy --clear",
        display: "WAYLAND_DISPLAY")
    }
    if !(environment["DISPLAY"] ?? "").isEmpty,
      DetachedCommand.isAvailable("xclip", environment: environment)
    {
      return LocalTool(
        name: "xclip", copy: "xclip -selection clipboard",
        paste: "xclip -selection clipboard -o", clear: "printf '' | xclip -selection clipboard",
        display: "DISPLAY")
    }
    return nil
  }

  /// How long a clipboard tool has to take the text: it reads it, then leaves a process of its
  /// own behind to serve the selection and exits (xclip and wl-copy both), or fails at once
  /// without a display. One still running then is taken to be serving it.
  static let toolDeadline: Duration = .seconds(3)

  /// Debug and test builds only: the seconds a tool has instead of `toolDeadline`, so that a
  /// test of a tool that fails does not depend on its `sh` starting within three seconds on a
  /// busy machine, and one of a tool that stays need not wait three seconds.
  static let testDeadlineVariable = "AUTHTUI_TEST_CLIPBOARD_DEADLINE"

  /// `toolDeadline`, or in a debug build the seconds `AUTHTUI_TEST_CLIPBOARD_DEADLINE` gives.
  static func toolDeadline(environment: [String: String]) -> Duration {
    guard let seconds = TestSeconds.value(of: testDeadlineVariable, in: environment) else {
      return toolDeadline
    }
    return .milliseconds(Int64(min(seconds, 86_400) * 1000))
  }

  /// Runs `tool` with `text` on its standard input, in a session of its own, and waits for it
  /// to take it (not for the process it leaves behind to serve the selection); nil when it
  /// did, else why not ("it exited with status 1; is DISPLAY=:0 still there?").
  ///
  /// The whole text is in the pipe before the tool starts: a tool that exits without reading
  /// it (xclip or wl-copy with a stale `DISPLAY`, common in tmux and over ssh) would otherwise
  /// have closed the pipe before the write, and the write would end this process by SIGPIPE,
  /// the UI with its terminal not restored. A text larger than the pipe's buffer (64 KiB)
  /// grows it first; what still does not fit is not copied, never waited for.
  private static func hand(_ text: String, to tool: LocalTool, environment: [String: String])
    -> String?
  {
    var fds: [Int32] = [0, 0]
    guard Glibc.pipe(&fds) == 0 else { return "no pipe (\(String(cString: strerror(errno))))" }
    defer { close(fds[0]) }
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
    let bytes = Array(text.utf8)
    if bytes.count > fcntl(fds[1], Self.getPipeSize) {
      _ = fcntl(fds[1], Self.setPipeSize, Int32(clamping: bytes.count))
    }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map { write(fds[1], $0 + written, buffer.count - written) } ?? -1
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      written += count
    }
    close(fds[1])
    guard written == bytes.count else { return "the text is larger than a pipe can hold" }
    let process: SpawnedProcess
    do {
      process = try SpawnedProcess.start(
        "/bin/sh", name: "sh", arguments: ["-c", tool.copy], environment: environment,
        standardInput: .descriptor(fds[0]), standardOutput: .null, standardError: .null,
        closing: [fds[0]], detached: true)
    } catch {
      return "it could not be started (\(error.reason))"
    }
    guard let ended = process.wait(before: .now + toolDeadline(environment: environment)) else {
      // Reaped whenever it ends, so that no zombie stays behind in a long-lived UI.
      _ = try? startOwnThread(named: "clipboard-tool") { _ = process.wait() }
      return nil
    }
    guard !ended.succeeded else { return nil }
    let display = environment[tool.display] ?? ""
    return "\(ended.description); is \(tool.display)=\(display) still there?"
  }

  /// `fcntl`'s `F_SETPIPE_SZ` and `F_GETPIPE_SZ` (Linux 2.6.35; `F_LINUX_SPECIFIC_BASE` + 7
  /// and + 8), which the Glibc module leaves out with the rest of `_GNU_SOURCE`.
  private static let setPipeSize: Int32 = 1031
  private static let getPipeSize: Int32 = 1032

  /// The variable that gives the janitor the digest of what it clears: in its environment,
  /// which only its user can read, never in its arguments, which `ps` shows everyone.
  static let digestVariable = "AUTHTUI_CLIPBOARD_DIGEST"

  /// Starts the janitor: after `after` seconds, clear each clipboard whose contents still hash
  /// to `digest` (hex SHA-256).
  private static func scheduleClearing(
    digest: String, after: TimeInterval, terminalPath: String?, tool: LocalTool?,
    insideTmux: Bool, environment: [String: String]
  ) {
    // $1 seconds, $2 tty path, the digest in `digestVariable`. sha256sum is in coreutils.
    let hash = "sha256sum | cut -d ' ' -f 1"
    let digestText = "\"$\(digestVariable)\""
    var script = "sleep \"$1\"; "
    if let tool {
      script +=
        "if [ \"$(\(tool.paste) 2>/dev/null | \(hash))\" = \(digestText) ]; then \(tool.clear); "
        + "fi; "
    }
    if terminalPath != nil {
      let clearTerminal = "printf '\\033]52;c;\\007' > \"$2\""
      if insideTmux {
        script +=
          "if [ \"$(tmux show-buffer 2>/dev/null | \(hash))\" = \(digestText) ]; then "
          + "\(clearTerminal); tmux delete-buffer 2>/dev/null; fi; "
      } else {
        script += "\(clearTerminal); "
      }
    }
    script += "true"
    var environment = environment
    environment[digestVariable] = digest
    DetachedCommand.launch(
      script, arguments: [String(Int(clamping: after.rounded())), terminalPath ?? ""],
      environment: environment)
  }
}
