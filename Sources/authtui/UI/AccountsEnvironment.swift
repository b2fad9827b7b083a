import Accounts
import App
import AuthCore
import Commands
import Crypto
import Foundation
import Providers
import System
import Vault

/// The UI's world: the vault and the providers through `AccountBook`, the browser and the
/// clipboard. The UI calls it from tasks, never from its own thread.
actor AccountsEnvironment: AppEnvironment {
  private let setup: VaultSetup
  private let terminal: TerminalClipboard
  private let environment: [String: String]
  private let openPage: @Sendable (String, String?) -> BrowserReport
  private let clearAfter: TimeInterval
  private var settings = UserSettings()
  private var catalog: ProviderCatalog?
  private var vault: Vault?
  private var book: AccountBook?
  private var sessions: [RequestID: SignInSession] = [:]
  /// End-session URLs handed to the UI (they carry an id_token): opened only through a
  /// one-time address, never in a browser's argv.
  private var endSessionPages: [String: URL] = [:]

  /// `terminal` is the UI's way to the terminal's clipboard; `clearAfter` the seconds a
  /// copied token stays there.
  init(
    setup: VaultSetup, terminal: TerminalClipboard, environment: [String: String],
    clearAfter: TimeInterval, openPage: @escaping @Sendable (String, String?) -> BrowserReport
  ) {
    self.setup = setup
    self.terminal = terminal
    self.environment = environment
    self.clearAfter = clearAfter
    self.openPage = openPage
  }

  // MARK: The effects

  /// Each effect's call and the action its result becomes, one line each.
  func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async -> Action? {
    switch effect {
    case .start:
      return .started(await start())
    case .unlock(let id, let passphrase):
      return .unlockFinished(id, await AppFailure.thrown(by: try await unlock(passphrase)))
    case .createVault(let id, let passphrase):
      return .unlockFinished(id, await AppFailure.thrown(by: try await createVault(passphrase)))
    case .loadAccounts(let id):
      return .accountsLoaded(id, await AppFailure.result(of: try await accounts()))
    case .loadProviders(let id):
      return .providersLoaded(id, providers())
    case .startSignIn(let id, let provider, let method):
      return .signInFinished(
        id,
        await AppFailure.result(
          of: try await signIn(id, provider: provider, method: method) { progress in
            send(.signInProgress(id, progress))
          }))
    case .submitRedirect(let id, let url):
      return .redirectSubmitted(
        id, await AppFailure.thrown(by: try await submitRedirect(url, to: id)))
    case .openBrowser(let id, let url, let userCode):
      return .browserOpened(id, await openBrowser(url, userCode: userCode))
    case .copyText(let id, let text, let what):
      return .copyFinished(id, .success(copyText(text, what: what)))
    case .copyToken(let id, let account):
      return .copyFinished(id, await AppFailure.result(of: try await copyToken(account)))
    case .refresh(let id, let account):
      return .refreshFinished(id, account, await AppFailure.result(of: try await refresh(account)))
    case .signOut(let id, let account):
      return .signOutFinished(id, account, await AppFailure.result(of: try await signOut(account)))
    case .exportEnvFile(let id, let account, let path, let variable):
      return .exportFinished(
        id,
        await AppFailure.result(
          of: try await exportEnvFile(account, path: path, variable: variable)))
    case .cancelSignIn, .redraw:
      return nil
    }
  }

  // MARK: The vault

  private func start() async -> VaultAvailability {
    let supplied: SecretText?
    do {
      supplied = try await setup.prepare()
    } catch {
      return .unusable(error)
    }
    let (settings, _) = UserSettings.load(from: setup.configuration)
    self.settings = settings
    catalog = ProviderCatalog.load(
      from: setup.configuration, defaultLoginTimeout: settings.loginTimeout)
    let opened: Vault
    do {
      opened = try await Vault.open(at: setup.location)
    } catch .noVault {
      if let supplied {
        do {
          try await createVault(supplied)
          return .unlocked
        } catch {
          return .unusable(error)
        }
      }
      return .missing
    } catch {
      return .unusable(AppFailure(.other, error.description))
    }
    vault = opened
    if let supplied {
      do {
        try await unlock(supplied)
        return .unlocked
      } catch {
        return .locked(problem: error)
      }
    }
    guard let source = setup.passphrase, source.origin != .terminal else {
      return .locked(problem: nil)
    }
    do throws(CommandFailure) {
      try await VaultAccess.unlock(opened, with: source, prompt: "")
    } catch {
      // The unlock screen shows the command line's sentence, which names the variable.
      let kind: AppFailure.Kind = error.exitCode == .vaultLocked ? .wrongPassphrase : .other
      return .locked(problem: AppFailure(kind, error.message))
    }
    ready(opened)
    return .unlocked
  }

  private func unlock(_ passphrase: SecretText) async throws(AppFailure) {
    guard let vault else { throw AppFailure(.other, "the vault is not open") }
    do {
      try await vault.unlock(with: Passphrase(passphrase.revealed))
    } catch {
      throw failure(error, from: nil)
    }
    ready(vault)
  }

  private func createVault(_ passphrase: SecretText) async throws(AppFailure) {
    do {
      let parameters: Scrypt.Parameters
      switch setup.newVaultCost {
      case .standard: parameters = .interactive
      case .throwaway:
        parameters =
          (try? Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1)) ?? .interactive
      }
      let created = try await Vault.create(
        at: setup.location, passphrase: Passphrase(passphrase.revealed), parameters: parameters)
      ready(created)
    } catch {
      throw AppFailure(.other, error.description)
    }
  }

  private func ready(_ vault: Vault) {
    self.vault = vault
    book = AccountAccess.book(
      over: vault, catalog: catalog ?? ProviderCatalog.load(from: setup.configuration))
  }

  /// The command line's message for a vault error (a wrong passphrase names where it came from
  /// and what to do), as the unlock screen shows it.
  private func failure(_ error: VaultError, from origin: PassphraseOrigin?) -> AppFailure {
    let message = VaultAccess.failure(error, passphraseFrom: origin).message
    if case .wrongPassphrase = error { return AppFailure(.wrongPassphrase, message) }
    return AppFailure(.other, message)
  }

  private func requireBook() throws(AppFailure) -> AccountBook {
    guard let book else { throw AppFailure(.other, "the vault is locked; unlock it first") }
    return book
  }

  /// `body` with the unlocked book, its error as the UI shows it.
  private func withBook<Value>(
    _ body: (AccountBook) async throws(AccountsError) -> Value
  ) async throws(AppFailure) -> Value {
    let book = try requireBook()
    do {
      return try await body(book)
    } catch {
      throw AppFailure(error)
    }
  }

  // MARK: Accounts and providers

  private func accounts() async throws(AppFailure) -> AccountList {
    let listing = try await withBook { book throws(AccountsError) in try await book.listing() }
    return AccountList(accounts: listing.accounts.map(summary), damaged: listing.damaged)
  }

  private func providers() -> [ProviderSummary] {
    (catalog?.entries ?? []).map(ProviderSummary.init)
  }

  private func summary(_ record: AccountRecord) -> AccountSummary {
    AccountSummary(
      record,
      providerName: (try? ProviderID(record.providerID)).flatMap { catalog?.entry($0)?.name }
        ?? record.providerID)
  }

  private func record(_ name: AccountName) async throws(AppFailure) -> AccountRecord {
    try await withBook { book throws(AccountsError) in
      try await book.account(named: name.description)
    }
  }

  // MARK: Sign-in

  private func signIn(
    _ attempt: RequestID, provider: ProviderID, method: SignInFlow,
    progress: @escaping @Sendable (SignInProgress) -> Void
  ) async throws(AppFailure) -> AccountSummary {
    let session = try await withBook { book throws(AccountsError) in
      try await book.beginSignIn(provider: provider, flow: method)
    }
    sessions[attempt] = session
    defer { sessions[attempt] = nil }
    let reader = Task {
      for await change in session.progress { progress(change) }
    }
    defer { reader.cancel() }
    let stored: AccountRecord
    do {
      stored = try await withTaskCancellationHandler {
        try await session.finish()
      } onCancel: {
        session.cancel()
      }
    } catch let error as AccountsError {
      throw AppFailure(error)
    } catch {
      throw AppFailure(.other, "\(error)")
    }
    return summary(stored)
  }

  private func submitRedirect(_ url: SecretText, to attempt: RequestID) async throws(AppFailure) {
    guard let session = sessions[attempt] else {
      throw AppFailure(.other, "that sign-in has ended; start a new one")
    }
    do {
      try await session.submitRedirect(url.revealed)
    } catch {
      throw AppFailure(error)
    }
  }

  // MARK: Tokens

  private func refresh(_ account: AccountName) async throws(AppFailure) -> AccountSummary {
    let record = try await record(account)
    return summary(
      try await withBook { book throws(AccountsError) in
        try await book.refresh(record.id, startedAt: Date())
      })
  }

  /// A valid access token of `account` (refreshed first when under a minute is left) and the
  /// account as it is afterwards.
  private func validToken(_ account: AccountName) async throws(AppFailure) -> (
    String, AccountRecord
  ) {
    let record = try await record(account)
    return try await withBook { book throws(AccountsError) in
      let token = try await book.accessToken(
        for: record.id, minimumValidity: 60, startedAt: Date())
      return (token, try await book.account(named: account.description))
    }
  }

  private func exportEnvFile(_ account: AccountName, path: String, variable: String)
    async throws(AppFailure) -> ExportReport
  {
    let (token, record) = try await validToken(account)
    let expanded = EnvFile.expandingHome(path)
    do {
      try EnvFile.createFolder(of: expanded)
    } catch {
      throw AppFailure(
        .other, "cannot create the folder of \(path) (\(error.reason)); choose another file")
    }
    do {
      try EnvFile.write(
        variable: variable, value: token, expiresAt: record.tokens.expiresAt, to: expanded)
    } catch {
      throw AppFailure(error)
    }
    return ExportReport(
      account: account, path: path, variable: variable, expiresAt: record.tokens.expiresAt)
  }

  private func copyToken(_ account: AccountName) async throws(AppFailure) -> CopyReport {
    let (token, _) = try await validToken(account)
    let tools = copy(token, clearAfter: clearAfter)
    return CopyReport(
      what: "the token of \(account)", tools: tools, clearsAfter: clearAfter > 0 ? clearAfter : nil)
  }

  private func copyText(_ text: String, what: String) -> CopyReport {
    CopyReport(what: what, tools: copy(text, clearAfter: 0))
  }

  /// The command line's clipboard, with the terminal's part going through the UI loop (only
  /// its thread may write to the terminal); returns the desktop tools used.
  private func copy(_ text: String, clearAfter: TimeInterval) -> [String] {
    let terminal = self.terminal
    let report = Clipboard.copy(
      text, clearAfter: clearAfter, terminalPath: Clipboard.controllingTerminalPath(),
      writeToTerminal: { _ in
        terminal.copy(SecretText(text))
        return true
      }, environment: environment)
    return report.localTool.map { [$0] } ?? []
  }

  // MARK: Sign-out and the browser

  private func signOut(_ account: AccountName) async throws(AppFailure) -> SignOutReport {
    let record = try await self.record(account)
    let report = try await withBook { book throws(AccountsError) in
      try await book.signOut(record, localOnly: false)
    }
    if let url = report.endSessionURL { endSessionPages[url.absoluteString] = url }
    return report
  }

  /// Opens `url`; a page whose URL carries secrets goes through a one-time address. A sign-in's
  /// one-time address is exchanged for a fresh one when it was handed out before, so opening the
  /// page again is not taken for another program's fetch.
  private func openBrowser(_ url: String, userCode: String?) async -> BrowserReport {
    let openPage = self.openPage
    if let target = endSessionPages[url] {
      return await SignOutPage.open(target) { openPage($0, userCode) }
        ?? .unavailable("the sign-out page could not be offered on 127.0.0.1; try again")
    }
    for session in sessions.values where session.isOneTimeAddress(url) {
      if let address = await session.browserAddress() {
        return openPage(address.absoluteString, userCode)
      }
    }
    return openPage(url, userCode)
  }
}
