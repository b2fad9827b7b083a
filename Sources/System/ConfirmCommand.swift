import Foundation
import Isolation

#if canImport(Glibc)
  import Glibc
#endif

/// The program `AUTHTUI_CONFIRM_COMMAND` names, asked whether to allow a token request the
/// agent holds when no authtui UI is open, as `SSH_ASKPASS` programs are asked: the question
/// on its standard input, exit status 0 allows, anything else denies.
///
/// It runs with `/bin/sh -c` (the variable may carry arguments), in a process group of its
/// own, with the agent's standard output and error (its log). One that has not ended when the
/// deadline comes, or whose asking is cancelled (the agent is stopping), is killed with its
/// whole group, and that denies.
public struct ConfirmCommand: Sendable {
  /// The variable, read by the agent when it starts.
  public static let variable = "AUTHTUI_CONFIRM_COMMAND"

  /// The shell command line.
  public let command: String
  /// The environment it runs with.
  public let environment: [String: String]

  /// The command `environment` names in `AUTHTUI_CONFIRM_COMMAND`; nil when unset or empty.
  public init?(environment: [String: String]) {
    guard let command = environment[Self.variable],
      !command.trimmingCharacters(in: .whitespaces).isEmpty
    else { return nil }
    self.command = command
    self.environment = environment
  }

  /// Runs the command with `input` on its standard input for at most `timeout` seconds: nil
  /// when it exited 0, else why not, in words for the log and the denied caller.
  public func ask(_ input: String, timeout: TimeInterval) async -> String? {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      return
        "\(Self.variable) could not be given its question (\(String(cString: strerror(errno))))"
    }
    // The whole question goes into the pipe before the command starts (it is far smaller than
    // a pipe's buffer): a command that exits without reading cannot raise SIGPIPE here.
    let bytes = Array(input.utf8)
    let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    defer { close(ends[0]) }
    guard written == bytes.count else {
      return "\(Self.variable) could not be given its question"
    }
    let process: SpawnedProcess
    do {
      process = try SpawnedProcess.start(
        "/bin/sh", name: "sh", arguments: ["-c", command], environment: environment,
        standardInput: .descriptor(ends[0]), closing: [ends[0]], detached: true)
    } catch {
      return "\(Self.variable) could not be started (\(error.reason))"
    }
    let ended = Task.detached { await onOwnThread(named: "confirm-command") { process.wait() } }
    let killer = Task.detached {
      try await Task.sleep(for: .seconds(timeout))
      // Its own session and group (`detached`): the shell and whatever it started.
      kill(-process.pid, SIGKILL)
    }
    // Cancelled (the agent is stopping): the command and its dialog end now.
    let termination = await withTaskCancellationHandler {
      await ended.value
    } onCancel: {
      kill(-process.pid, SIGKILL)
    }
    killer.cancel()
    if Task.isCancelled { return "\(Self.variable) was stopped unanswered" }
    if termination.succeeded { return nil }
    if termination == .signalled(SIGKILL) {
      return "\(Self.variable) did not answer within \(Int(timeout)) s"
    }
    return "\(Self.variable) denied it (\(termination.description))"
  }
}
