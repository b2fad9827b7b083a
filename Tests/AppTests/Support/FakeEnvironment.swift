import Accounts
import App
import Foundation
import Terminal

@testable import AuthCore

/// An environment for loop tests: accounts in memory, sign-ins the test steers, and a record
/// of everything stored or cancelled.
actor FakeEnvironment: AppEnvironment {
  private(set) var accounts: [AccountSummary]
  /// Accounts stored by sign-ins, in order.
  private(set) var stored: [AccountName] = []
  /// Sign-in attempts that ended cancelled.
  private(set) var cancelledAttempts: [RequestID] = []
  /// Issuer discoveries whose task was cancelled while they waited (`holdDiscoveries`).
  private(set) var cancelledDiscoveries: [RequestID] = []
  /// Discoveries wait for a cancel instead of answering.
  private let holdDiscoveries: Bool
  private var heldDiscoveries: [RequestID: CheckedContinuation<Void, Never>] = [:]
  /// Refreshes asked for.
  private(set) var refreshes: [AccountName] = []
  private var heldRefreshes: [CheckedContinuation<Void, Never>] = []
  private var redirects: [RequestID: CheckedContinuation<String, Never>] = [:]
  private var holdRefreshes: Bool
  /// The providers the catalog holds; a saved setup makes its provider usable.
  private(set) var providers: [ProviderSummary]
  /// The client ids saved by setup forms, by provider.
  private(set) var savedClientIDs: [ProviderID: String] = [:]
  let clipboard: TerminalClipboard?
  let access: VaultAvailability
  /// Sign-ins asked for (`.startSignIn`).
  private(set) var signInsStarted = 0
  /// What `.checkVaultWritable` answers: nil for a vault that can be written.
  let writeProblem: AccountsError?

  init(
    accounts: [AccountSummary] = Fixtures.accounts, access: VaultAvailability = .unlocked,
    holdRefreshes: Bool = false, holdDiscoveries: Bool = false,
    clipboard: TerminalClipboard? = nil, providers: [ProviderSummary] = Fixtures.providers,
    writeProblem: AccountsError? = nil
  ) {
    self.writeProblem = writeProblem
    self.accounts = accounts
    self.holdDiscoveries = holdDiscoveries
    self.providers = providers
    self.access = access
    self.holdRefreshes = holdRefreshes
    self.clipboard = clipboard
  }

  /// Lets every held refresh finish.
  func releaseRefreshes() {
    holdRefreshes = false
    heldRefreshes.forEach { $0.resume() }
    heldRefreshes.removeAll()
  }

  /// Answers each effect from memory; the sign-in and the refresh are the steered ones below.
  func perform(
    _ effect: Effect, progress: @escaping @Sendable (SignInProgress) -> Void
  ) async -> Response? {
    switch effect {
    case .start:
      return .vaultOpened(access)
    case .followNews:
      // Nothing happens in the background here: no news ever comes.
      return nil
    case .unlock(let id, let passphrase):
      return .unlocked(id, problem: passphrase.revealed == "right" ? nil : "wrong passphrase")
    case .createVault(let id, _):
      return .unlocked(id, problem: nil)
    case .changePassphrase(let id, let current, _):
      return .vaultPassphraseChanged(
        id,
        current.revealed == "right"
          ? .success(PassphraseChange(removedCachedKey: false)) : .failure(.wrongCurrent))
    case .loadAccounts(let id):
      return .accountsLoaded(id, .success(AccountList(accounts: accounts)))
    case .loadProviders(let id):
      return .providersLoaded(id, providers)
    case .saveProviderSetup(let id, let provider, let clientID, _, _):
      // The provider is usable from now on, as the reloaded catalog would say.
      savedClientIDs[provider] = clientID
      providers = providers.map { summary in
        guard summary.id == provider else { return summary }
        var ready = summary
        ready.isUsable = true
        ready.problems = []
        ready.setup = nil
        return ready
      }
      return .providerSetupSaved(id, provider, .success(providers))
    case .checkVaultWritable(let id):
      return .vaultWritable(id, writeProblem)
    case .startSignIn(let id, let provider, _, _):
      signInsStarted += 1
      return .signedIn(
        id,
        await AccountsError.result(
          of: SignedInSummary(try await signIn(id, provider: provider, progress: progress))))
    case .submitRedirect(let id, let attempt, let url):
      return .redirectSubmitted(id, submitRedirect(url, to: attempt))
    case .refresh(let id, let account):
      return .refreshed(id, account, await refresh(account))
    case .refreshAhead(let id, let account):
      // Background refreshes answer at once, with a fresh hour; `refreshes` counts the user's.
      guard var summary = accounts.first(where: { $0.name == account }) else {
        return .refreshedAhead(
          id, account, .failure(.noSuchAccount(account.description, suggestions: [])))
      }
      summary.obtainedAt = Date()
      summary.expiresAt = Date().addingTimeInterval(3600)
      return .refreshedAhead(id, account, .success(summary))
    case .watchVault(let id):
      return .vaultWatched(id, .unchanged)
    case .watchProviders(let id):
      return .providersWatched(id, nil)
    case .watchQuestions(let id):
      // No agent holds a request here.
      return .questionsWatched(id, [])
    case .answerQuestion(let id, let question, let decision):
      return .questionAnswered(id, question: question, decision, problem: nil)
    case .removeDamaged(let id, let damaged):
      return .damagedRemoved(id, damaged, nil)
    case .discoverIssuer(let id, let issuer):
      if holdDiscoveries { await waitForCancel(of: id) }
      return .issuerDiscovered(id, issuer: issuer, .failure(.noUsableFlow(issuer: issuer)))
    case .addProvider(let id, let provider, let issuer, _):
      return .providerAdded(
        id,
        .failure(.discovery(.discoveryFailed(.invalidIssuer(issuer)), issuer: provider.rawValue)))
    case .rename(let id, let account, let label):
      accounts = accounts.map { summary in
        guard summary.name == account else { return summary }
        var renamed = summary
        renamed.name = AccountName(provider: account.provider, label: label)
        return renamed
      }
      return .renamed(id, account, label: label, .success(AccountList(accounts: accounts)))
    case .signOut(let id, let account):
      accounts.removeAll { $0.name == account }
      return .signedOut(id, account, .success(SignOutReport(revocation: .revoked)))
    case .setDefault(let id, let account, let isDefault):
      // One default per provider, as the vault keeps it.
      accounts = accounts.map { summary in
        var marked = summary
        if summary.name.provider == account.provider {
          marked.isDefault = isDefault && summary.name == account
        }
        return marked
      }
      return .defaultSet(
        id, account, isDefault: isDefault, .success(AccountList(accounts: accounts)))
    case .exportEnvFile(let id, let account, let path, let variable):
      return .exported(
        id, .success(ExportReport(account: account, path: path, variable: variable)))
    case .copyToken(let id, let account):
      clipboard?.copy(SecretText("token-of-\(account.label)"))
      return .copied(id, .success(CopyReport(what: "the token of \(account)", clearsAfter: 45)))
    case .copyText(let id, let text, let what):
      clipboard?.copy(SecretText(text))
      return .copied(id, .success(CopyReport(what: what)))
    case .openSignInPage(let id, _, _), .openSignOutPage(let id, _):
      return .pageOpened(id, .opened(command: "fake-browser"))
    case .learnSignOutFacts(let id, let provider):
      return .signOutFactsLearned(
        id, provider, .success(SignOutFacts(canRevoke: true, hasSignOutPage: true)))
    case .cancel, .redraw:
      return nil
    }
  }

  /// A browser sign-in that waits for a pasted redirect (or a cancel), then stores `erin`.
  private func signIn(
    _ attempt: RequestID, provider: ProviderID,
    progress: @escaping @Sendable (SignInProgress) -> Void
  ) async throws(AccountsError) -> AccountSummary {
    var waiting = SignInProgress(flow: .pkce, phase: .waitingForBrowser)
    waiting.deadline = Date().addingTimeInterval(300)
    waiting.authorizationURL = URL(string: "http://127.0.0.1:1/authorize")
    progress(waiting)
    let pasted = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled {
          continuation.resume(returning: "")
        } else {
          redirects[attempt] = continuation
        }
      }
    } onCancel: {
      Task { await self.cancel(attempt) }
    }
    guard !pasted.isEmpty, !Task.isCancelled else {
      cancelledAttempts.append(attempt)
      throw .auth(.cancelled)
    }
    progress(SignInProgress(flow: .pkce, phase: .exchangingCode))
    let account = AccountSummary(
      name: AccountName(provider: provider, label: "erin"), providerName: "Work SSO",
      expiresAt: Date().addingTimeInterval(3600), refreshable: true)
    stored.append(account.name)
    accounts.append(account)
    return account
  }

  /// Waits until the task of discovery `id` is cancelled, and records it.
  private func waitForCancel(of id: RequestID) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled {
          continuation.resume()
        } else {
          heldDiscoveries[id] = continuation
        }
      }
    } onCancel: {
      Task { await self.releaseDiscovery(id) }
    }
    cancelledDiscoveries.append(id)
  }

  private func releaseDiscovery(_ id: RequestID) {
    heldDiscoveries.removeValue(forKey: id)?.resume()
  }

  private func cancel(_ attempt: RequestID) {
    redirects.removeValue(forKey: attempt)?.resume(returning: "")
  }

  /// Hands the redirect to the waiting sign-in, or says why not.
  private func submitRedirect(_ url: SecretText, to attempt: RequestID) -> AccountsError? {
    guard url.revealed.contains("code="), let waiting = redirects.removeValue(forKey: attempt)
    else {
      return .auth(.stateMismatch)
    }
    waiting.resume(returning: url.revealed)
    return nil
  }

  /// The account an hour from expiry, after the test releases it when refreshes are held.
  private func refresh(_ account: AccountName) async -> Result<AccountSummary, AccountsError> {
    refreshes.append(account)
    if holdRefreshes {
      await withCheckedContinuation { heldRefreshes.append($0) }
    }
    guard var summary = accounts.first(where: { $0.name == account }) else {
      return .failure(.noSuchAccount(account.description, suggestions: []))
    }
    summary.expiresAt = Date().addingTimeInterval(3600)
    return .success(summary)
  }
}
