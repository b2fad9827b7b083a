import AuthCore
import Foundation
import Sandbox
import TestSupport
import Testing

/// The `microsoft` profile reproduces the Microsoft identity platform (docs/providers.md):
/// templated discovery issuers, id_tokens from the account's own tenant, tenant restrictions,
/// replaced refresh tokens that stay valid, Microsoft's device answers, no revocation.
@Suite(.sandboxHarness) struct MicrosoftProfileTests {
  var harness: SandboxHarness { .current }

  typealias Paths = SandboxPaths.Microsoft

  /// One poll of `tenant`'s token endpoint for `deviceCode`.
  func devicePoll(_ tenant: String, _ deviceCode: String) async -> RawHTTPResponse {
    await harness.postForm(
      Paths.token(tenant),
      [
        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
        ("client_id", "sandbox-client"), ("device_code", deviceCode),
      ])
  }

  @Test func discoveryPublishesTheTemplateForCommonAndATenantForConsumers() async throws {
    let expected = [
      "common": "{tenantid}", "organizations": "{tenantid}", "consumers": Paths.consumerTenant,
      Paths.organizationDomain: Paths.organizationTenant,
      Paths.organizationTenant: Paths.organizationTenant,
    ]
    for (tenant, issuerTenant) in expected {
      let document = try #require(await harness.get(Paths.discovery(tenant)).json, "\(tenant)")
      #expect(document["issuer"] as? String == harness.url(Paths.issuer(issuerTenant)))
      #expect(document["revocation_endpoint"] == nil)
      #expect(document["end_session_endpoint"] as? String == harness.url(Paths.logout(tenant)))
      #expect(
        document["device_authorization_endpoint"] as? String
          == harness.url(Paths.deviceCode(tenant)))
    }
  }

  @Test func idTokensComeFromTheAccountsOwnTenantWithTid() async throws {
    for (user, tenant) in [
      ("alice", Paths.organizationTenant), ("personal-bo", Paths.consumerTenant),
    ] {
      let signIn = OpenIDSignIn.microsoft(harness)
      let tokens = try await signIn.tokens(user: user)
      let jwks = try #require(await harness.get(Paths.keys("common")).json)
      let idToken = try IDTokenCheck(try #require(tokens["id_token"]), jwks: jwks)
      #expect(idToken["iss"] == harness.url(Paths.issuer(tenant)))
      #expect(idToken["tid"] == tenant)
    }
  }

  @Test func consumersRefusesAWorkAccountOnTheConsentPage() async throws {
    let signIn = OpenIDSignIn.microsoft(harness, tenant: "consumers")
    let outcome = await harness.browse(signIn.authorizationURL, action: .approve, user: "alice")
    #expect(!outcome.succeeded)
    #expect(await harness.callback.received(state: signIn.state).isEmpty)
  }

  /// Microsoft "doesn't revoke old refresh tokens": the old one still works, and its use is
  /// counted so a test can tell a client that kept it.
  @Test func aRefreshReplacesTheRefreshTokenAndTheOldOneStillWorks() async throws {
    let signIn = OpenIDSignIn.microsoft(harness)
    let first = try #require(try await signIn.tokens()["refresh_token"])
    let refreshed = await signIn.refresh(first)
    #expect(refreshed.status == 200)
    let second = try #require(refreshed["refresh_token"])
    #expect(second != first)
    #expect(await harness.server.stats()[.replacedRefreshTokenUses, .microsoft] == 0)
    #expect(await signIn.refresh(first).status == 200)
    #expect(await harness.server.stats()[.replacedRefreshTokenUses, .microsoft] == 1)
  }

  @Test func theDeviceAnswerHasAMessageAndNoCompleteURIAndADenialIsDeclined() async throws {
    let start = await harness.postForm(
      Paths.deviceCode("common"),
      [("client_id", "sandbox-client"), ("scope", "openid offline_access")])
    let body = try #require(start.json)
    #expect(body["verification_uri"] as? String == harness.url(Paths.deviceLogin))
    #expect(body["verification_uri_complete"] == nil)
    #expect((body["message"] as? String)?.hasPrefix("To sign in, use a web browser") == true)
    let deviceCode = try #require(body["device_code"] as? String)
    func poll() async -> RawHTTPResponse { await devicePoll("common", deviceCode) }
    let pending = await poll()
    #expect(pending.status == 400)
    #expect(pending["error"] == "authorization_pending")
    #expect(pending.json?["error_codes"] as? [Int] == [70016])
    #expect(pending.json?["correlation_id"] is String)
    let unknown = await devicePoll("common", "nope")
    #expect(unknown["error"] == "bad_verification_code")
    let userCode = try #require(body["user_code"] as? String)
    let outcome = await harness.browse(
      harness.url(Paths.deviceLogin), action: .deny, user: "alice", userCode: userCode)
    #expect(outcome.succeeded, "\(outcome.failure ?? "")")
    await harness.server.setClockOffset(seconds: 6)
    #expect(await poll()["error"] == "authorization_declined")
  }

  @Test func consumersRefusesAWorkAccountOnTheDevicePageTooAndTakesAPersonalOne() async throws {
    let start = await harness.postForm(
      Paths.deviceCode("consumers"),
      [("client_id", "sandbox-client"), ("scope", "openid offline_access")])
    let body = try #require(start.json)
    let userCode = try #require(body["user_code"] as? String)
    let deviceCode = try #require(body["device_code"] as? String)
    func poll() async -> RawHTTPResponse { await devicePoll("consumers", deviceCode) }
    let work = await harness.browse(
      harness.url(Paths.deviceLogin), action: .approve, user: "alice", userCode: userCode)
    #expect(!work.succeeded)
    #expect(work.finalStatus == 400)
    #expect(work.finalBody.contains("accepts only personal Microsoft accounts"))
    await harness.server.setClockOffset(seconds: 6)
    #expect(await poll()["error"] == "authorization_pending")
    let personal = await harness.browse(
      harness.url(Paths.deviceLogin), action: .approve, user: "personal-bo", userCode: userCode)
    #expect(personal.succeeded, "\(personal.failure ?? "")")
    await harness.server.setClockOffset(seconds: 12)
    let tokens = await poll()
    #expect(tokens.status == 200, "\(tokens.body)")
    let jwks = try #require(await harness.get(Paths.keys("consumers")).json)
    let idToken = try IDTokenCheck(try #require(tokens["id_token"]), jwks: jwks)
    #expect(idToken["tid"] == Paths.consumerTenant)
    #expect(idToken["iss"] == harness.url(Paths.issuer(Paths.consumerTenant)))
  }
}
