import AuthCore
import Foundation
import JSON
import Providers
import Sandbox
import TestSupport
import Testing

/// GitHub's device flow as the built-in `github` preset describes it (loaded through the
/// catalog, under the provider file `authtui-sandbox --write-providers` writes, which changes
/// only the endpoints and the client id), against the sandbox's `github` profile. The client's
/// time is a `ManualClock`, and the sandbox's clock is moved along with it.
@Suite(.sandboxHarness) struct SandboxGitHubTests {
  var harness: SandboxHarness { .current }
  let clock = ManualClock()

  /// The `github` provider as authtui loads it; `extra` adds fields to the sandbox's file.
  func github(_ extra: [String: String] = [:]) throws -> ProviderConfiguration {
    let folder = try TemporaryDirectory()
    let config = ConfigurationLocation(directory: URL(fileURLWithPath: folder.file("config")))
    try SandboxProviderFiles.write(
      to: config.providersDirectory, baseURL: harness.server.baseURL, redirectPort: 1)
    if !extra.isEmpty {
      let path = config.providersDirectory.appendingPathComponent("github.json")
      var text = try String(contentsOf: path, encoding: .utf8)
      text = "{" + extra.map { "\"\($0.key)\": \($0.value)," }.joined() + text.dropFirst()
      try Data(text.utf8).write(to: path)
    }
    let entry = try #require(ProviderCatalog.load(from: config).entry("github"))
    return try #require(entry.configuration, "\(entry.problems)")
  }

  /// Plays time for the attempt (`driveAgainstSandbox`); the person types the code shown
  /// before poll `approveBefore`, on the verification page, as GitHub has no
  /// `verification_uri_complete`.
  func drive(
    _ attempt: UserCodeSignIn, origin: Date, approveBefore: Int, skipSync: Set<Int> = []
  ) async -> [SignInProgress] {
    await driveAgainstSandbox(
      attempt, clock: clock, sandbox: harness.server, origin: origin, skipSync: skipSync
    ) { poll, _ in
      guard poll == approveBefore else { return }
      _ = await SandboxHarness.person(userCode: attempt.authorization.userCode).visit(
        attempt.authorization.verificationURI.absoluteString)
    }
  }

  /// Guards the client, not a preset line: `ProviderClient.read` takes the body's `error`
  /// before the status. A poller that trusts HTTP 200 reads `authorization_pending` as a token
  /// answer and fails with "the answer has no access_token" at the first poll. It also guards
  /// the `Accept: application/json` every request carries: without it GitHub (and the
  /// profile) answers form-encoded, which no JSON reader takes.
  @Test func signsInAfterPendingAnswersThatComeWithStatus200() async throws {
    let origin = await clock.now()
    let client = harness.client(try github(), clock: clock)
    let attempt = try await UserCodeSignIn.startDevice(client: client)
    #expect(attempt.authorization.verificationURIComplete == nil)
    #expect(attempt.authorization.interval == 5)
    let seen = await drive(attempt, origin: origin, approveBefore: 3)
    let tokens = try await attempt.tokens()
    // An OAuth app's token: no expiry, no refresh token.
    #expect(tokens.expiresIn == nil)
    #expect(tokens.refreshToken == nil)
    // GitHub writes `"scope": "repo,read:user"`; the preset's `"scope_separator": ","`
    // makes that two scopes.
    #expect(tokens.scopes == ["repo", "read:user"])
    #expect(seen.compactMap { $0.nextPollAt?.timeIntervalSince(origin) } == [5, 10, 15])
    let stats = await harness.server.stats()
    #expect(stats[.devicePolls, .github] == 3)
    #expect(stats[.deviceTokens, .github] == 1)

    // What the two pending polls were answered with, asked the same way by hand.
    let start = await harness.postForm(
      SandboxPaths.GitHub.deviceCode, [("client_id", SandboxProfile.defaultClientID)],
      headers: ["Accept: application/json"])
    let code = try #require(JSONValue.object(from: Data(start.body.utf8))?["device_code"])
    let pending = await harness.postForm(
      SandboxPaths.GitHub.token,
      [
        ("client_id", SandboxProfile.defaultClientID), ("device_code", code.stringValue ?? ""),
        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
      ], headers: ["Accept: application/json"])
    #expect(pending.status == 200)
    #expect(pending.body.contains(#""error":"authorization_pending""#))

    let identity = try #require(try await client.identity(for: tokens, idToken: nil))
    #expect(identity.label == "alice")
    #expect(identity.name == "Alice")
    #expect(identity.subject.map { Int($0) != nil } == true)
  }

  /// A poll that comes too early gets GitHub's 200 `slow_down` with the new interval; the
  /// attempt keeps to it for good (10 s), and the next poll is on time.
  @Test func slowDownWithStatus200RaisesTheIntervalForGood() async throws {
    let origin = await clock.now()
    let attempt = try await UserCodeSignIn.startDevice(
      client: harness.client(try github(), clock: clock))
    // Poll 2 reaches the provider at the same instant as poll 1: too early.
    let seen = await drive(attempt, origin: origin, approveBefore: 4, skipSync: [2])
    _ = try await attempt.tokens()
    let scheduled = seen.filter { $0.nextPollAt != nil }
    #expect(scheduled.compactMap { $0.nextPollAt?.timeIntervalSince(origin) } == [5, 10, 20, 30])
    #expect(scheduled.map { $0.pollInterval } == [5, 5, 10, 10])
    let stats = await harness.server.stats()
    #expect(stats[.slowDowns, .github] == 1)
    #expect(stats[.deviceTokens, .github] == 1)
  }

