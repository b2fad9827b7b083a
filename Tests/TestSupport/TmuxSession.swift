import Foundation
import Isolation

#if canImport(Glibc)
  import Glibc
#endif

/// A private tmux server running one program in a pane of a chosen size, for end-to-end tests
/// of the terminal UI: send keys, capture the screen, wait for text.
///
/// Every session has its own server (`tmux -L <unique name>`) and configuration: the status
/// bar is off (the pane has every row), `default-terminal` is tmux-256color, OSC 52 reaches
/// tmux's paste buffers (`set-clipboard on`), Esc is passed on at once, and a pane whose
/// program ended stays on screen (`remain-on-exit`), so its last output can be read.
/// `TmuxSession.run` kills the server whatever the test does.
public final class TmuxSession: Sendable {
  /// The `-L` socket name of this session's server.
  public let socketName: String
  /// The pane every command targets.
  public let target = "main:0.0"
  private let configuration: TemporaryDirectory
  private let environment: [String: String]

  /// The tmux executable found on PATH (`/usr/bin/tmux` on Debian).
  public static let executable: String = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/tmux"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return "/usr/bin/tmux"
  }()

  private init(environment: [String: String]) throws {
    socketName = "authtui-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    configuration = try TemporaryDirectory()
    self.environment = environment
  }

  /// Starts `command` (a shell command line) in a `columns`×`rows` pane with `environment`
  /// changes applied to this process's environment, runs `body`, and kills the server.
  /// `setClipboard` is tmux's `set-clipboard` (`on`; tmux's own default is `external`).
  @discardableResult
  public static func run<Result: Sendable>(
    _ command: String, columns: Int = 80, rows: Int = 24,
    environment changes: [String: String?] = [:], setClipboard: String = "on",
    _ body: (TmuxSession) async throws -> Result
  ) async throws -> Result {
    let session = try TmuxSession(environment: ChildProcess.environment(changes))
    let settings = [
      "set -g status off", "set -g default-terminal tmux-256color",
      "set -s set-clipboard \(setClipboard)",
      "set -s escape-time 0", "set -g remain-on-exit on", "set -g history-limit 0",
    ]
    try (settings.joined(separator: "\n") + "\n").write(
      toFile: session.configuration.file("tmux.conf"), atomically: true, encoding: .utf8)
    do {
      try await session.tmux(
        "new-session", "-d", "-s", "main", "-x", String(columns), "-y", String(rows), command)
      let result = try await body(session)
      await session.kill()
      return result
    } catch {
      await session.kill()
      throw error
    }
  }

  /// Runs one tmux command against this server and returns its standard output.
  @discardableResult
  public func tmux(_ arguments: String...) async throws -> String {
    try await tmux(arguments)
  }

  /// Runs one tmux command against this server and returns its standard output.
  @discardableResult
  public func tmux(_ arguments: [String]) async throws -> String {
    try await onOwnThread { try self.tmuxBlocking(arguments) }
  }

  /// `tmux(_:)` on the calling thread.
  private func tmuxBlocking(_ arguments: [String]) throws -> String {
    let result = try ChildProcess.runBlocking(
      Self.executable,
      ["-L", socketName, "-f", configuration.file("tmux.conf")] + arguments,
      environment: environment, input: nil, timeout: 60)
    guard result.status == 0 else {
      throw TmuxError.commandFailed(arguments, status: result.status, stderr: result.stderr)
    }
    return result.stdout
  }

  /// Presses keys, in tmux's names: `"a"`, `"C-r"`, `"Up"`, `"Enter"`, `"Escape"`, `"F5"`.
  public func sendKeys(_ keys: String...) async throws {
    try await tmux(["send-keys", "-t", target] + keys)
  }

  /// Types `text` literally.
  public func type(_ text: String) async throws {
    try await tmux("send-keys", "-t", target, "-l", text)
  }

  /// The pane's screen, one string per row, trailing spaces trimmed; with `escapes`, the SGR
  /// sequences of colours and attributes are kept (`capture-pane -e`).
  public func capture(escapes: Bool = false) async throws -> [String] {
    try await onOwnThread { try self.captureBlocking(escapes: escapes) }
  }

  /// `capture(escapes:)` on the calling thread.
  private func captureBlocking(escapes: Bool = false) throws -> [String] {
    let output = try tmuxBlocking(
      ["capture-pane", "-p", "-t", target] + (escapes ? ["-e"] : []))
    var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Captures until `condition` holds for the screen, or fails after `timeout` with the last
  /// screen in the error. The timeout only matters when the screen never gets there, so it is
  /// generous: on a busy machine a step of the app under test can take many seconds.
  ///
  /// The captures run one after another on a thread of their own, not as a task: under a full
  /// parallel run a task's next turn on the cooperative pool can come many seconds late
  /// (PLATFORM.md), long enough to miss a status message that stays six seconds.
  @discardableResult
  public func waitUntil(
    _ description: String, timeout: Duration = .seconds(60),
    _ condition: @escaping @Sendable ([String]) -> Bool
  ) async throws -> [String] {
    try await onOwnThread(named: "tmux-wait") { () throws -> [String] in
      let deadline = ContinuousClock.now + timeout
      var screen: [String] = []
      while ContinuousClock.now < deadline {
        screen = try self.captureBlocking()
        if condition(screen) { return screen }
        usleep(50_000)
      }
      throw TmuxError.timedOut(waitingFor: description, screen: screen)
    }
  }

  /// Presses `keys`, then waits until some row of the screen contains `text`: the keys are sent
  /// and the captures begin on one thread of its own, with no turn of the cooperative pool
  /// between them. For what shows only for a while after a key (a status message stays six
  /// seconds): under a full parallel run, the pool can give the test its next turn after the
  /// keys later than that.
  @discardableResult
  public func press(
    _ keys: String..., thenWaitFor text: String, timeout: Duration = .seconds(60)
  ) async throws -> [String] {
    try await onOwnThread(named: "tmux-press") { () throws -> [String] in
      _ = try self.tmuxBlocking(["send-keys", "-t", self.target] + keys)
      let deadline = ContinuousClock.now + timeout
      var screen: [String] = []
      while ContinuousClock.now < deadline {
        screen = try self.captureBlocking()
        if screen.contains(where: { $0.contains(text) }) { return screen }
        usleep(50_000)
      }
      throw TmuxError.timedOut(waitingFor: "\"\(text)\"", screen: screen)
    }
  }

  /// Waits until some row of the screen contains `text`.
  @discardableResult
  public func waitFor(_ text: String, timeout: Duration = .seconds(60)) async throws -> [String] {
    try await waitUntil("\"\(text)\"", timeout: timeout) { screen in
      screen.contains { $0.contains(text) }
    }
  }

  /// tmux's paste buffer once it holds `text` (the program's OSC 52 reaches it after the
  /// program said so), or what it held last when `timeout` passes first: the bound only
  /// matters when the copy never comes.
  public func buffer(
    becoming text: String, timeout: Duration = .seconds(60)
  ) async throws -> String {
    let deadline = ContinuousClock.now + timeout
    var copied = ""
    while copied != text, ContinuousClock.now < deadline {
      copied = (try? await tmux("show-buffer")) ?? ""
      if copied != text { try await Task.sleep(for: .milliseconds(50)) }
    }
    return copied
  }

  /// Changes the window size, as a user resizing the terminal would (SIGWINCH follows).
  public func resize(columns: Int, rows: Int) async throws {
    try await tmux("resize-window", "-t", "main", "-x", String(columns), "-y", String(rows))
  }

  /// A pane format variable (`#{alternate_on}`, `#{pane_dead_status}`).
  public func paneValue(_ format: String) async throws -> String {
    try await tmux("display-message", "-p", "-t", target, format)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Stops the server and everything running in it.
  public func kill() async {
    _ = try? await ChildProcess.run(
      Self.executable, ["-L", socketName, "kill-server"], environment: environment, timeout: 10)
  }
}

/// Why a tmux step failed; the message shows what the screen looked like.
public enum TmuxError: Error, CustomStringConvertible {
  case commandFailed([String], status: Int32, stderr: String)
  case timedOut(waitingFor: String, screen: [String])

  public var description: String {
    switch self {
    case .commandFailed(let arguments, let status, let stderr):
      return "tmux \(arguments.joined(separator: " ")) exited with \(status): \(stderr)"
    case .timedOut(let text, let screen):
      return "timed out waiting for \(text); the screen was:\n" + screen.joined(separator: "\n")
    }
  }
}
