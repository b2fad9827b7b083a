import Accounts
import App
import AuthCore
import Commands
import Crypto
import Foundation
import Isolation
import Providers
import System
import Vault

/// The UI's world: the vault and the providers through `AccountBook`, the browser and the
/// clipboard. The UI calls it from tasks, never from its own thread.
actor AccountsEnvironment: AppEnvironment {
  private let setup: VaultSetup
  private let terminal: TerminalClipboard
  private let environment: [String: String]
  private let openPage: @Sendable (String, String?, DemoAnswer?) -> BrowserReport
  private let clearAfter: TimeInterval
  private var settings = UserSettings()
  private var catalog: ProviderCatalog?
  /// The stamps of the provider files the catalog was read from: a file added, changed or
  /// removed since moves them.
  private var catalogStamps: ProviderFileStamps?
  /// The last issuer the "Other provider…" form discovered, and what it publishes: the
  /// provider it adds is planned from what the person saw.
  private var discovered: (issuer: String, metadata: OIDCProviderMetadata)?
  /// The network for discovery and registration, as `providers add` has it.
  private let transport = URLSessionTransport()
  private var vault: Vault?
  private var book: AccountBook?
  /// The vault's change stamp when the list was last read: another process wrote when it
  /// moves.
  private var seenStamp: Int64?
  /// The accounts as last read: a reload after another process wrote reads only the rows
  /// written since.
  private var listing: AccountListing?
  /// What came of background work, oldest first, until a look at the vault hands it on.
  private var backgroundNews: [(StatusMessage.Kind, String)] = []
  private var sessions: [RequestID: SignInSession] = [:]
  /// End-session URLs handed to the UI (they carry an id_token): opened only through a
  /// one-time address, never in a browser's argv.
  private var endSessionPages: [String: (url: URL, account: String)] = [:]

  /// `terminal` is the UI's way to the terminal's clipboard; `clearAfter` the seconds a
  /// copied token stays there.
  init(
    setup: VaultSetup, terminal: TerminalClipboard, environment: [String: String],
    clearAfter: TimeInterval,
    openPage: @escaping @Sendable (String, String?, DemoAnswer?) -> BrowserReport
  ) {
    self.setup = setup
    self.terminal = terminal
    self.environment = environment
    self.clearAfter = clearAfter
    self.openPage = openPage
  }

  // MARK: The effects

  /// Each effect's call and the outcome it gives, one line each.
  func perform(
    _ effect: Effect, progress: @escaping @Sendable (SignInProgress) -> Void
  ) async -> Outcome? {
    switch effect {
    case .start:
      return .vault(await start())
    case .unlock(_, let passphrase):
      return .unlocked(problem: await unlock(passphrase))
    case .createVault(_, let passphrase):
      return .unlocked(problem: await createVault(passphrase))
    case .loadAccounts:
      return .accounts(await AccountsError.result(of: try await accounts()))
    case .loadProviders:
      return .providers(providers())
    case .saveProviderSetup(_, let provider, let clientID, let redirectPort, let secret):
      return .providerSaved(
        await saveSetup(
          provider, clientID: clientID, redirectPort: redirectPort, clientSecret: secret))
    case .watchProviders:
      return await watchProviders()
    case .discoverIssuer(_, let issuer):
      return .issuerDiscovered(await discover(issuer))
    case .addProvider(_, let provider, let issuer, let clientID):
      return .providerAdded(await addProvider(provider, issuer: issuer, clientID: clientID))
    case .rename(_, let account, let label):
      return .accounts(
        await AccountsError.result(
          of: try await withBook { book throws(AccountsError) in
            _ = try await book.rename(named: account.description, to: label)
            return try await accounts()
          }))
    case .startSignIn(let id, let provider, let method, let label):
      return .signedIn(
        await AccountsError.result(
          of: try await signIn(
            id, provider: provider, method: method, label: label, progress: progress)))
    case .submitRedirect(let id, let url):
      return .done(await AccountsError.thrown(by: try await submitRedirect(url, to: id)))
    case .openBrowser(_, let url, let userCode, let demo):
      return .browser(await openBrowser(url, userCode: userCode, demo: demo))
    case .copyText(_, let text, let what):
      return .copied(.success(copyText(text, what: what)))
    case .copyToken(_, let account):
      return .copied(await AccountsError.result(of: try await copyToken(account)))
    case .refresh(_, let account):
      return .account(await AccountsError.result(of: try await refresh(account)))
    case .refreshAhead(_, let account):
      return .account(await AccountsError.result(of: try await refreshAhead(account)))
    case .watchVault:
      return await watchVault()
    case .removeDamaged(_, let damaged):
      return .done(
        await AccountsError.thrown(
          by: try await withBook { book throws(AccountsError) in
            _ = try await book.signOut(.damaged(damaged), localOnly: true)
          }))
    case .signOut(_, let account):
      return .signedOut(await AccountsError.result(of: try await signOut(account)))
    case .exportEnvFile(_, let account, let path, let variable):
      return .exported(
        await AccountsError.result(
          of: try await exportEnvFile(account, path: path, variable: variable)))
    case .setDefault(_, let account, let isDefault):
      return .accounts(
        await AccountsError.result(
          of: try await withBook { book throws(AccountsError) in
            if isDefault {
              _ = try await book.makeDefault(named: account.description)
            } else {
              _ = try await book.clearDefault(provider: account.provider.rawValue)
            }
            return try await accounts()
          }))
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
      return .unusable(error.message)
    }
    let (settings, _) = UserSettings.load(from: setup.configuration)
    self.settings = settings
    // The stamps first: a file saved while the catalog is read is read again at the next look.
    catalogStamps = ProviderFileStamps(of: setup.configuration)
    catalog = ProviderCatalog.load(
      from: setup.configuration, defaultLoginTimeout: settings.loginTimeout)
    let opened: Vault
    do {
      opened = try await Vault.open(at: setup.location)
    } catch .noVault {
      if let supplied {
        return await createVault(supplied).map(VaultAvailability.unusable) ?? .unlocked
      }
      return .missing
    } catch {
      return .unusable(error.description)
    }
    vault = opened
    if let supplied {
      return await unlock(supplied).map { .locked(problem: $0) } ?? .unlocked
    }
    guard let source = setup.passphrase, source.origin != .terminal else {
      return .locked(problem: nil)
    }
    do throws(CommandFailure) {
      try await VaultAccess.unlock(opened, with: source, prompt: "")
    } catch {
      // The unlock screen shows the command line's sentence, which names the variable.
      return .locked(problem: error.message)
    }
    await ready(opened)
    return .unlocked
  }

  /// Unlocks the vault; nil, or the command line's sentence for why not.
  private func unlock(_ passphrase: SecretText) async -> String? {
    guard let vault else { return VaultError.closed(path: setup.location.fileURL.path).description }
    do {
      try await vault.unlock(with: Passphrase(passphrase.revealed))
    } catch {
      return VaultAccess.failure(error).message
    }
    await ready(vault)
    return nil
  }

  /// Creates the vault; nil, or why not.
  private func createVault(_ passphrase: SecretText) async -> String? {
    do {
      let created = try await Vault.create(
        at: setup.location, passphrase: Passphrase(passphrase.revealed),
        parameters: setup.newVaultParameters)
      await ready(created)
      return nil
    } catch {
      return error.description
    }
  }

  private func ready(_ vault: Vault) async {
    self.vault = vault
    book = AccountAccess.book(
      over: vault, catalog: catalog ?? ProviderCatalog.load(from: setup.configuration))
    seenStamp = try? await vault.externalChangeStamp()
    listing = nil
    // Under `unlock_once`, leave an agent running, as the command line does; in the
    // background, so the list shows at once. Why none could be started reaches the status
    // line with the next look at the vault.
    let configuration = setup.configuration
    let environment = self.environment
    Task.detached { [weak self] in
      if let problem = await AgentLauncher.leaveRunningIfAsked(
        vault, configuration: configuration, environment: environment)
      {
        await self?.report(.warning, problem)
      }
    }
  }

  /// Keeps `text` for the next look at the vault to hand to the status line.
  private func report(_ kind: StatusMessage.Kind, _ text: String) {
    backgroundNews.append((kind, text))
  }

  /// What another process changed in the vault since the last look (this process's own
  /// writes leave the stamp as it is; their results reach the UI as outcomes already); when
  /// nothing changed, the oldest background news.
  private func watchVault() async -> Outcome {
    if let change = await vaultChange() { return change }
    guard !backgroundNews.isEmpty else { return .done(nil) }
    let (kind, text) = backgroundNews.removeFirst()
    return .backgroundNews(kind, text)
  }

  /// What another process changed in the vault since the last look, or nil.
  private func vaultChange() async -> Outcome? {
    guard let vault, book != nil else { return nil }
    let stamp: Int64
    do {
      stamp = try await vault.externalChangeStamp()
      guard stamp != seenStamp else { return nil }
      if try await vault.passphraseChangedElsewhere() {
        seenStamp = stamp
        await vault.lock()
        book = nil
        return .vault(
          .locked(
            problem: "another authtui process changed the vault's passphrase; type the new one"))
      }
    } catch {
      return .accounts(.failure(.vault(error)))
    }
    // The change counts as seen only once it was read: a reading that failed (the vault busy
    // for a moment) is tried again at the next look, or the list would stay behind until
    // another process happened to write again.
    let result = await AccountsError.result(of: try await accounts(onlyChanges: true))
    if case .success = result { seenStamp = stamp }
    return .accounts(result)
  }

  /// `body` with the unlocked book.
  private func withBook<Value>(
    _ body: (AccountBook) async throws(AccountsError) -> Value
  ) async throws(AccountsError) -> Value {
    guard let book else { throw .vault(.locked(path: setup.location.fileURL.path)) }
    return try await body(book)
  }

  // MARK: Accounts and providers

  /// Every account; with `onlyChanges`, only the rows written since the last read are read.
  private func accounts(onlyChanges: Bool = false) async throws(AccountsError) -> AccountList {
    let previous = onlyChanges ? self.listing : nil
    let listing = try await withBook { book throws(AccountsError) in
      guard let previous else { return try await book.listing() }
      return try await book.listing(updating: previous).listing
    }
    self.listing = listing
    return AccountList(
      accounts: try listing.accounts.map { record throws(AccountsError) in
        try summary(record, isDefault: listing.defaults.contains(record.id))
      },
      damaged: listing.damaged)
  }

  private func providers() -> [ProviderSummary] {
    (catalog?.entries ?? []).map(ProviderSummary.init)
  }

  /// The catalog read again when a provider file (or `config.json`) was added, changed or
  /// removed since the last reading, by any process or editor; `.done(nil)` when none was.
  /// The stamps (a listing and a `stat` per file) and the reading run on a thread of their own.
  private func watchProviders() async -> Outcome {
    let configuration = setup.configuration
    let stamps = await onOwnThread(named: "provider-stamps") {
      ProviderFileStamps(of: configuration)
    }
    guard stamps != catalogStamps else { return .done(nil) }
    await readCatalog()
    return .providers(providers())
  }

  /// Reads the settings and the catalog again (the stamps first) and puts the book over it, so
  /// sign-ins, refreshes and sign-outs from now on use the providers as the files say. A file
  /// that newly cannot be read is named on the status line (with the next look at the vault).
  private func readCatalog() async {
    let configuration = setup.configuration
    let (stamps, settings, fresh) = await onOwnThread(named: "provider-reload") {
      let stamps = ProviderFileStamps(of: configuration)
      let (settings, _) = UserSettings.load(from: configuration)
      return (
        stamps, settings,
        ProviderCatalog.load(from: configuration, defaultLoginTimeout: settings.loginTimeout)
      )
    }
    // A file that no longer reads drops its provider from the list: say which, and why.
    let broken = fresh.skippedFiles.filter { !(catalog?.skippedFiles.contains($0) ?? false) }
    if !broken.isEmpty {
      report(
        .warning,
        "left out a provider file that cannot be read: "
          + broken.map(\.description).joined(separator: "; "))
    }
    catalogStamps = stamps
    self.settings = settings
    catalog = fresh
    if let vault, book != nil { book = AccountAccess.book(over: vault, catalog: fresh) }
  }

  /// How long each request of a discovery or registration may take, as for `providers add`.
  private static let requestTimeout: TimeInterval = 30

  /// What the server at `issuer` offers, as `providers add` prints it; kept for the addition
  /// that follows.
  private func discover(_ issuer: String) async -> Result<IssuerSummary, ProviderAdditionError> {
    let metadata: OIDCProviderMetadata
    do {
      metadata = try await OIDCProvider.discover(
        issuer: issuer, transport: transport, requestTimeout: Self.requestTimeout)
    } catch {
      return .failure(.discovery(error, issuer: issuer))
    }
    let summary = IssuerSummary(metadata)
    guard !summary.flows.isEmpty else { return .failure(.noUsableFlow(issuer: issuer)) }
    discovered = (issuer, metadata)
    return .success(summary)
  }

  /// Adds the provider as `providers add` does (the same planning, registration and file
  /// writing): refused before any request when its id is taken, planned from the metadata the
  /// form showed, registered when no client id is given and the server allows it, saved, and
  /// the catalog read again. A registration whose file then cannot be written is deleted
  /// again where the server allows it (RFC 7592).
  private func addProvider(_ id: ProviderID, issuer: String, clientID: String?) async -> Result<
    ProviderAdded, ProviderAdditionError
  > {
    let configuration = setup.configuration
    var addition: ProviderAddition
    let metadata: OIDCProviderMetadata
    do throws(ProviderAdditionError) {
      try ProviderAddition.checkAvailable(id, in: configuration, replacing: false)
      if let discovered, discovered.issuer == issuer {
        metadata = discovered.metadata
      } else {
        _ = try await discover(issuer).get()
        guard let discovered else { throw .noUsableFlow(issuer: issuer) }
        metadata = discovered.metadata
      }
      addition = try ProviderAddition(
        id: id, issuer: issuer, metadata: metadata, clientID: clientID)
      if addition.needsRegistration, let endpoint = metadata.registrationEndpoint {
        try await addition.register(
          at: endpoint, transport: transport, requestTimeout: Self.requestTimeout)
      }
    } catch {
      return .failure(error)
    }
    let planned = addition
    let saved = await onOwnThread(named: "provider-addition") {
      () -> Result<URL, ProviderAdditionError> in
      do throws(ProviderAdditionError) {
        return .success(try planned.save(in: configuration, replacing: false))
      } catch {
        return .failure(error)
      }
    }
    let file: URL
    switch saved {
    case .success(let url): file = url
    case .failure(let error):
      if let management = planned.management {
        let registrar = ClientRegistrar(transport: transport, requestTimeout: Self.requestTimeout)
        try? await registrar.delete(at: management.uri, accessToken: management.token)
      }
      return .failure(error)
    }
    await readCatalog()
    return .success(
      ProviderAdded(
        id: id, file: ConfigurationLocation.display(file),
        registeredClientID: planned.registered ? planned.clientID : nil, providers: providers()))
  }

  /// Writes the provider's setup into its file, then reads the catalog again and puts the
  /// book over it, so the sign-in that follows uses the new client id. The write (with its
  /// fsyncs) and the reading run on a thread of their own, off the cooperative pool.
  private func saveSetup(
    _ provider: ProviderID, clientID: String, redirectPort: UInt16?, clientSecret: ClientSecret?
  ) async -> Result<[ProviderSummary], ProviderSetupError> {
    let configuration = setup.configuration
    let saved = await onOwnThread(named: "provider-setup") { () -> ProviderSetupError? in
      do throws(ProviderSetupError) {
        try ProviderFile.saveSetup(
          provider, clientID: clientID, redirectPort: redirectPort, clientSecret: clientSecret,
          in: configuration)
        return nil
      } catch {
        return error
      }
    }
    if let saved { return .failure(saved) }
    await readCatalog()
    return .success(providers())
  }

  private func summary(_ record: AccountRecord, isDefault: Bool = false) throws(AccountsError)
    -> AccountSummary
  {
    let provider = try record.accountName.provider
    return try AccountSummary(
      record, providerName: catalog?.entry(provider)?.name ?? provider.rawValue,
      isDefault: isDefault)
  }

  private func record(_ name: AccountName) async throws(AccountsError) -> AccountRecord {
    try await withBook { book throws(AccountsError) in
      try await book.account(named: name.description)
    }
  }

  // MARK: Sign-in

  private func signIn(
    _ attempt: RequestID, provider: ProviderID, method: SignInFlow, label: String?,
    progress: @escaping @Sendable (SignInProgress) -> Void
  ) async throws(AccountsError) -> SignedInSummary {
    let session = try await withBook { book throws(AccountsError) in
      try await book.beginSignIn(provider: provider, flow: method, label: label)
    }
    sessions[attempt] = session
    defer { sessions[attempt] = nil }
    let reader = Task {
      for await change in session.progress { progress(change) }
    }
    defer { reader.cancel() }
    let stored: SignedInAccount
    do {
      stored = try await withTaskCancellationHandler {
        try await session.finish()
      } onCancel: {
        session.cancel()
      }
    } catch let error as AccountsError {
      throw error
    } catch {
      // `finish` throws only AccountsError; the cancellation handler forgets the type.
      throw .auth(.cancelled)
    }
    return SignedInSummary(try summary(stored.record), labelIsSubject: stored.labelIsSubject)
  }

  private func submitRedirect(_ url: SecretText, to attempt: RequestID) async throws(AccountsError)
  {
    // A paste can cross the end of its attempt: that attempt was cancelled or ran out.
    guard let session = sessions[attempt] else { throw .auth(.cancelled) }
    do {
      try await session.submitRedirect(url.revealed)
    } catch {
      throw .auth(error)
    }
  }

  // MARK: Tokens

  private func refresh(_ account: AccountName) async throws(AccountsError) -> AccountSummary {
    let record = try await record(account)
    return try summary(
      try await withBook { book throws(AccountsError) in
        try await book.refresh(record.id, startedAt: Date())
      })
  }

  private func refreshAhead(_ account: AccountName) async throws(AccountsError)
    -> AccountSummary
  {
    let record = try await record(account)
    return try summary(
      try await withBook { book throws(AccountsError) in
        try await book.refreshAhead(record.id, startedAt: Date())
      })
  }

  /// A valid access token of `account` (refreshed first when under a minute is left) and the
  /// account as it is afterwards.
  private func validToken(_ account: AccountName) async throws(AccountsError) -> (
    String, AccountRecord
  ) {
    let record = try await record(account)
    return try await withBook { book throws(AccountsError) in
      try await book.validTokens(for: record.id, minimumValidity: 60, startedAt: Date())
    }
  }

  private func exportEnvFile(_ account: AccountName, path: String, variable: String)
    async throws(AccountsError) -> ExportReport
  {
    let (token, record) = try await validToken(account)
    let expanded = EnvFile.expandingHome(path)
    let expiresAt = record.tokens.expiresAt
    // The folder, the write and its fsyncs block: a thread of their own, off the pool.
    try await onOwnThread(named: "env-file") { () throws(AccountsError) in
      do throws(EnvFile.FolderError) {
        try EnvFile.createFolder(of: expanded)
      } catch {
        throw .envFile(
          path: path,
          reason: "its folder cannot be created (\(error.reason)); choose another file")
      }
      try EnvFile.write(variable: variable, value: token, expiresAt: expiresAt, to: expanded)
    }
    return ExportReport(
      account: account, path: path, variable: variable, expiresAt: record.tokens.expiresAt)
  }

  private func copyToken(_ account: AccountName) async throws(AccountsError) -> CopyReport {
    let (token, _) = try await validToken(account)
    return copy(
      token, what: "the token of \(account)", clearAfter: clearAfter,
      clearsAfter: clearAfter > 0 ? clearAfter : nil)
  }

  private func copyText(_ text: String, what: String) -> CopyReport {
    copy(text, what: what, clearAfter: 0, clearsAfter: nil)
  }

  /// The command line's clipboard, with the terminal's part going through the UI loop (only
  /// its thread may write to the terminal); reports the desktop tools used and what became of
  /// the terminal's copy (tmux may drop it).
  private func copy(
    _ text: String, what: String, clearAfter: TimeInterval, clearsAfter: TimeInterval?
  ) -> CopyReport {
    let terminal = self.terminal
    let report = Clipboard.copy(
      text, clearAfter: clearAfter, terminalPath: Clipboard.controllingTerminalPath(),
      writeToTerminal: { _ in
        terminal.copy(SecretText(text))
        return true
      }, environment: environment)
    return CopyReport(
      what: what, tools: report.localTool.map { [$0] } ?? [], clearsAfter: clearsAfter,
      terminal: CopyReport.route(sent: report.terminal, tmuxSetClipboard: report.tmuxSetClipboard))
  }

  // MARK: Sign-out and the browser

  private func signOut(_ account: AccountName) async throws(AccountsError) -> SignOutReport {
    let record = try await self.record(account)
    let report = try await withBook { book throws(AccountsError) in
      try await book.signOut(record, localOnly: false)
    }
    if let url = report.endSessionURL {
      endSessionPages[url.absoluteString] = (url, account.description)
    }
    return report
  }

  /// Opens `url`; a page whose URL carries secrets goes through a one-time address. A sign-in's
  /// one-time address is exchanged for a fresh one when it was handed out before, so opening the
  /// page again is not taken for another program's fetch. `demo` is what the demo's approver
  /// answers, when it plays the browser.
  private func openBrowser(_ url: String, userCode: String?, demo: DemoAnswer?) async
    -> BrowserReport
  {
    let openPage = self.openPage
    if let target = endSessionPages[url] {
      return await SignOutPage.open(
        target.url, account: target.account,
        returned: { [weak self] returned in
          await self?.report(
            returned ? .success : .info,
            returned
              ? "the provider signed the browser out of \(target.account) and sent it back to "
                + "authtui"
              : "the provider did not send the browser back; if its sign-out page is still "
                + "open, finish signing out there")
        }
      ) { openPage($0, userCode, demo) }
        ?? .unavailable("the sign-out page could not be offered on 127.0.0.1; try again")
    }
    for session in sessions.values where session.isOneTimeAddress(url) {
      if let address = await session.browserAddress() {
        return openPage(address.absoluteString, userCode, demo)
      }
    }
    return openPage(url, userCode, demo)
  }
}
