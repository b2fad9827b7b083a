import Accounts
import App
import Foundation

@testable import AuthCore

/// An environment for loop tests: accounts in memory, sign-ins the test steers, and a record
/// of everything stored or cancelled.
actor FakeEnvironment: AppEnvironment {
  private(set) var accounts: [AccountSummary]
  /// Accounts stored by sign-ins, in order.
  private(set) var stored: [AccountName] = []
  /// Sign-in attempts that ended cancelled.
  private(set) var cancelledAttempts: [RequestID] = []
  /// Refreshes asked for.
  private(set) var refreshes: [AccountName] = []
  private var heldRefreshes: [CheckedContinuation<Void, Never>] = []
  private var redirects: [RequestID: CheckedContinuation<String, Never>] = [:]
  private var holdRefreshes: Bool
  let clipboard: TerminalClipboard?
  let access: VaultAvailability

  init(
    accounts: [AccountSummary] = Fixtures.accounts, access: VaultAvailability = .unlocked,
    holdRefreshes: Bool = false, clipboard: TerminalClipboard? = nil
  ) {
    self.accounts = accounts
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
  func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async -> Action? {
    switch effect {
    case .start:
      return .started(access)
    case .unlock(let id, let passphrase):
      return .unlockFinished(
        id,
        passphrase.revealed == "right" ? nil : AppFailure(.wrongPassphrase, "wrong passphrase"))
    case .createVault(let id, _):
      return .unlockFinished(id, nil)
    case .loadAccounts(let id):
      return .accountsLoaded(id, .success(AccountList(accounts: accounts)))
    case .loadProviders(let id):
      return .providersLoaded(id, Fixtures.providers)
    case .startSignIn(let id, let provider, _):
      return .signInFinished(
        id,
        await AppFailure.result(
          of: try await signIn(id, provider: provider) { send(.signInProgress(id, $0)) }))
    case .submitRedirect(let id, let url):
      return .redirectSubmitted(id, submitRedirect(url, to: id))
    case .refresh(let id, let account):
      return .refreshFinished(id, account, await refresh(account))
    case .signOut(let id, let account):
      accounts.removeAll { $0.name == account }
      return .signOutFinished(id, account, .success(SignOutReport(revocation: .revoked)))
    case .exportEnvFile(let id, let account, let path, let variable):
      return .exportFinished(
        id, .success(ExportReport(account: account, path: path, variable: variable)))
    case .copyToken(let id, let account):
      clipboard?.copy(SecretText("token-of-\(account.label)"))
      return .copyFinished(
        id, .success(CopyReport(what: "the token of \(account)", clearsAfter: 45)))
    case .copyText(let id, let text, let what):
      clipboard?.copy(SecretText(text))
      return .copyFinished(id, .success(CopyReport(what: what)))
    case .openBrowser(let id, _, _):
      return .browserOpened(id, .opened(command: "fake-browser"))
    case .cancelSignIn, .redraw:
      return nil
    }
  }

  /// A browser sign-in that waits for a pasted redirect (or a cancel), then stores `erin`.
  private func signIn(
    _ attempt: RequestID, provider: ProviderID,
    progress: @escaping @Sendable (SignInProgress) -> Void
  ) async throws(AppFailure) -> AccountSummary {
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
      throw AppFailure(.cancelled, "cancelled")
    }
    progress(SignInProgress(flow: .pkce, phase: .exchangingCode))
    let account = AccountSummary(
      name: AccountName(provider: provider.rawValue, label: "erin"), providerName: "Work SSO",
      expiresAt: Date().addingTimeInterval(3600), refreshable: true)
    stored.append(account.name)
    accounts.append(account)
    return account
  }

  private func cancel(_ attempt: RequestID) {
    redirects.removeValue(forKey: attempt)?.resume(returning: "")
  }

  /// Hands the redirect to the waiting sign-in, or says why not.
  private func submitRedirect(_ url: SecretText, to attempt: RequestID) -> AppFailure? {
    guard url.revealed.contains("code="), let waiting = redirects.removeValue(forKey: attempt)
    else {
      return AppFailure(.other, "that is not this sign-in's redirect")
    }
    waiting.resume(returning: url.revealed)
    return nil
  }

  /// The account an hour from expiry, after the test releases it when refreshes are held.
  private func refresh(_ account: AccountName) async -> Result<AccountSummary, AppFailure> {
    refreshes.append(account)
    if holdRefreshes {
      await withCheckedContinuation { heldRefreshes.append($0) }
    }
    guard var summary = accounts.first(where: { $0.name == account }) else {
      return .failure(AppFailure(.other, "no such account"))
    }
    summary.expiresAt = Date().addingTimeInterval(3600)
    return .success(summary)
  }
}
