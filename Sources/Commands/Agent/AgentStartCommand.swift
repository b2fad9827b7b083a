import Agent
import Foundation

/// `authtui agent start [--idle-timeout DURATION] [--lifetime DURATION]`: the agent in the
/// background, returning once it listens.
struct AgentStartCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "start",
    summary: "Start the agent in the background; prints `pid=PID socket=PATH` once it listens.",
    details: """
      Asks for the passphrase as every command does (the terminal, or AUTHTUI_PASSPHRASE,
      …_FILE, …_COMMAND), unlocks the vault here, and starts `authtui agent` detached from
      the terminal (a session of its own, standard input /dev/null). The agent gets the
      vault's key over an inherited socket pair, never in its arguments or environment (no
      passphrase variable reaches it), so the key derivation runs once. Returns once the
      agent listens, printing one line: `pid=PID socket=PATH` (the path runs to the end of
      the line). The agent's own messages go to its log beside the socket
      ($XDG_RUNTIME_DIR/authtui/agent.log, 0600, rewritten at each start). Exit 1 naming
      the running agent's PID when one already runs on that socket. Without --idle-timeout
      (or with 0) and --lifetime it runs until `authtui agent stop`. Both take a DURATION
      (90s, 15m, 8h, 2d; a bare number is seconds): --idle-timeout stops it after that long
      without a request, --lifetime that long after it starts, whatever its activity: it
      finishes what is under way, as `agent stop` does, and forgets the vault's key; `agent
      status` shows when (`ends`). With --confirm forwarded, each
      token request that came through an ssh forward waits for a person (--confirm always:
      every token request): an authtui UI open on the vault asks in a dialog, else the
      program AUTHTUI_CONFIRM_COMMAND names (read here) is asked, exit 0 allowing; with
      neither, or after 60 s, the request is denied (exit 6). See docs/security.md.
      """,
    options: [.idleTimeout(\.idleTimeout), .lifetime(\.lifetime), .confirm(\.confirm)])

  var global = GlobalOptions()
  /// `--idle-timeout`: the agent stops after this many seconds without a request; 0 never.
  var idleTimeout = 0
  /// `--lifetime`: the agent stops this long after it starts; nil never.
  var lifetime: Duration?
  /// `--confirm`: which token requests wait for a person (none unless given).
  var confirm: ConfirmationMode?

  func run(console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      let location = AgentSocketLocation.resolve()
      // Refuse a bad folder, a running agent or rules config.json cannot state before asking
      // for the passphrase (the agent checks the rules again as it starts).
      try location.claim()
      _ = try AgentConfirmation.rules(confirm, global)
      let vault = try await VaultAccess.unlocked(global)
      let started: AgentLauncher.Started
      do {
        started = try await AgentLauncher.launch(
          vault, configuration: AccountAccess.configuration(global),
          idleTimeout: idleTimeout, lifetime: lifetime, confirm: confirm, location: location)
      } catch {
        await vault.close()
        throw error
      }
      await vault.close()
      console.out("pid=\(started.pid) socket=\(started.socket)")
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }
}
