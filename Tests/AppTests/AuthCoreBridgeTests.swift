import Foundation
import Testing
import Vault

@testable import App
@testable import AuthCore

/// How AuthCore's progress and errors read on the sign-in screens.
@Suite struct AuthCoreBridgeTests {
  @Test func aSilentDenialReadsAsNoAnswer() {
    let failure = AppFailure(AuthError.noAnswer(waited: 300))
    #expect(failure.kind == .noAnswer)
    #expect(failure.message == "no answer from the provider (the sign-in may have been declined)")
  }

  @Test func errorsKeepAuthCoresSentenceAndGetAKind() {
    #expect(AppFailure(AuthError.refreshTokenRejected(description: nil)).kind == .signInNeeded)
    #expect(AppFailure(AuthError.accessDenied(description: nil)).kind == .denied)
    #expect(AppFailure(AuthError.serverError(status: 503)).kind == .provider)
    let expired = AppFailure(AuthError.userCodeExpired)
    #expect(expired.kind == .codeExpired)
    #expect(expired.message == AuthError.userCodeExpired.message)
  }

  @Test func deviceProgressCarriesTheCodeAndThePollingTimes() throws {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    var progress = SignInProgress(flow: .device, phase: .waitingForApproval)
    progress.userCode = "WDJB-MJHT"
    progress.verificationURI = URL(string: "http://127.0.0.1:9/oidc/device")
    progress.deadline = now.addingTimeInterval(600)
    progress.pollInterval = 10
    progress.nextPollAt = now.addingTimeInterval(10)
    let snapshot = try #require(SignInSnapshot(progress, fixedRedirectPort: 8765))
    #expect(snapshot.phase == .waitingForApproval)
    #expect(snapshot.userCode == "WDJB-MJHT")
    #expect(snapshot.pageToOpen == "http://127.0.0.1:9/oidc/device")
    #expect(snapshot.pollInterval == 10)
    #expect(snapshot.nextPollAt == now.addingTimeInterval(10))
    #expect(snapshot.fixedRedirectPort == nil)
    #expect(snapshot.pollTrouble == nil)
    progress.pollTrouble = .httpStatus(500)
    #expect(SignInSnapshot(progress)?.pollTrouble == "HTTP 500")
  }

  @Test func browserProgressOpensTheOneTimeAddressAndCarriesItsNotices() throws {
    var progress = SignInProgress(flow: .pkce, phase: .waitingForBrowser)
    progress.authorizationURL = URL(string: "http://127.0.0.1:9/oidc/authorize?state=s")
    progress.browserURL = URL(string: "http://127.0.0.1:8765/sign-in/abc")
    progress.restarts = 1
    progress.notice = .restarted
    let snapshot = try #require(SignInSnapshot(progress, fixedRedirectPort: 8765))
    #expect(snapshot.authorizationURL == "http://127.0.0.1:9/oidc/authorize?state=s")
    #expect(snapshot.pageToOpen == "http://127.0.0.1:8765/sign-in/abc")
    #expect(snapshot.restarts == 1)
    #expect(snapshot.notice == SignInProgress.Notice.restarted.message)

    progress.notice = .exchangeFailed(.serverError(status: 500))
    #expect(
      SignInSnapshot(progress)?.notice
        == "A redirect's code could not be exchanged (The provider failed with HTTP 500; try "
        + "again in a few minutes.); still waiting for the browser's redirect.")
    progress.notice = .redirectIgnored(.stateMismatch)
    progress.lastIgnoredRedirect = .stateMismatch
    #expect(SignInSnapshot(progress)?.notice == nil)
    #expect(SignInSnapshot(progress)?.ignoredRedirect == AuthError.stateMismatch.message)
  }

  @Test func theFailedStepIsLeftToTheAttemptsError() {
    #expect(SignInSnapshot(SignInProgress(flow: .pkce, phase: .failed(.cancelled))) == nil)
    let exchanging = SignInSnapshot(
      SignInProgress(flow: .pkce, phase: .exchangingCode), fixedRedirectPort: 8765)
    #expect(exchanging?.phase == .finishing)
    #expect(exchanging?.fixedRedirectPort == 8765)
  }
}

/// What the account list shows of a vault record.
@Suite struct AccountRecordBridgeTests {
  @Test func aRecordBecomesFactsWithoutItsTokens() {
    let obtained = Date(timeIntervalSince1970: 1_750_000_000)
    let record = AccountRecord(
      id: AccountID(7), version: 1, providerID: "sandbox", label: "alice", subject: "sub-1",
      identity: ["email": "alice@example.com"],
      tokens: TokenSet(
        accessToken: "secret-access", refreshToken: "secret-refresh", tokenType: "Bearer",
        scopes: ["openid", "offline_access"], expiresAt: obtained.addingTimeInterval(3600),
        obtainedAt: obtained),
      needsSignIn: false)
    let summary = AccountSummary(record, providerName: "Sandbox OpenID provider")
    #expect(summary.name.description == "sandbox/alice")
    #expect(summary.refreshable)
    #expect(summary.identity == "alice@example.com")
    #expect(summary.status(at: obtained) == .valid)
    #expect(!"\(summary)".contains("secret"))
  }
}
