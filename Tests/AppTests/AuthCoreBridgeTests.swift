import Accounts
import Foundation
import Testing
import Vault

@testable import App
@testable import AuthCore

/// How AuthCore's progress and errors read on the sign-in screens.
@Suite struct AuthCoreBridgeTests {
  @Test func anEndedAttemptSaysWhatEndedItWithoutTheCommandLinesAdvice() {
    #expect(
      AccountsError.auth(.noAnswer(waited: 300)).signInEnding(provider: "Simkl")
        == "No answer from Simkl in 5m 00s (the sign-in may have been declined).")
    #expect(
      AccountsError.auth(.userCodeExpired).signInEnding(provider: "Work SSO")
        == "The code expired before it was approved.")
    #expect(
      AccountsError.auth(.accessDenied(description: "User pressed Deny"))
        .signInEnding(provider: "Work SSO") == "Work SSO declined the sign-in (User pressed Deny).")
    let escaping = AccountsError.auth(.accessDenied(description: "no\u{1b}[2J"))
    #expect(!escaping.signInEnding(provider: "Work SSO").contains("\u{1b}"))
    let refused = AccountsError.auth(.stateMismatch)
    #expect(refused.signInEnding(provider: "Work SSO") == refused.message)
  }

  @Test func onlyARefusedOrMissingRefreshTokenAsksForANewSignIn() {
    #expect(AccountsError.auth(.refreshTokenRejected(description: nil)).requiresSignIn)
    #expect(
      AccountsError.signInNeeded("work/bob", reason: .refreshRejected)
        .requiresSignIn)
    #expect(!AccountsError.auth(.serverError(status: 503)).requiresSignIn)
    #expect(!AccountsError.auth(.accessDenied(description: nil)).requiresSignIn)
  }

  @Test func deviceProgressCarriesTheCodeAndThePollingTimes() throws {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    var progress = SignInProgress(flow: .device, phase: .waitingForApproval)
    progress.userCode = "WDJB-MJHT"
    progress.verificationURI = URL(string: "http://127.0.0.1:9/oidc/device")
    progress.deadline = now.addingTimeInterval(600)
    progress.pollInterval = 10
    progress.nextPollAt = now.addingTimeInterval(10)
    #expect(progress.pageToOpen == "http://127.0.0.1:9/oidc/device")
    #expect(!progress.isFinishing)
    #expect(progress.pollTrouble == nil)
    progress.pollTrouble = .httpStatus(500)
    #expect(progress.pollTrouble?.description == "HTTP 500")
  }

  @Test func browserProgressOpensTheOneTimeAddressAndCarriesItsNotices() throws {
    var progress = SignInProgress(flow: .pkce, phase: .waitingForBrowser)
    progress.authorizationURL = URL(string: "http://127.0.0.1:9/oidc/authorize?state=s")
    progress.browserURL = URL(string: "http://127.0.0.1:8765/sign-in/abc")
    progress.restarts = 1
    progress.notice = .restarted
    #expect(progress.pageToCopy == "http://127.0.0.1:9/oidc/authorize?state=s")
    #expect(progress.pageToOpen == "http://127.0.0.1:8765/sign-in/abc")
    #expect(progress.warning == SignInProgress.Notice.restarted.message)

    progress.notice = .exchangeFailed(.serverError(status: 500))
    #expect(
      progress.warning
        == "A redirect's code could not be exchanged (The provider failed with HTTP 500; try "
        + "again in a few minutes.); still waiting for the browser's redirect.")
    progress.notice = .redirectIgnored(.stateMismatch)
    progress.lastIgnoredRedirect = .stateMismatch
    #expect(progress.warning == AuthError.stateMismatch.message)
  }

  @Test func theFailedStepIsLeftToTheAttemptsError() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    driver.send(.signInProgress(id, SignInProgress(flow: .pkce, phase: .failed(.cancelled))))
    #expect(driver.state.attempt(id)?.progress == nil)
    #expect(SignInProgress(flow: .pkce, phase: .exchangingCode).isFinishing)
  }
}

/// What the account list shows of a vault record.
@Suite struct AccountRecordBridgeTests {
  @Test func aRecordBecomesFactsWithoutItsTokens() throws {
    let obtained = Date(timeIntervalSince1970: 1_750_000_000)
    let record = AccountRecord(
      id: AccountID(7), version: 1, providerID: "sandbox", label: "alice", subject: "sub-1",
      identity: ["email": "alice@example.com"],
      tokens: TokenSet(
        accessToken: "secret-access", refreshToken: "secret-refresh", tokenType: "Bearer",
        scopes: ["openid", "offline_access"], expiresAt: obtained.addingTimeInterval(3600),
        obtainedAt: obtained),
      needsSignIn: false)
    let summary = try AccountSummary(record, providerName: "Sandbox OpenID provider")
    #expect(summary.name.description == "sandbox/alice")
    #expect(summary.refreshable)
    #expect(summary.identity == "alice@example.com")
    #expect(summary.status(at: obtained) == .valid)
    #expect(!"\(summary)".contains("secret"))
  }
}
