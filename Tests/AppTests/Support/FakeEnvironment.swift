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

  func start() async -> VaultAvailability { access }

  func unlock(_ passphrase: SecretText) async throws(AppFailure) {
    guard passphrase.revealed == "right" else {
      throw AppFailure(.wrongPassphrase, "wrong passphrase")
    }
  }

  func createVault(_ passphrase: SecretText) async throws(AppFailure) {}

  func accounts() async throws(AppFailure) -> AccountList { AccountList(accounts: accounts) }

  func providers() async -> [ProviderSummary] { Fixtures.providers }

  /// A browser sign-in that waits for a pasted redirect (or a cancel), then stores `erin`.
  func signIn(
    _ attempt: RequestID, provider: String, method: SignInFlow,
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
      name: AccountName(provider: provider, label: "erin"), providerName: "Work SSO",
      expiresAt: Date().addingTimeInterval(3600), refreshable: true)
    stored.append(account.name)
    accounts.append(account)
    return account
  }

  private func cancel(_ attempt: RequestID) {
    redirects.removeValue(forKey: attempt)?.resume(returning: "")
  }

  func submitRedirect(_ url: SecretText, to attempt: RequestID) async throws(AppFailure) {
    guard url.revealed.contains("code="), let waiting = redirects.removeValue(forKey: attempt)
    else {
      throw AppFailure(.other, "that is not this sign-in's redirect")
    }
    waiting.resume(returning: url.revealed)
  }

  func refresh(_ account: AccountName) async throws(AppFailure) -> AccountSummary {
    refreshes.append(account)
    if holdRefreshes {
      await withCheckedContinuation { heldRefreshes.append($0) }
    }
    guard var summary = accounts.first(where: { $0.name == account }) else {
      throw AppFailure(.other, "no such account")
    }
    summary.expiresAt = Date().addingTimeInterval(3600)
    return summary
  }

  func signOut(_ account: AccountName) async throws(AppFailure) -> SignOutReport {
    accounts.removeAll { $0.name == account }
    return SignOutReport(revocation: .revoked)
  }

  func exportEnvFile(_ account: AccountName, path: String, variable: String)
    async throws(AppFailure) -> ExportReport
  {
    ExportReport(account: account, path: path, variable: variable)
  }

  func copyToken(_ account: AccountName) async throws(AppFailure) -> CopyReport {
    clipboard?.copy(SecretText("token-of-\(account.label)"))
    return CopyReport(what: "the token of \(account)", clearsAfter: 45)
  }

  func copyText(_ text: String, what: String) async throws(AppFailure) -> CopyReport {
    clipboard?.copy(SecretText(text))
    return CopyReport(what: what)
  }

  func openBrowser(_ url: String, userCode: String?) async -> BrowserReport {
    .opened(command: "fake-browser")
  }
}
