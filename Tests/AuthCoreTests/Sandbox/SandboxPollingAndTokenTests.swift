import Accounts
import AuthCore
import Foundation
import Sandbox
import TestSupport
import Testing
import Vault

/// Device, PIN, refresh and revocation against the sandbox provider. The client's time is a
/// `ManualClock`; the sandbox's clock is moved along with it through its offset hook, so polls
/// five manual seconds apart are five seconds apart for the provider too.
@Suite(.sandboxHarness) struct SandboxPollingAndTokenTests {
  /// The harness the suite's trait started for this test.
  var harness: SandboxHarness { .current }

  let clock = ManualClock()

  /// Plays time for a polling attempt (`driveAgainstSandbox`) on this suite's clock.
  func drive(
    _ attempt: UserCodeSignIn, sandbox: SandboxServer, origin: Date,
    skipSync: Set<Int> = [], beforePoll: (Int, SignInProgress) async -> Void = { _, _ in }
  ) async -> [SignInProgress] {
    await driveAgainstSandbox(
      attempt, clock: clock, sandbox: sandbox, origin: origin, skipSync: skipSync,
      beforePoll: beforePoll)
  }

  // MARK: Device authorization grant

  @Test func slowDownRaisesTheIntervalByFiveSecondsAndKeepsIt() async throws {
    let origin = await clock.now()
    let attempt = try await UserCodeSignIn.startDevice(
      client: harness.client(harness.oidc, clock: clock))
    let approval = try #require(attempt.authorization.verificationURIComplete)
    // Poll 2 reaches the provider at the same instant as poll 1 (its clock is not moved on),
    // which is polling too fast; the person approves before poll 4.
    let seen = await drive(attempt, sandbox: harness.server, origin: origin, skipSync: [2]) {
      poll, _ in
      if poll == 4 { _ = await SandboxHarness.person().visit(approval.absoluteString) }
    }
    let tokens = try await attempt.tokens()
    #expect(tokens.refreshToken != nil)
    let scheduled = seen.filter { $0.nextPollAt != nil }
    #expect(scheduled.compactMap { $0.nextPollAt?.timeIntervalSince(origin) } == [5, 10, 20, 30])
    #expect(scheduled.map { $0.pollInterval } == [5, 5, 10, 10])
    let stats = await harness.server.stats()
    #expect(stats[.slowDowns] == 1)
    #expect(stats[.devicePolls] == 4)
    #expect(stats[.deviceTokens] == 1)
  }

  /// The worst moment to approve is just after a poll was answered: the code must then be
  /// redeemed by the very next poll, one interval later, with no wait added after it. The time
  /// limit only guards against a loop that sleeps with nothing to show for it: generous, since
  /// Swift Testing counts it from when the test was scheduled, and a whole parallel run on two
  /// busy cores has kept a test waiting 90 s before its first step.
  @Test(.timeLimit(.minutes(10)))
  func thePollAfterTheApprovalRedeemsTheCode() async throws {
    let origin = await clock.now()
    let attempt = try await UserCodeSignIn.startDevice(
      client: harness.client(harness.oidc, clock: clock))
    let approval = try #require(attempt.authorization.verificationURIComplete)
    var pollsBeforeApproval: Int?
    let seen = await drive(attempt, sandbox: harness.server, origin: origin) { poll, _ in
      guard poll == 3 else { return }
      pollsBeforeApproval = await harness.server.stats()[.devicePolls]
      _ = await SandboxHarness.person().visit(approval.absoluteString)
    }
    #expect(try await attempt.tokens().refreshToken != nil)
    #expect(pollsBeforeApproval == 2)
    #expect(seen.last?.phase == .signedIn)
    #expect(seen.compactMap { $0.nextPollAt?.timeIntervalSince(origin) } == [5, 10, 15])
    #expect(await clock.now() == origin.addingTimeInterval(15))
    let stats = await harness.server.stats()
    #expect(stats[.devicePolls] == 3)
    #expect(stats[.deviceTokens] == 1)
    #expect(stats[.slowDowns] == 0)
  }

  @Test func aDeniedDeviceCodeEndsAsAccessDenied() async throws {
    let origin = await clock.now()
    let attempt = try await UserCodeSignIn.startDevice(
      client: harness.client(harness.oidc, clock: clock))
    let approval = try #require(attempt.authorization.verificationURIComplete)
    _ = await SandboxHarness.person(.deny).visit(approval.absoluteString)
    _ = await drive(attempt, sandbox: harness.server, origin: origin)
    let error = await #expect(throws: AuthError.self) { _ = try await attempt.tokens() }
    #expect(error == .accessDenied(description: "The user declined."))
    #expect(error?.exitCode == 6)
  }

  @Test func anExpiredDeviceCodeEndsAsExpired() async throws {
    let origin = await clock.now()
    let attempt = try await UserCodeSignIn.startDevice(
      client: harness.client(harness.oidc, clock: clock))
    // The provider's clock is past the code's 600 s while the client still has time left.
    _ = await drive(attempt, sandbox: harness.server, origin: origin, skipSync: [1]) { _, _ in
      await harness.server.setClockOffset(seconds: 601)
    }
    await #expect(throws: AuthError.userCodeExpired) { _ = try await attempt.tokens() }
    #expect(await harness.server.stats()[.devicePolls] == 1)
  }

