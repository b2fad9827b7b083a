import Agent
import Foundation
import Spelling
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui agent stop`: stops the agent on this user's socket, as SIGTERM does, and returns
/// once its process has ended (its socket goes first; the process then finishes the requests
/// it is answering and closes the vault).
struct AgentStopCommand: AsyncParsableCommand {
  /// How long the agent may take to stop: a refresh it is finishing has the provider's 30 s.
  static let stopTimeout: TimeInterval = 40

  static let configuration = CommandConfiguration<Self>(
    name: "stop",
    summary: "Stop the running agent (it finishes the requests it is answering first).",
    details: """
      Asks the agent on the socket (AUTHTUI_AGENT_SOCKET, else the default) who it is, checks
      that it is an agent of yours (the socket's peer credentials), sends its process SIGTERM
      and waits until it has ended (up to 40 s: a refresh it is storing finishes first; a
      request held for confirmation is denied at once). `authtui token` then unlocks the
      vault itself again. Exit 1 when no agent runs.
      """)

  var global = GlobalOptions()

  func run(console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      let location = AgentSocketLocation.resolve()
      let vault = VaultAccess.location(global).canonicalPath
      let pid = try await AgentStatusCommand.runningAgent(
        at: location, asking: AgentRequest(operation: .ping, vault: vault),
        forwarded: "stop it there with `authtui agent stop`"
      ).pid
      try await Self.stop(pid: pid, at: location)
      console.out("stopped the agent (PID \(pid)) on \(location.path)")
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// Sends the agent `pid`, proven to listen on `location`, SIGTERM, and returns once it
  /// has removed its socket and ended, the vault's key gone with it (`vault lock` stops it
  /// the same way).
  static func stop(pid: Int32, at location: AgentSocketLocation) async throws(CommandFailure) {
    guard kill(pid, SIGTERM) == 0 else {
      throw CommandFailure(
        exitCode: .failure,
        message: "cannot stop the agent (PID \(pid)): \(String(cString: strerror(errno)))")
    }
    let deadline = Date().addingTimeInterval(Self.stopTimeout)
    while location.exists || !Self.hasEnded(pid) {
      guard Date() < deadline else {
        throw CommandFailure(
          exitCode: .failure,
          message:
            "the agent (PID \(pid)) did not stop within \(Int(clamping: Self.stopTimeout)) s; it may "
            + "be storing a refresh; `kill -KILL \(pid)` ends it at once (a refresh cut short "
            + "can cost that account a new sign-in)")
      }
      try? await Task.sleep(for: .milliseconds(20))
    }
  }

  /// True once process `pid` has ended: gone, or a zombie its parent has not reaped yet (a
  /// test or a shell that started the agent in the foreground).
  static func hasEnded(_ pid: Int32) -> Bool {
    // ESRCH: gone; EPERM: the number is another user's process now, so ours is gone too.
    if kill(pid, 0) != 0 { return true }
    guard let state = LeaseHolderProcess.processStat(of: pid)?.state else { return true }
    return state == "Z" || state == "X"
  }
}
