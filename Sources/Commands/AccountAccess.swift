import Accounts
import AuthCore
import Foundation
import Providers
import System
import Vault

/// How the account commands (`login`, `logout`, `token`, `list`, `export`) get their
/// `AccountBook`: the vault unlocked as `VaultAccess` does it, the providers from the
/// configuration folder, and the real network. The interactive UI builds its book with
/// `book(over:catalog:)` too.
package enum AccountAccess {
  /// The configuration folder these options mean.
  static func configuration(_ options: GlobalOptions) -> ConfigurationLocation {
    ConfigurationLocation.resolve(explicitPath: options.config)
  }

  /// The providers `selection` names, with `config.json`'s default login timeout; problems in
  /// the files are written to standard error when `reportProblems` (commands about providers),
  /// and kept quiet otherwise (`token`'s standard error should stay about the token).
  static func catalog(
    _ options: GlobalOptions, console: Console, reportProblems: Bool,
    providers selection: ProviderSelection = .all
  ) -> ProviderCatalog {
    let location = configuration(options)
    let (settings, settingsProblems) = UserSettings.load(from: location)
    let catalog = ProviderCatalog.load(
      from: location, providers: selection, defaultLoginTimeout: settings.loginTimeout)
    if reportProblems {
      for problem in settingsProblems + catalog.skippedFiles {
        console.err("authtui: \(problem)")
      }
    }
    return catalog
  }

  /// Every provider id there is, read or not (a broken file is not a missing provider): the
  /// presets' and the provider files' names, with no file read. An account of none of them
  /// is refreshed and revoked by nobody (`list`, `status`).
  /// With `console`, a configuration folder that cannot be read (a file where it, or a
  /// folder on the way, should be) is said on standard error: it is why every provider file's
  /// provider then counts as removed.
  static func knownProviderIDs(_ options: GlobalOptions, console: Console? = nil)
    -> Set<ProviderID>
  {
    let location = configuration(options)
    if let console, let problem = location.folderProblem { console.err("authtui: \(problem)") }
    return Set(ProviderCatalog.load(from: location, providers: .only([])).knownIDs)
  }

  /// Which providers a command needs.
  enum ProviderScope {
    /// Every provider (`list`, the agent).
    case all
    /// The provider `providers remove ID` names, as typed: text that is no id reads no file.
    case provider(String)
    /// The catalog the command loaded already (`login`, which checks its provider before it
    /// opens the vault).
    case loaded(ProviderCatalog)
    /// The provider of the account this text names (`token`, `export`, `logout`); for `#N`
    /// the vault says which.
    case account(String)
    /// The provider of the account this reference points at, the text already read (`token`);
    /// none for text that is no account name (the book reports that itself).
    case reference(AccountReference?)
  }

  /// The account book over the unlocked vault, with only the provider files `providers` needs:
  /// a command about one account never reads the other providers' files. Under `unlock_once`
  /// in config.json it leaves an agent running for the vault, unless `leavingAgent` is false
  /// (the agent itself).
  static func book(
    _ options: GlobalOptions, console: Console, reportProblems: Bool = false,
    providers: ProviderScope = .all, leavingAgent: Bool = true
  ) async throws(CommandFailure) -> AccountBook {
    await book(
      over: try await VaultAccess.unlocked(options), options, console: console,
      reportProblems: reportProblems, providers: providers, leavingAgent: leavingAgent)
  }

  /// The account book over `vault`, unlocked already, as `book(_:console:…)` makes it.
  static func book(
    over vault: Vault, _ options: GlobalOptions, console: Console, reportProblems: Bool = false,
    providers: ProviderScope = .all, leavingAgent: Bool = true
  ) async -> AccountBook {
    if leavingAgent,
      let problem = await AgentLauncher.leaveRunningIfAsked(
        vault, configuration: configuration(options))
    {
      console.err("authtui: \(problem)")
    }
    let selection: ProviderSelection
    switch providers {
    case .loaded(let catalog): return book(over: vault, catalog: catalog)
    case .all: selection = .all
    case .provider(let text): selection = .only(Set([try? ProviderID(text)].compactMap { $0 }))
    case .account(let text):
      selection = .only(await providerIDs(of: try? AccountReference(parsing: text), in: vault))
    case .reference(let reference):
      selection = .only(await providerIDs(of: reference, in: vault))
    }
    return book(
      over: vault,
      catalog: catalog(
        options, console: console, reportProblems: reportProblems, providers: selection))
  }

  /// The account book over the unlocked `vault` with `catalog`, on the real network; a refresh
  /// being stored holds off the termination signals.
  package static func book(over vault: Vault, catalog: ProviderCatalog) -> AccountBook {
    AccountBook(
      vault: vault, catalog: catalog, transport: URLSessionTransport(),
      criticalSection: TerminationSignals.shared)
  }

  /// The provider of the account `reference` points at; none when there is no reference (the
  /// text was no account name), its provider is no id, or the row cannot be read (the book
  /// then reports that itself).
  static func providerIDs(of reference: AccountReference?, in vault: Vault) async
    -> Set<ProviderID>
  {
    guard let reference else { return [] }
    if let provider = reference.providerID { return [provider] }
    guard case .rowID(let id) = reference.target,
      let record = try? await vault.account(id),
      let provider = try? ProviderID(record.providerID)
    else { return [] }
    return [provider]
  }

  /// The exit code and line of an account error.
  static func failure(_ error: AccountsError) -> CommandFailure {
    if case .vault(let vaultError) = error { return VaultAccess.failure(vaultError) }
    return CommandFailure(exitCode: ExitCode(error), message: error.message, code: error.code)
  }
}
