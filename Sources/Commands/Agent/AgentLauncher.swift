import Accounts
import Agent
import Foundation
import Isolation
import Providers
import Spelling
import System
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// Leaves `authtui agent` running in the background for a vault this process unlocked: the one
/// way `agent start` and `unlock_once` start it.
///
/// The agent is this same program (`/proc/self/exe`) run as `agent --handover-fd 3`, in a
/// session of its own, with standard input from /dev/null, its output in the log beside its
/// socket (`agent.log`, 0600, rewritten at each start), and none of this process's other
/// descriptors. Its environment is this one without any passphrase variable; the vault's
/// unlock key reaches it only over the socket pair inherited as descriptor 3 (`AgentHandover`),
/// so scrypt runs once, here. This process returns once the agent says it listens, or with
/// the failure that stopped it.
package enum AgentLauncher {
  /// How long the agent may take to open the vault and listen.
  static let readinessTimeout: TimeInterval = 30

  /// A started agent.
  struct Started: Sendable, Equatable {
    let pid: Int32
    let socket: String
    let log: String
  }

  /// Starts the agent for the unlocked `vault`, with the providers of `configuration`, on
  /// `location`, stopping after `idleTimeout` seconds without a request (0: never) and
  /// `lifetime` after it starts (nil: never), holding the token requests `confirm` names for
  /// a person.
  static func launch(
    _ vault: Vault, configuration: ConfigurationLocation, idleTimeout: Int,
    lifetime: Duration? = nil, confirm: ConfirmationMode? = nil,
    location: AgentSocketLocation,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(CommandFailure) -> Started {
    guard let key = await vault.unlockKey() else {
      throw VaultAccess.failure(.locked(path: vault.location.fileURL.path))
    }
    try location.claim()
    let log = try openLog(location.logPath)
    defer { close(log) }
    guard let channel = AgentHandover.channel() else {
      throw failure("cannot make the channel to the agent (\(String(cString: strerror(errno))))")
    }
    defer { close(channel.starter) }
    var childEnvironment = PassphraseSource.withoutPassphrases(environment)
    // The agent listens where this process looked, whatever its own environment would say.
    childEnvironment["AUTHTUI_AGENT_SOCKET"] = location.path
    // The running program's own file: `authtui-core` when `authtui` is a front.
    let program = PathText.runningExecutable()
    let process: SpawnedProcess
    do {
      process = try SpawnedProcess.start(
        program,
        arguments: [
          "agent", "--vault", vault.location.canonicalPath, "--config",
          configuration.directory.path, "--idle-timeout", String(idleTimeout),
          "--\(AgentCommand.handoverOption)", "3",
        ] + (lifetime.map { ["--lifetime", "\($0.components.seconds)s"] } ?? [])
          + (confirm.map { ["--confirm", $0.rawValue] } ?? []),
        environment: childEnvironment, standardInput: .null, standardOutput: .descriptor(log),
        standardError: .descriptor(log), extra: [3: channel.agent], detached: true)
    } catch {
      close(channel.agent)
      throw failure("cannot start \(program) (\(error.reason))")
    }
    close(channel.agent)
    let readiness = await AgentHandover.hand(key, over: channel.starter, timeout: readinessTimeout)
    // The agent's parent reaps it, here or (once this process ends) init: never a zombie
    // beside a UI that outlives it.
    let reaped = Task.detached { await onOwnThread(named: "agent-reaper") { process.wait() } }
    switch readiness {
    case .listening(let pid, _):
      return Started(pid: pid, socket: location.path, log: location.logPath)
    case .failed(let answer):
      throw answer
    case .ended:
      let termination = await reaped.value
      throw failure(
        "the agent stopped before it listened (\(termination.description)); its log is "
          + location.logPath)
    case .timedOut:
      kill(process.pid, SIGTERM)
      throw failure(
        "the agent did not listen within \(Int(clamping: readinessTimeout)) s and was stopped; "
          + "its log is " + location.logPath)
    }
  }

  /// The agent's side: the book over the vault its starter unlocked, opened with the key that
  /// arrives on `fd` (which no program the agent starts inherits).
  static func book(handedOverOn fd: Int32, _ options: GlobalOptions, console: Console)
    async throws(CommandFailure) -> AccountBook
  {
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    guard let key = await AgentHandover.receiveKey(from: fd, timeout: readinessTimeout) else {
      throw failure(
        "no vault key arrived on descriptor \(fd): --\(AgentCommand.handoverOption) is for "
          + "`authtui agent start`; run the agent with that, or without the option")
    }
    let vault = try await VaultAccess.open(VaultAccess.location(options))
    do {
      try await vault.unlock(with: key)
    } catch .wrongPassphrase(let path) {
      throw CommandFailure(
        exitCode: .vaultLocked,
        message: "the passphrase of the vault \(path) changed while the agent started; start "
          + "it again")
    } catch {
      throw VaultAccess.failure(error)
    }
    return AccountAccess.book(
      over: vault, catalog: AccountAccess.catalog(options, console: console, reportProblems: false))
  }

  /// Under `unlock_once` in config.json, leaves an agent running for the unlocked `vault`
  /// unless one answers already (or `AUTHTUI_NO_AGENT` is set). Returns why none could be
  /// started, for the caller to say, and goes on as it would have; nil when all is well.
  package static func leaveRunningIfAsked(
    _ vault: Vault, configuration: ConfigurationLocation,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async -> String? {
    guard AgentClient.enabled(environment: environment) else { return nil }
    let (settings, _) = UserSettings.load(from: configuration)
    guard settings.agentUnlockOnce else { return nil }
    let location = AgentSocketLocation.resolve(environment: environment)
    let ping = AgentRequest(operation: .ping, vault: vault.location.canonicalPath)
    if await AgentClient.exchangeNamingPeer(
      ping, at: location, timeout: AgentConnection.connectTimeout) != nil
    {
      return nil
    }
    do {
      _ = try await launch(
        vault, configuration: configuration,
        idleTimeout: settings.agentIdleTimeout ?? UserSettings.defaultAgentIdleTimeout,
        location: location, environment: environment)
    } catch  where error.code == "agent_running" {
      // Another command started one meanwhile: that is what was asked.
    } catch {
      return
        "could not leave an agent running (\"unlock_once\" in config.json): \(error.message)"
    }
    return nil
  }

  /// The log file, created 0600 (or emptied and made 0600); never through a link, and never
  /// a FIFO (O_NONBLOCK: opening one with no reader fails at once instead of waiting).
  private static func openLog(_ path: String) throws(CommandFailure) -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    var info = stat()
    guard fd >= 0, fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      fchmod(fd, 0o600) == 0
    else {
      let reason = String(cString: strerror(errno))
      if fd >= 0 { close(fd) }
      throw failure("cannot write the agent's log \(path) (\(reason)); remove it and try again")
    }
    return fd
  }

  private static func failure(_ message: String) -> CommandFailure {
    CommandFailure(exitCode: .failure, message: message, code: "agent_start")
  }
}