  @Test func aCancelledAuthorizationEndsAsAccessDenied() async throws {
    let origin = await clock.now()
    let attempt = try await UserCodeSignIn.startDevice(
      client: harness.client(try github(), clock: clock))
    _ = await SandboxHarness.person(.deny, userCode: attempt.authorization.userCode).visit(
      attempt.authorization.verificationURI.absoluteString)
    _ = await drive(attempt, origin: origin, approveBefore: 0)
    let error = await #expect(throws: AuthError.self) { _ = try await attempt.tokens() }
    #expect(error == .accessDenied(description: "The authorization request was denied."))
  }

  /// Expiring user tokens whose refresh needs no secret (device-flow tokens, as GitHub
  /// documents today): the refresh rotates both tokens, and the spent refresh token then
  /// gets `bad_refresh_token`, which means "sign in again" like `invalid_grant`. Guards the
  /// preset's `"error_aliases": {"bad_refresh_token": "invalid_grant"}`.
  @Test func refreshesExpiringTokensAndTakesBadRefreshTokenForARejection() async throws {
    var settings = await harness.server.settings(for: .github)
    settings.accessTokenLifetime = 28_800
    settings.refreshTokenLifetime = 15_897_600
    await harness.server.setSettings(settings, for: .github)
    let origin = await clock.now()
    let client = harness.client(try github(), clock: clock)
    let attempt = try await UserCodeSignIn.startDevice(client: client)
    _ = await drive(attempt, origin: origin, approveBefore: 1)
    let tokens = try await attempt.tokens()
    #expect(tokens.expiresIn == 28_800)
    let refreshToken = try #require(tokens.refreshToken)
    let refreshed = try await client.refresh(refreshToken)
    #expect(refreshed.refreshToken != nil && refreshed.refreshToken != refreshToken)
    #expect(refreshed.accessToken != tokens.accessToken)
    await #expect(
      throws: AuthError.refreshTokenRejected(
        description: "The refresh token passed is incorrect or expired.")
    ) {
      _ = try await client.refresh(refreshToken)
    }
    let stats = await harness.server.stats()
    #expect(stats[.refreshes, .github] == 1)
    #expect(stats[.failedRefreshes, .github] == 1)
  }

  /// Guards `refresh_requires_client_secret`: where the refresh grant needs the client secret
  /// (the profile's `refresh_needs_client_secret`), the provider file says so and no refresh
  /// token is kept. Without the line the refresh token is kept, and this fails.
  @Test func keepsNoRefreshTokenWhenTheRefreshNeedsTheClientSecret() async throws {
    var settings = await harness.server.settings(for: .github)
    settings.accessTokenLifetime = 28_800
    settings.refreshTokenLifetime = 15_897_600
    settings.refreshNeedsClientSecret = true
    await harness.server.setSettings(settings, for: .github)
    let origin = await clock.now()
    let client = harness.client(
      try github(["refresh_requires_client_secret": "true"]), clock: clock)
    let attempt = try await UserCodeSignIn.startDevice(client: client)
    _ = await drive(attempt, origin: origin, approveBefore: 1)
    let tokens = try await attempt.tokens()
    #expect(tokens.expiresIn == 28_800)
    #expect(tokens.refreshToken == nil)
  }

  @Test func answersFormEncodedWithoutAcceptJSONAndRefusesARequestWithoutUserAgent() async {
    let start = await harness.postForm(
      SandboxPaths.GitHub.deviceCode, [("client_id", SandboxProfile.defaultClientID)])
    #expect(start.status == 200)
    #expect(start.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true)
    #expect(start.body.hasPrefix("device_code="))
    #expect(start.body.hasSuffix("&expires_in=900&interval=5"))
    let disabled = await harness.postForm(
      SandboxPaths.GitHub.deviceCode, [("client_id", "sandbox-client-no-device-flow")],
      headers: ["Accept: application/json"])
    #expect(disabled.status == 200)
    #expect(disabled.body.contains(#""error":"device_flow_disabled""#))
    let wrongGrant = await harness.postForm(
      SandboxPaths.GitHub.token,
      [("client_id", SandboxProfile.defaultClientID), ("grant_type", "authorization_code")])
    #expect(wrongGrant.status == 200)
    #expect(wrongGrant.body.hasPrefix("error=unsupported_grant_type&"))
    let anonymous = await harness.get(
      SandboxPaths.GitHub.user, headers: ["Authorization: Bearer x"])
    #expect(anonymous.status == 403)
    #expect(anonymous.body.hasPrefix("Request forbidden by administrative rules."))
    let badToken = await harness.get(
      SandboxPaths.GitHub.user, headers: ["Authorization: Bearer x", "User-Agent: test/1"])
    #expect(badToken.status == 401)
    #expect(badToken.body.contains(#""message":"Bad credentials""#))
  }
}