  // MARK: Simkl PIN

  @Test func signsInWithASimklPINEnteredOnTheVerificationPage() async throws {
    let origin = await clock.now()
    let attempt = try await UserCodeSignIn.startPIN(
      client: harness.client(harness.simkl, clock: clock))
    let progress = await attempt.currentProgress
    let code = try #require(progress.userCode)
    let page = try #require(progress.verificationURI)
    #expect(page.path == SandboxPaths.Simkl.pinPage)
    let visit = await SandboxHarness.person(userCode: code).visit(page.absoluteString)
    #expect(visit.finalBody.contains("Device connected"))
    _ = await drive(attempt, sandbox: harness.server, origin: origin)
    let tokens = try await attempt.tokens()
    #expect(tokens.accessToken.count == 64)
  }

  @Test func aPINPollAnsweredWithAFreshCodeStopsWithAClearError() async throws {
    let origin = await clock.now()
    let attempt = try await UserCodeSignIn.startPIN(
      client: harness.client(harness.simkl, clock: clock))
    let shown = try #require(await attempt.currentProgress.userCode)
    // The code expires at the provider (15 minutes pass there) before the first poll.
    let seen = await drive(attempt, sandbox: harness.server, origin: origin, skipSync: [1]) {
      _, _ in await harness.server.setClockOffset(seconds: 901)
    }
    let error = await #expect(throws: AuthError.self) { _ = try await attempt.tokens() }
    #expect(error == .pinCodeReplaced)
    #expect(error?.message.contains("start a new sign-in to get a fresh code") == true)
    #expect(seen.allSatisfy { $0.userCode == shown })
    // The provider did hand out a second code; it never reached the progress.
    #expect(await harness.server.stats()[.deviceAuthorizations] == 2)
  }

  // MARK: Refresh and revocation

  func signedInToOIDC(_ harness: SandboxHarness) async throws -> TokenResponse {
    try await harness.signIn(harness.client(harness.oidc)).result.get()
  }

  @Test func refreshRotationReturnsTheNewRefreshToken() async throws {
    let first = try await signedInToOIDC(harness)
    let old = try #require(first.refreshToken)
    let refreshed = try await harness.client(harness.oidc).refresh(old)
    let new = try #require(refreshed.refreshToken)
    #expect(new != old)
    #expect(refreshed.accessToken != first.accessToken)
    #expect(await harness.server.stats()[.refreshes] == 1)
    // The rotated token works in turn.
    #expect(try await harness.client(harness.oidc).refresh(new).refreshToken != new)
  }

  @Test func reusingAnOldRefreshTokenIsDetectedAndMeansSignInNeeded() async throws {
    let client = harness.client(harness.oidc)
    let old = try #require(try await signedInToOIDC(harness).refreshToken)
    _ = try await client.refresh(old)
    let error = await #expect(throws: AuthError.self) { _ = try await client.refresh(old) }
    guard case .refreshTokenRejected(let description)? = error else {
      Issue.record("expected a refused refresh token, got \(String(describing: error))")
      return
    }
    #expect(description?.contains("already used") == true)
    #expect(error?.exitCode == 5)
    let stats = await harness.server.stats()
    #expect(stats[.reuseDetections] == 1)
    #expect(stats[.refreshes] == 1)
  }

  @Test func aProviderThatDoesNotRotateKeepsTheRefreshTokenInUse() async throws {
    let client = harness.client(harness.muhajir)
    let first = try await harness.signIn(client).result.get()
    let token = try #require(first.refreshToken)
    // The answer goes into the stored tokens through the one merge (Accounts).
    let stored = TokenSet(
      accessToken: first.accessToken, refreshToken: token, obtainedAt: first.receivedAt)
    let refreshed = stored.updated(with: try await client.refresh(token))
    #expect(refreshed.refreshToken == token)
    #expect(refreshed.accessToken != first.accessToken)
  }

  @Test func signOutRevokesTheRefreshTokenThenTheAccessToken() async throws {
    let client = harness.client(harness.oidc)
    let tokens = try await signedInToOIDC(harness)
    let result = try await client.revoke(
      accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
    #expect(result == .revoked)
    #expect(await harness.server.stats()[.revocations] == 2)
    await #expect(throws: AuthError.self) {
      _ = try await client.refresh(try #require(tokens.refreshToken))
    }
  }

  @Test func aFailedRevocationIsReported() async throws {
    let tokens = try await signedInToOIDC(harness)
    await harness.server.inject(
      SandboxFault(pathPrefix: SandboxPaths.OIDC.revoke, kind: .status500, count: 2))
    let error = await #expect(throws: AuthError.self) {
      _ = try await harness.client(harness.oidc).revoke(
        accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
    }
    #expect(error == .serverError(status: 500))
    #expect(error?.exitCode == 7)
  }
}
