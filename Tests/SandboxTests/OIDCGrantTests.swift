import Foundation
import Sandbox
import TestSupport
import Testing

/// The `oidc` profile's device grant (RFC 8628), refresh rotation with reuse detection, and
/// revocation (RFC 7009).
@Suite(.sandboxHarness) struct OIDCGrantTests {
  /// The harness the suite's trait started for this test.
  var harness: SandboxHarness { .current }

  typealias Paths = SandboxPaths.OIDC
  static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

  func startDevice(_ harness: SandboxHarness) async -> RawHTTPResponse {
    await harness.postForm(
      Paths.deviceAuthorization,
      [("client_id", "sandbox-client"), ("scope", "openid profile offline_access")])
  }

  func poll(_ harness: SandboxHarness, _ deviceCode: String) async -> RawHTTPResponse {
    await harness.postForm(
      Paths.token,
      [
        ("grant_type", Self.deviceGrant), ("device_code", deviceCode),
        ("client_id", "sandbox-client"),
      ])
  }

  @Test func deviceAuthorizationAnswersEveryRFC8628Member() async throws {
    let start = await startDevice(harness)
    #expect(start.status == 200)
    let userCode = try #require(start["user_code"])
    #expect(userCode.count == 9 && userCode.contains("-"))
    #expect(start["device_code"] != nil)
    #expect(start["verification_uri"] == harness.url(Paths.device))
    #expect(
      start["verification_uri_complete"] == harness.url(Paths.device, [("user_code", userCode)]))
    #expect(start.integer("expires_in") == 600)
    #expect(start.integer("interval") == 5)
  }

  @Test func slowDownAddsFiveSecondsToTheIntervalForGood() async throws {
    let deviceCode = try #require(await startDevice(harness)["device_code"])
    #expect(await poll(harness, deviceCode)["error"] == "authorization_pending")
    #expect(await poll(harness, deviceCode)["error"] == "slow_down")
    // Six seconds later is too early now (the interval is ten), and costs five more.
    await harness.server.setClockOffset(seconds: 6)
    #expect(await poll(harness, deviceCode)["error"] == "slow_down")
    // Fifteen seconds after that poll is on time...
    await harness.server.setClockOffset(seconds: 21)
    #expect(await poll(harness, deviceCode)["error"] == "authorization_pending")
    // ...and the interval stays fifteen: the original five, or ten, is still too early.
    await harness.server.setClockOffset(seconds: 31)
    #expect(await poll(harness, deviceCode)["error"] == "slow_down")
    #expect(await harness.server.stats()[.slowDowns, .oidc] == 3)
  }

  @Test func anApprovedDeviceGetsTokensOnceThroughTheCompleteURI() async throws {
    let start = await startDevice(harness)
    let deviceCode = try #require(start["device_code"])
    let outcome = await harness.browse(
      try #require(start["verification_uri_complete"]), user: "kai")
    #expect(outcome.succeeded, "\(outcome.failure ?? "")")
    let tokens = await poll(harness, deviceCode)
    #expect(tokens.status == 200)
    #expect(tokens["refresh_token"] != nil)
    let jwks = try #require(await harness.get(Paths.jwks).json)
    let idToken = try IDTokenCheck(try #require(tokens["id_token"]), jwks: jwks)
    #expect(idToken["sub"] == "kai")
    #expect(idToken.claims["nonce"] == nil)
    await harness.server.setClockOffset(seconds: 6)
    #expect(await poll(harness, deviceCode)["error"] == "invalid_grant")
  }

  @Test func aDeniedDeviceGetsAccessDenied() async throws {
    let start = await startDevice(harness)
    let outcome = await harness.browse(
      harness.url(Paths.device), action: .deny, userCode: start["user_code"])
    #expect(outcome.finalBody.contains("Access denied"))
    let answer = await poll(harness, try #require(start["device_code"]))
    #expect(answer.status == 400)
    #expect(answer["error"] == "access_denied")
  }

  @Test func anExpiredDeviceCodeGetsExpiredToken() async throws {
    let deviceCode = try #require(await startDevice(harness)["device_code"])
    await harness.server.setClockOffset(seconds: 601)
    #expect(await poll(harness, deviceCode)["error"] == "expired_token")
  }

  @Test func refreshRotatesAndReuseRevokesTheWholeFamily() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    let first = try #require(try await signIn.tokens()["refresh_token"])
    let rotated = await signIn.refresh(first)
    #expect(rotated.status == 200)
    let second = try #require(rotated["refresh_token"])
    #expect(second != first)
    let newAccess = try #require(rotated["access_token"])

    let reuse = await signIn.refresh(first)
    #expect(reuse.status == 400)
    #expect(reuse["error"] == "invalid_grant")
    #expect(reuse["error_description"]?.contains("already used") == true)
    // The family is gone: the newest refresh token and the access tokens with it.
    #expect(await signIn.refresh(second)["error"] == "invalid_grant")
    let userinfo = await harness.get(
      Paths.userinfo, headers: ["Authorization: Bearer \(newAccess)"])
    #expect(userinfo.status == 401)
    let stats = await harness.server.stats()
    #expect(stats[.refreshes] == 1)
    #expect(stats[.reuseDetections] == 1)
    #expect(stats[.reuseDetections, .oidc] == 1)
  }

  @Test func anInvalidatedRefreshTokenIsInvalidGrant() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    let refreshToken = try #require(try await signIn.tokens()["refresh_token"])
    let hook = await harness.postJSON(SandboxPaths.Hooks.invalidate, #"{"profile":"oidc"}"#)
    #expect(hook.integer("invalidated") == 1)
    #expect(await signIn.refresh(refreshToken)["error"] == "invalid_grant")
  }

  @Test func revocationAnswers200ForUnknownTokensAndARevokedRefreshTokenTakesItsGrant()
    async throws
  {
    let unknown = await harness.postForm(
      Paths.revoke, [("token", "never-issued"), ("client_id", "sandbox-client")])
    #expect(unknown.status == 200)
    let signIn = OpenIDSignIn.oidc(harness)
    let tokens = try await signIn.tokens()
    let refreshToken = try #require(tokens["refresh_token"])
    let accessToken = try #require(tokens["access_token"])
    let revoked = await harness.postForm(
      Paths.revoke,
      [
        ("token", refreshToken), ("token_type_hint", "refresh_token"),
        ("client_id", "sandbox-client"),
      ])
    #expect(revoked.status == 200)
    #expect(await signIn.refresh(refreshToken)["error"] == "invalid_grant")
    let userinfo = await harness.get(
      Paths.userinfo, headers: ["Authorization: Bearer \(accessToken)"])
    #expect(userinfo.status == 401)
    #expect(await harness.server.stats()[.revocations, .oidc] == 2)
  }

  @Test func revokingAnAccessTokenLeavesTheRefreshTokenUsable() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    let tokens = try await signIn.tokens()
    let accessToken = try #require(tokens["access_token"])
    let answer = await harness.postForm(
      Paths.revoke, [("token", accessToken), ("client_id", "sandbox-client")])
    #expect(answer.status == 200)
    #expect(
      await harness.get(Paths.userinfo, headers: ["Authorization: Bearer \(accessToken)"]).status
        == 401)
    #expect(await signIn.refresh(try #require(tokens["refresh_token"])).status == 200)
  }
}
