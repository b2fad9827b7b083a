import Accounts
import App
import AuthCore
import Foundation
import Isolation
import Providers
import System
import Terminal
import Vault

/// The UI's world: the vault and the providers through `AccountBook`, the browser and the
/// clipboard. The UI calls it from tasks, never from its own thread.
public actor AccountsEnvironment: AppEnvironment {
  private let setup: VaultSetup
  private let access: CommandLineAccess
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
  /// The row of each account the UI was told about, and the default ones among them: an
  /// account the UI names is found without parsing its name or reading the vault twice.
  private var rows: [AccountName: AccountID] = [:]
  private var defaults: Set<AccountID> = []
  /// What came of background work, oldest first, until `.followNews` hands it on.
  private var backgroundNews: [(kind: StatusMessage.Kind, text: String)] = []
  /// The `.followNews` waiting for news, if any.
  private var newsWaiter: CheckedContinuation<(kind: StatusMessage.Kind, text: String)?, Never>?
  /// The running sign-ins by attempt, and the latest progress each reported.
  private var sessions: [RequestID: SignInSession] = [:]
  private var latestProgress: [RequestID: SignInProgress] = [:]
  /// The end-session page of each account signed out (it carries an id_token): opened only
  /// through a one-time address, never in a browser's argv.
  private var endSessionPages: [AccountName: URL] = [:]

  /// `access` is how the command line unlocks the vault and leaves an agent; `terminal` the
  /// UI's way to the terminal's clipboard; `clearAfter` the seconds a copied token stays
  /// there; `openPage` opens an address (with the user code it asks for, and the demo's
  /// answer) in the browser.
  public init(
    setup: VaultSetup, access: CommandLineAccess, terminal: TerminalClipboard,
    environment: [String: String], clearAfter: TimeInterval,
    openPage: @escaping @Sendable (String, String?, DemoAnswer?) -> BrowserReport
  ) {
    self.setup = setup
    self.access = access
    self.terminal = terminal
    self.environment = environment
    self.clearAfter = clearAfter
    self.openPage = openPage
  }

  // MARK: The effects

  /// Each effect's call and the answer it gives, one line each.
  public func perform(
    _ effect: Effect, progress: @escaping @Sendable (SignInProgress) -> Void
  ) async -> Response? {
    switch effect {
    case .start:
      return .vaultOpened(await start())
    case .followNews:
      return await nextNews().map { .news($0.kind, $0.text) }
    case .unlock(let id, let passphrase):
      return .unlocked(id, problem: await unlock(passphrase))
    case .createVault(let id, let passphrase):
      return .unlocked(id, problem: await createVault(passphrase))
    case .loadAccounts(let id):
      return .accountsLoaded(id, await AccountsError.result(of: try await accounts()))
    case .loadProviders(let id):
      return .providersLoaded(id, providers())
    case .saveProviderSetup(let id, let provider, let clientID, let redirectPort, let secret):
      return .providerSetupSaved(
        id, provider,
        await saveSetup(
          provider, clientID: clientID, redirectPort: redirectPort, clientSecret: secret))
    case .watchProviders(let id):
      return .providersWatched(id, await watchProviders())
    case .discoverIssuer(let id, let issuer):
      return .issuerDiscovered(id, issuer: issuer, await discover(issuer))
    case .addProvider(let id, let provider, let issuer, let clientID):
      return .providerAdded(id, await addProvider(provider, issuer: issuer, clientID: clientID))
    case .changePassphrase(let id, let current, let new):
      return .vaultPassphraseChanged(id, await changePassphrase(from: current, to: new))
    case .rename(let id, let account, let label):
      return .renamed(
        id, account, label: label,
        await AccountsError.result(
          of: try await withBook { book throws(AccountsError) in
            _ = try await book.rename(AccountReference(account), to: label)
            return try await accounts()
          }))
    case .checkVaultWritable(let id):
      return .vaultWritable(id, await writeProblem())
    case .startSignIn(let id, let provider, let method, let label):
      return .signedIn(
        id,
        await AccountsError.result(
          of: try await signIn(
            id, provider: provider, method: method, label: label, progress: progress)))
    case .submitRedirect(let id, let attempt, let url):
      return .redirectSubmitted(
        id, await AccountsError.thrown(by: try await submitRedirect(url, to: attempt)))
    case .openSignInPage(let id, let attempt, let demo):
      return .pageOpened(id, await openSignInPage(attempt, demo: demo))
    case .openSignOutPage(let id, let account):
      return .pageOpened(id, await openSignOutPage(account))
    case .copyText(let id, let text, let what):
      return .copied(id, .success(await copyText(text, what: what)))
    case .copyToken(let id, let account):
      return .copied(id, await AccountsError.result(of: try await copyToken(account)))
    case .refresh(let id, let account):
      return .refreshed(id, account, await AccountsError.result(of: try await refresh(account)))
    case .refreshAhead(let id, let account):
      return .refreshedAhead(
        id, account, await AccountsError.result(of: try await refreshAhead(account)))
    case .watchVault(let id):
      return .vaultWatched(id, await vaultChange())
    case .removeDamaged(let id, let damaged):
      return .damagedRemoved(
        id, damaged,
        await AccountsError.thrown(
          by: try await withBook { book throws(AccountsError) in
            _ = try await book.signOut(.damaged(damaged), localOnly: true)
          }))
    case .signOut(let id, let account):
      return .signedOut(id, account, await AccountsError.result(of: try await signOut(account)))
    case .learnSignOutFacts(let id, let provider):
      return .signOutFactsLearned(
        id, provider, await AccountsError.result(of: try await signOutFacts(provider)))
    case .exportEnvFile(let id, let account, let path, let variable):
      return .exported(
        id,
        await AccountsError.result(
          of: try await exportEnvFile(account, path: path, variable: variable)))
    case .setDefault(let id, let account, let isDefault):
      return .defaultSet(
        id, account, isDefault: isDefault,
        await AccountsError.result(
          of: try await withBook { book throws(AccountsError) in
            if isDefault {
              _ = try await book.makeDefault(AccountReference(account))
            } else {
              _ = try await book.clearDefault(provider: account.provider.rawValue)
            }
            return try await accounts()
          }))
    case .watchQuestions(let id):
      guard let vault else { return .questionsWatched(id, []) }
      return .questionsWatched(id, await access.agentQuestions(vault, environment))
    case .answerQuestion(let id, let question, let decision):
      guard let vault else {
        return .questionAnswered(
          id, question: question, decision, problem: "the vault is not open here")
      }
      return .questionAnswered(
        id, question: question, decision,
        problem: await access.answerAgentQuestion(vault, question, decision, environment))
    case .cancel, .redraw:
      return nil
    }
  }

  // MARK: The vault

  private func start() async -> VaultAvailability {
    let known: SecretText?
    do {
      known = try await setup.prepare()
    } catch {
      return .unusable(error.message)
    }
    let (settings, _) = UserSettings.load(from: setup.configuration)
    self.settings = settings
    // The stamps first: a file saved while the catalog is read is read again at the next look.
    catalogStamps = ProviderFileStamps(of: setup.configuration)
    catalog = ProviderCatalog.load(
      from: setup.configuration, defaultLoginTimeout: settings.loginTimeout)
    var opened: Vault?
    do {
      opened = try await Vault.open(at: setup.location)
    } catch .noVault {
      opened = nil
    } catch {
      return .unusable(error.description)
    }
    vault = opened
    let source = setup.passphrase
    switch UnlockPolicy.firstStep(
      vaultExists: opened != nil, known: known,
      sourceOutsideTerminal: source.map { $0.origin != .terminal } ?? false)
    {
    case .create(let passphrase):
      return await createVault(passphrase).map(VaultAvailability.unusable) ?? .unlocked
    case .askToCreate:
      return .missing
    case .unlock(let passphrase):
      return await unlock(passphrase).map { .locked(problem: $0) } ?? .unlocked
    case .unlockFromSource:
      guard let opened, let source else { return .locked(problem: nil) }
      // The command line warns on standard error of a passphrase file others may read; here
      // that would damage the screen, so the status line says it, once, with the fix.
      if let exposure = source.exposureProblem { report(.warning, exposure) }
      // The unlock screen shows the command line's sentence, which names the variable.
      if let problem = await access.unlock(opened, source) { return .locked(problem: problem) }
      await ready(opened)
      return .unlocked
    case .ask:
      // `vault unlock --cache` may have left the vault's key in the kernel keyring (a
      // passphrase from a variable, a file or a command gets it through `access.unlock`).
      guard let opened, await access.unlockWithCachedKey(opened) else {
        return .locked(problem: nil)
      }
      await ready(opened)
      return .unlocked
    }
  }

  /// Why the open vault cannot be written (`login`'s check: the read-only file, folder or file
  /// system and the fix), or nil when it can; asked before a sign-in starts. Cheap: no unlock,
  /// a few `stat`s. A vault not open here is left to the sign-in, which says so itself.
  private func writeProblem() async -> AccountsError? {
    guard let vault else { return nil }
    do throws(VaultError) {
      return try await vault.writeProblem().map(AccountsError.vault)
    } catch {
      return .vault(error)
    }
  }

  /// Unlocks the vault; nil, or the command line's sentence for why not.
  private func unlock(_ passphrase: SecretText) async -> String? {
    guard let vault else { return VaultError.closed(path: setup.location.fileURL.path).description }
    do {
      try await vault.unlock(with: Passphrase(passphrase.revealed))
    } catch {
      return access.problem(error)
    }
    await ready(vault)
    return nil
  }

  /// `authtui vault passwd`'s work: the current passphrase checked by unlocking with it again
  /// (a wrong one changes nothing), the data key rewrapped under the new one, the unlock key
  /// that `vault unlock --cache` kept in the kernel keyring, stale now, removed, and the
  /// passphrase variable named if one is set (it gives the old passphrase now).
  private func changePassphrase(from current: SecretText, to new: SecretText) async
    -> Result<PassphraseChange, PassphraseChangeFailure>
  {
    guard let vault else {
      return .failure(.vault(.vault(.closed(path: setup.location.fileURL.path))))
    }
    do throws(VaultError) {
      try await vault.unlock(with: Passphrase(current.revealed))
      try await vault.changePassphrase(
        to: Passphrase(new.revealed), parameters: setup.newVaultParameters)
    } catch .wrongPassphrase {
      return .failure(.wrongCurrent)
    } catch {
      return .failure(.vault(.vault(error)))
    }
    let removed = (try? await vault.identifier()).map { UnlockKeyCache.forget(vaultID: $0) }
    return .success(
      PassphraseChange(
        removedCachedKey: removed ?? false, staleVariable: setup.passphrase?.origin.variable))
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
    book = access.book(vault, catalog ?? ProviderCatalog.load(from: setup.configuration))
    seenStamp = try? await vault.externalChangeStamp()
    listing = nil
    // Under `unlock_once`, leave an agent running, as the command line does; in the
    // background, so the list shows at once. Why none could be started reaches the status
    // line with the next look at the vault.
    let configuration = setup.configuration
    let environment = self.environment
    let leave = access.leaveAgentRunning
    Task.detached { [weak self] in
      if let problem = await leave(vault, configuration, environment) {
        await self?.report(.warning, problem)
      }
    }
  }

  /// Hands `text` to the `.followNews` waiting, or keeps it for the next one.
  private func report(_ kind: StatusMessage.Kind, _ text: String) {
    if let waiter = newsWaiter {
      newsWaiter = nil
      waiter.resume(returning: (kind, text))
    } else {
      backgroundNews.append((kind, text))
    }
  }

  /// The oldest news, waiting for some when there is none; nil once the task is cancelled.
  private func nextNews() async -> (kind: StatusMessage.Kind, text: String)? {
    if !backgroundNews.isEmpty { return backgroundNews.removeFirst() }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled {
          continuation.resume(returning: nil)
        } else {
          newsWaiter = continuation
        }
      }
    } onCancel: {
      Task { await self.stopWaitingForNews() }
    }
  }

  private func stopWaitingForNews() {
    newsWaiter?.resume(returning: nil)
    newsWaiter = nil
  }

  /// What another process changed in the vault since the last look (this process's own
  /// writes leave the stamp as it is; their results reach the UI as answers already).
  private func vaultChange() async -> VaultChange {
    guard let vault, book != nil else { return .unchanged }
    let stamp: Int64
    do {
      stamp = try await vault.externalChangeStamp()
      guard stamp != seenStamp else { return .unchanged }
      if try await vault.passphraseChangedElsewhere() {
        seenStamp = stamp
        await vault.lock()
        book = nil
        return .passphraseChanged(
          problem: "another authtui process changed the vault's passphrase; type the new one")
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
    rows = [:]
    defaults = listing.defaults
    return AccountList(
      accounts: try listing.accounts.map { record throws(AccountsError) in try summary(record) },
      damaged: listing.damaged)
  }

  private func providers() -> [ProviderSummary] {
    (catalog?.entries ?? []).map(ProviderSummary.init)
  }

  /// The catalog read again when a provider file (or `config.json`) was added, changed or
  /// removed since the last reading, by any process or editor; nil when none was. The stamps
  /// (a listing and a `stat` per file) and the reading run on a thread of their own.
  private func watchProviders() async -> [ProviderSummary]? {
    let configuration = setup.configuration
    let stamps = await onOwnThread(named: "provider-stamps") {
      ProviderFileStamps(of: configuration)
    }
    guard stamps != catalogStamps else { return nil }
    await readCatalog()
    return providers()
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
    if let vault, book != nil { book = access.book(vault, fresh) }
  }

  /// How long each request of a discovery or registration may take, as for `providers add`.
  private static let requestTimeout: TimeInterval = 30

  /// What the server at `issuer` offers, as `providers add` prints it; kept for the addition
  /// that follows.
  private func discover(_ issuer: String) async -> Result<IssuerSummary, ProviderAdditionError> {
    do throws(ProviderAdditionError) {
      return .success(IssuerSummary(try await metadata(of: issuer)))
    } catch {
      return .failure(error)
    }
  }

  /// What the server at `issuer` publishes, discovered now and kept for the addition that
  /// follows; a server that offers no flow authtui can use is refused.
  private func metadata(of issuer: String) async throws(ProviderAdditionError)
    -> OIDCProviderMetadata
  {
    let metadata: OIDCProviderMetadata
    do {
      metadata = try await OIDCProvider.discover(
        issuer: issuer, transport: transport, requestTimeout: Self.requestTimeout)
    } catch {
      throw .discovery(error, issuer: issuer)
    }
    guard !IssuerSummary(metadata).flows.isEmpty else { throw .noUsableFlow(issuer: issuer) }
    discovered = (issuer, metadata)
    return metadata
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
      // What the form's discovery found, unless it was of another issuer (a discovery the
      // person left, answered late): then this one's, afresh.
      if let discovered, discovered.issuer == issuer {
        metadata = discovered.metadata
      } else {
        metadata = try await self.metadata(of: issuer)
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
    if let saved = await ProviderSetupSave.save(
      provider, clientID: clientID, redirectPort: redirectPort, clientSecret: clientSecret,
      in: setup.configuration)
    {
      return .failure(saved)
    }
    await readCatalog()
    return .success(providers())
  }

  /// What the UI shows of `record`, its default mark included; the UI may name it from now on.
  private func summary(_ record: AccountRecord) throws(AccountsError) -> AccountSummary {
    let name = try record.accountName
    rows[name] = record.id
    return try AccountSummary(
      record, providerName: catalog?.entry(name.provider)?.name ?? name.provider.rawValue,
      isDefault: defaults.contains(record.id))
  }

  /// The row of the account the UI names: one it was told about.
  private func row(_ name: AccountName) throws(AccountsError) -> AccountID {
    guard let id = rows[name] else { throw .noSuchAccount(name.description, suggestions: []) }
    return id
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
    defer {
      sessions[attempt] = nil
      latestProgress[attempt] = nil
    }
    let reader = Task {
      for await change in session.progress {
        latestProgress[attempt] = change
        progress(change)
      }
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
    let id = try row(account)
    return try summary(
      try await withBook { book throws(AccountsError) in
        try await book.refresh(id, startedAt: Date())
      })
  }

  private func refreshAhead(_ account: AccountName) async throws(AccountsError)
    -> AccountSummary
  {
    let id = try row(account)
    return try summary(
      try await withBook { book throws(AccountsError) in
        try await book.refreshAhead(id, startedAt: Date())
      })
  }

  /// A valid access token of `account` (refreshed first when under a minute is left) and the
  /// account as it is afterwards.
  private func validToken(_ account: AccountName) async throws(AccountsError) -> (
    String, AccountRecord
  ) {
    let id = try row(account)
    return try await withBook { book throws(AccountsError) in
      try await book.validTokens(for: id, minimumValidity: 60, startedAt: Date())
    }
  }

  private func exportEnvFile(_ account: AccountName, path: String, variable: String)
    async throws(AccountsError) -> ExportReport
  {
    let (token, record) = try await validToken(account)
    try TokenHandOut.check(
      account: account, isDPoPBound: record.tokens.isDPoPBound, refusing: "exporting")
    try await EnvFileExport.write(
      token: token, expiresAt: record.tokens.expiresAt, variable: variable, path: path)
    return ExportReport(
      account: account, path: path, variable: variable, expiresAt: record.tokens.expiresAt)
  }

  private func copyToken(_ account: AccountName) async throws(AccountsError) -> CopyReport {
    let (token, record) = try await validToken(account)
    try TokenHandOut.check(
      account: account, isDPoPBound: record.tokens.isDPoPBound, refusing: "copying")
    return await copy(
      token, what: "the token of \(account)", clearAfter: clearAfter,
      clearsAfter: clearAfter > 0 ? clearAfter : nil)
  }

  private func copyText(_ text: String, what: String) async -> CopyReport {
    await copy(text, what: what, clearAfter: 0, clearsAfter: nil)
  }

  /// The command line's clipboard, with the terminal's part going through the UI loop (only
  /// its thread may write to the terminal); reports the desktop tools used and what became of
  /// the terminal's copy (tmux may drop it). The copy starts processes (tmux's answer about
  /// set-clipboard, wl-copy or xclip) and waits for them: on a thread of its own, off the
  /// cooperative pool.
  private func copy(
    _ text: String, what: String, clearAfter: TimeInterval, clearsAfter: TimeInterval?
  ) async -> CopyReport {
    let terminal = self.terminal
    let environment = self.environment
    let report = await onOwnThread(named: "clipboard") {
      Clipboard.copy(
        text, clearAfter: clearAfter, terminalPath: Clipboard.controllingTerminalPath(),
        writeToTerminal: { _ in
          terminal.copy(SecretText(text))
          return true
        }, environment: environment)
    }
    return CopyReport(
      what: what, tools: report.localTool.map { [$0] } ?? [], clearsAfter: clearsAfter,
      terminal: CopyReport.route(sent: report.terminal, tmuxSetClipboard: report.tmuxSetClipboard),
      toolFailure: report.localToolFailure)
  }

  // MARK: Sign-out and the browser

  private func signOut(_ account: AccountName) async throws(AccountsError) -> SignOutReport {
    let id = try row(account)
    let report = try await withBook { book throws(AccountsError) in
      try await book.signOut(try await book.account(id), localOnly: false)
    }
    rows[account] = nil
    endSessionPages[account] = report.endSessionURL
    return report
  }

  /// What `provider` offers a sign-out: its merged configuration with what its discovery
  /// document adds (read once per run by the book, which sign-in and sign-out reuse).
  private func signOutFacts(_ provider: ProviderID) async throws(AccountsError) -> SignOutFacts {
    let configuration = try await withBook { book throws(AccountsError) in
      let described = try await book.openIDProvider(provider)
      do throws(AuthError) {
        return try await described.configuration()
      } catch {
        throw .auth(error)
      }
    }
    return SignOutFacts(
      canRevoke: configuration.revocationEndpoint != nil,
      hasSignOutPage: configuration.endSessionEndpoint != nil)
  }

  /// Opens the page of the running sign-in `attempt`: a browser sign-in's one-time address
  /// (fresh after the first, so opening the page again is not taken for another program's
  /// fetch), or a device or PIN sign-in's verification page. `demo` is what the demo's
  /// approver answers, when it plays the browser.
  private func openSignInPage(_ attempt: RequestID, demo: DemoAnswer?) async -> BrowserReport {
    guard let session = sessions[attempt], let progress = latestProgress[attempt] else {
      return .unavailable("this sign-in has ended; start it again")
    }
    if let address = await session.browserAddress() {
      return openPage(address.absoluteString, progress.userCode, demo)
    }
    guard let page = progress.pageToOpen else {
      return .unavailable("this sign-in has no page to open")
    }
    return openPage(page, progress.userCode, demo)
  }

  /// Opens the provider's sign-out page for `account` through a one-time address, and says
  /// on the status line whether the provider sent the browser back.
  private func openSignOutPage(_ account: AccountName) async -> BrowserReport {
    guard let url = endSessionPages[account] else {
      return .unavailable("\(account) has no sign-out page to open")
    }
    let openPage = self.openPage
    let name = account.description
    return await SignOutPageOffer.open(
      url, account: name,
      returned: { [weak self] returned in
        await self?.report(
          returned ? .success : .info,
          returned
            ? "the provider signed the browser out of \(name) and sent it back to authtui"
            : "the provider did not send the browser back; if its sign-out page is still "
              + "open, finish signing out there")
      }
    ) { openPage($0, nil, nil) }
      ?? .unavailable("the sign-out page could not be offered on 127.0.0.1; try again")
  }
}
