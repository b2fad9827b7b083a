import Agent
import Crypto
import Foundation
import System

/// `authtui ssh [SSH OPTION]... DESTINATION [-- COMMAND...]`: the system's `ssh` with the
/// running agent's socket forwarded to the remote machine, so that `authtui token` there
/// answers from this machine's agent with no vault of its own (`SSHForwarding` says how).
struct SSHCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "ssh",
    summary: "Run ssh with the agent forwarded: `authtui token` on the remote answers from here.",
    details: """
      Runs the system's ssh (AUTHTUI_SSH names another program, else `ssh` is looked for on
      PATH) with the running agent's socket forwarded to the remote machine (-R), so that
      `authtui token ACCOUNT` there (the installed authtui, no vault) answers from this
      machine's agent. sshd binds the socket, 0600 with its default StreamLocalBindMask, at
      a fresh random path in /tmp; the remote command then moves it into a new 0700 folder,
      /tmp/authtui-fwd-RANDOM, sets AUTHTUI_AGENT_SOCKET to it and AUTHTUI_AGENT_FORWARDED=1
      (so requests say the remote host's name, which `agent status` shows as the remote
      says it), and runs COMMAND (each word passed as one argument, quoted for a POSIX shell;
      for shell syntax run `sh -c '…'`), or your login shell with a terminal (-t) without
      COMMAND. The folder and socket are removed when the session ends. SSH OPTIONs go to ssh
      as they are, before DESTINATION (COMMAND only after `--`); -N, -W, -s and -O, which run
      no command of authtui's, are refused. The remote side needs /bin/sh and a POSIX login
      shell (sh, bash, zsh, ksh, dash) and sshd's AllowStreamLocalForwarding (the default).
      A forwarded request is answered for the agent's vault whatever vault the remote names;
      every request is listed by `authtui agent status`. No secret is in either command line.
      Exit status: ssh's (255 when ssh or the forwarding failed, the remote command's
      otherwise); 3, before ssh starts, when no agent runs (start one with `authtui agent
      start`, e.g. with --lifetime 8h); 127 when ssh is not found, 126 when it cannot be run.
      Who keeps an ssh configuration of their own forwards the socket by hand: see "Using
      the agent from another machine" in docs/scripting.md.
      """,
    arguments: [
      .everyWord("DESTINATION", shownAs: "[SSH OPTION]... DESTINATION", \.sshWords),
      .optionalCommandAfterSeparator(\.command),
    ])

  var global = GlobalOptions()
  /// The words before `--`: ssh's options, then DESTINATION.
  var sshWords: [String] = []
  /// COMMAND and its arguments, empty for a login shell.
  var command: [String] = []

  /// The variable naming the ssh program to run.
  static let programVariable = "AUTHTUI_SSH"

  /// Runs ssh and ends this process with its status, which no `ExitCode` names.
  func run(console: Console) async -> ExitCode {
    exit(await status(console: console))
  }

  /// Runs ssh and gives the status authtui ends with: ssh's, or one of authtui's own when ssh
  /// never started.
  func status(
    console: Console, environment: [String: String] = ProcessInfo.processInfo.environment
  ) async -> Int32 {
    let forwarding: SSHForwarding
    let location: AgentSocketLocation
    do throws(CommandFailure) {
      forwarding = try SSHForwarding(
        words: sshWords, command: command,
        name: SSHForwarding.randomName(SecureRandom.bytes(count: 16)))
      location = AgentSocketLocation.resolve(environment: environment)
      try await Self.requireAgent(at: location, for: VaultAccess.location(global).canonicalPath)
    } catch {
      console.err(error.line)
      return error.exitCode.rawValue
    }
    let name = environment[Self.programVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "ssh"
    let program: String
    switch ForegroundCommand.locate(name, environment: environment) {
    case .found(let path):
      program = path
    case .notFound:
      console.err(
        "authtui: \(name): command not found (install OpenSSH's client, or set "
          + "\(Self.programVariable) to the ssh program to run)")
      return 127
    case .notExecutable(let path):
      console.err("authtui: \(path): cannot be run (not an executable file)")
      return 126
    }
    return await ForegroundCommand.exitStatus(
      of: program, name: name, arguments: forwarding.arguments(localSocket: location.path),
      environment: PassphraseSource.withoutPassphrases(environment), console: console)
  }

  /// Returns when an agent of this user answers on `location` (for any vault: a forwarded
  /// request is answered for the agent's own); exit 3 naming `authtui agent start` otherwise.
  static func requireAgent(at location: AgentSocketLocation, for vault: String)
    async throws(CommandFailure)
  {
    if let problem = location.existingDirectoryProblem() { throw problem.failure }
    guard !location.path.contains(":") else {
      throw CommandFailure(
        exitCode: .failure,
        message: "the agent's socket path \(location.path) holds a `:`, which ssh's -R cannot "
          + "take; run the agent with AUTHTUI_AGENT_SOCKET set to a path without one")
    }
    let answer = await AgentClient.exchangeNamingPeer(
      AgentRequest(operation: .ping, vault: vault), at: location,
      timeout: AgentConnection.connectTimeout)
    guard let answer, answer.pid != nil else {
      throw CommandFailure(
        exitCode: .vaultLocked,
        message: "no agent runs on \(location.path), so there is nothing to forward; start one "
          + "with `authtui agent start` (e.g. `authtui agent start --lifetime 8h`) and run "
          + "`authtui ssh` again",
        code: "no_agent")
    }
  }
}
