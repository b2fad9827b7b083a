import Foundation
import System
import Vault

/// How every command that needs the vault opens it: the location from `--vault`, `AUTHTUI_VAULT`
/// or the XDG default, the passphrase from `PassphraseSource`, and each failure turned into the
/// exit code of DESIGN.md ("3 vault locked or wrong passphrase") with a message that says what to
/// do. `token`, `login` and `list` use `unlocked`; `vault` uses the pieces.
package enum VaultAccess {
  /// The vault file these options mean.
  static func location(
    _ options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> VaultLocation {
    VaultLocation.resolve(explicitPath: options.vault, environment: environment)
  }

  /// The facts of the vault at `location` that need no passphrase (`vault status`, `vault
  /// lock`).
  static func inspect(_ location: VaultLocation) async throws(CommandFailure) -> VaultStatus {
    do {
      return try await Vault.inspect(at: location)
    } catch {
      throw failure(error)
    }
  }

  /// The vault, opened and unlocked.
  static func unlocked(
    _ options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment,
    prompt: String = "Vault passphrase: "
  ) async throws(CommandFailure) -> Vault {
    let location = location(options, environment: environment)
    let vault: Vault
    do {
      vault = try await Vault.open(at: location)
    } catch {
      // On the remote side of `authtui ssh` there is no vault: the forward stands for one.
      if case .noVault(let path) = error, AgentStatusCommand.isForwarded {
        throw forwardedAgentUnreachable(vault: path)
      }
      throw failure(error)
    }
    try await unlock(vault, with: .current(environment: environment), prompt: prompt)
    return vault
  }

  /// The failure of a command on the remote side of `authtui ssh` (`AUTHTUI_AGENT_FORWARDED`)
  /// whose forwarded agent did not answer, and which found no vault of this machine to open
  /// instead: the agent of the other machine is what is missing, not a vault here (exit 3,
  /// as `authtui ssh` exits when no agent runs to forward).
  /// `path`, when given, is the vault this machine does not have.
  static func forwardedAgentUnreachable(vault path: String?) -> CommandFailure {
    CommandFailure(
      exitCode: .vaultLocked,
      message: "the agent of the other machine does not answer through the ssh forward on "
        + "\(AgentSocketLocation.resolve().path) (AUTHTUI_AGENT_FORWARDED=1)"
        + (path.map { ", and there is no vault here at \($0)" } ?? "")
        + ": it is not running there (stopped, or locked with `authtui vault lock`), or this "
        + "ssh session's forward is gone; start it on that machine with `authtui agent start`, "
        + "then reconnect with `authtui ssh`",
      code: "forwarded_agent_unreachable")
  }

  /// The vault unlocked as `unlocked` does it, made first when there is none yet and a person
  /// is at the terminal to choose its passphrase (none comes from a variable, a file or a
  /// command): `login`, a new user's first command after `providers add` or without the UI's
  /// first run, then creates it as `vault init` would, saying so on standard error, instead of
  /// sending them to `vault init` and back. A script (no terminal, or a passphrase variable)
  /// still hears that there is no vault: a mistyped `--vault` must not become a new vault.
  static func unlockedOrCreated(
    _ options: GlobalOptions, console: Console,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(CommandFailure) -> Vault {
    let location = location(options, environment: environment)
    let source = PassphraseSource.current(environment: environment)
    guard source.origin == .terminal,
      !FileManager.default.fileExists(atPath: location.fileURL.path),
      TerminalPassphrase.isAvailable
    else { return try await unlocked(options, environment: environment) }
    console.err(
      "There is no vault at \(location.fileURL.path) yet: authtui creates it now, as "
        + "`authtui vault init` does (Ctrl-C stops here). Choose its passphrase.")
    return try await VaultInitCommand.create(at: location, source: source, report: console.err)
  }

  /// Opens the vault, locked.
  static func open(_ location: VaultLocation) async throws(CommandFailure) -> Vault {
    do {
      return try await Vault.open(at: location)
    } catch {
      throw failure(error)
    }
  }

  /// Unlocks `vault` with the key `vault unlock --cache` keeps in the kernel keyring when one
  /// is there and opens it; otherwise reads the passphrase from `source` and unlocks with
  /// that (the UI's start does it for a passphrase from a variable, a file or a command).
  /// `cachedKey: false` always asks for the passphrase (`vault passwd`, `vault unlock`: a
  /// person proves they know it).
  package static func unlock(
    _ vault: Vault, with source: PassphraseSource, prompt: String, cachedKey: Bool = true,
    warn: (@Sendable (String) -> Void)? = { Console().err("authtui: " + $0) }
  ) async throws(CommandFailure) {
    if cachedKey, await unlockWithCachedKey(vault) { return }
    let passphrase = try await read(source, prompt: prompt, warn: warn)
    let path = vault.location.fileURL.path
    let waiting = UnlockWaiting { others, turns in
      Console().err(
        "authtui: waiting for \(others) other unlock\(others == 1 ? "" : "s") of the vault \(path) "
          + "to finish (\(turns) at a time fit here); `authtui agent start` unlocks it once for "
          + "all commands")
    }
    do {
      try await vault.unlock(with: passphrase, waiting: waiting)
    } catch {
      throw failure(error, passphraseFrom: source.origin)
    }
  }

  /// Unlocks `vault` with the key cached in the kernel keyring for it, without a passphrase
  /// and without scrypt; false, saying nothing, when none is cached (or the keyring is not
  /// available), or the vault refuses it: a key taken before the passphrase changed is stale,
  /// and is removed.
  package static func unlockWithCachedKey(_ vault: Vault) async -> Bool {
    guard let id = try? await vault.identifier(), let cached = UnlockKeyCache.entry(vaultID: id)
    else { return false }
    do {
      try await vault.unlock(with: cached.key)
      return true
    } catch .wrongPassphrase {
      UnlockKeyCache.forget(vaultID: id)
      return false
    } catch {
      // The passphrase's unlock meets the same problem and says it.
      return false
    }
  }

  /// Reads a passphrase, turning a failure into exit code 3 (6 when the user cancelled).
  /// `warn` is told when the passphrase's file can be read by other users (the UI, whose
  /// screen standard error would damage, gives nil).
  static func read(
    _ source: PassphraseSource, prompt: String, confirmation: String? = nil,
    warn: (@Sendable (String) -> Void)? = { Console().err("authtui: " + $0) }
  ) async throws(CommandFailure) -> Passphrase {
    if let warn, let exposure = source.exposure { warn(exposure) }
    do {
      return try await source.read(prompt: prompt, confirmation: confirmation)
    } catch {
      throw CommandFailure(exitCode: ExitCode(error), message: error.message)
    }
  }

  /// The machine name of a vault that cannot be written (`login --json`'s error event).
  static let readOnlyCode = "vault_read_only"

  /// Refuses, before anything is asked or sent, a vault at `location` that exists and that
  /// this process cannot write (`VaultLocation.writeBlock()`): `login` must not sign in only
  /// to drop the tokens.
  static func requireWritable(_ location: VaultLocation) throws(CommandFailure) {
    guard FileManager.default.fileExists(atPath: location.fileURL.path),
      let block = location.writeBlock()
    else { return }
    throw failure(.readOnly(path: location.fileURL.path, block))
  }

  /// `requireWritable` for an open vault: also a connection SQLite opened for reading only.
  static func requireWritable(_ vault: Vault) async throws(CommandFailure) {
    let problem: VaultError?
    do {
      problem = try await vault.writeProblem()
    } catch {
      throw failure(error)
    }
    if let problem { throw failure(problem) }
  }

  /// The exit code and message of a vault error; `origin` makes a wrong-passphrase message name
  /// where the passphrase came from.
  package static func failure(_ error: VaultError, passphraseFrom origin: PassphraseOrigin? = nil)
    -> CommandFailure
  {
    if case .readOnly = error {
      return CommandFailure(
        exitCode: ExitCode(error), message: error.description, code: readOnlyCode)
    }
    guard case .wrongPassphrase(let path) = error else {
      return CommandFailure(exitCode: ExitCode(error), message: error.description)
    }
    let origin = origin ?? .terminal
    return CommandFailure(
      exitCode: ExitCode(error),
      message: "\(origin) does not open the vault \(path) (nothing was changed); \(origin.remedy)")
  }
}
