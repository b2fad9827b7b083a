import Agent
import Foundation
import System
import Vault

/// `authtui vault lock`: forgets the unlock key cached in the kernel keyring and stops the
/// agent serving this vault, so nothing holds the vault open any more.
struct VaultLockCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "lock",
    summary: "Forget the unlock key cached in the kernel keyring and stop this vault's agent.",
    details: """
      Needs no passphrase. Removes the key `authtui vault unlock --cache` left in the kernel
      keyring for this vault, and stops the agent on the socket (AUTHTUI_AGENT_SOCKET, else
      the default) when it serves this vault, as `authtui agent stop` does; an agent serving
      another vault is left running. Says what it did; exit 0 when there was nothing to do.
      The next command asks for the passphrase again.
      """)

  var global = GlobalOptions()

  func run(console: Console) async -> ExitCode {
    let location = VaultAccess.location(global)
    do throws(CommandFailure) {
      let status = try await VaultAccess.inspect(location)
      let key =
        UnlockKeyCache.forget(vaultID: status.identifier)
        ? "forgot the cached unlock key" : "nothing was cached"
      let agent: String
      do {
        agent = try await Self.stopAgent(serving: location.canonicalPath)
      } catch {
        console.out(key)
        throw error
      }
      console.out("\(key); \(agent)")
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// Stops the agent on this user's socket when it serves `vault`; says what it did.
  private static func stopAgent(serving vault: String) async throws(CommandFailure) -> String {
    let socket = AgentSocketLocation.resolve()
    let agent: (response: AgentResponse, pid: Int32)
    do throws(CommandFailure) {
      agent = try await AgentStatusCommand.runningAgent(
        at: socket, asking: AgentRequest(operation: .ping, vault: vault),
        forwarded: "lock the vault there with `authtui vault lock`")
    } catch {
      if error.code == "forwarded_agent" {
        return "the agent on \(socket.path) is \(AgentStatusCommand.forwardedAgentWords); "
          + "left it running (lock the vault there with `authtui vault lock`)"
      }
      guard error.code == "no_agent" else { throw error }
      return "no agent was running"
    }
    if case .failure(let refusal) = agent.response {
      guard refusal.code == "other_vault" else { throw refusal }
      return "the agent (pid \(agent.pid)) on \(socket.path) serves another vault; left it running"
    }
    let pid = agent.pid
    try await AgentStopCommand.stop(pid: pid, at: socket)
    return "stopped the agent (pid \(pid))"
  }
}
