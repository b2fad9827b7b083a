import Foundation
import Sandbox
import TestSupport
import Testing

/// The `dynamic` profile (RFC 7591 registration, RFC 7592 management, metadata split between
/// OpenID discovery and RFC 8414) and the OpenID settings that model strict servers.
@Suite(.sandboxHarness) struct DynamicProfileTests {
  var harness: SandboxHarness { .current }
  typealias Paths = SandboxPaths.Dynamic
  typealias Hooks = SandboxPaths.Hooks

  /// Registers a client for the harness's callback; returns the answer.
  func register(_ extra: String = "", grants: [String] = ["authorization_code", "refresh_token"])
    async -> RawHTTPResponse
  {
    let grantList = grants.map { "\"\($0)\"" }.joined(separator: ",")
    return await harness.postJSON(
      Paths.register,
      #"{"redirect_uris":["\#(harness.callback.redirectURI)"],"token_endpoint_auth_method":"none","#
        + #""grant_types":[\#(grantList)],"response_types":["code"],"client_name":"authtui""#
        + extra + "}")
  }

  @Test func listsRevocationRegistrationAndTheDeviceGrantOnlyInItsRFC8414Metadata() async throws {
    let openID = try #require(await harness.get(Paths.discovery).json)
    #expect(openID["issuer"] as? String == harness.url(Paths.issuer))
    #expect(openID["revocation_endpoint"] == nil)
    #expect(openID["registration_endpoint"] == nil)
    #expect(openID["device_authorization_endpoint"] == nil)
    #expect(openID["authorization_endpoint"] as? String == harness.url(Paths.authorize))
    let server = try #require(await harness.get(Paths.authorizationServerMetadata).json)
    #expect(server["issuer"] as? String == harness.url(Paths.issuer))
    #expect(server["revocation_endpoint"] as? String == harness.url(Paths.revoke))
    #expect(server["registration_endpoint"] as? String == harness.url(Paths.register))
    #expect(
      server["device_authorization_endpoint"] as? String == harness.url(Paths.deviceAuthorization))
    // Only the path-insertion form (RFC 8414 §3.1) is served.
    #expect(await harness.get("/dynamic/.well-known/oauth-authorization-server").status == 404)
    _ = await harness.postJSON(Hooks.settings, #"{"profile":"dynamic","openid_discovery":false}"#)
    #expect(await harness.get(Paths.discovery).status == 404)
    #expect(await harness.get(Paths.authorizationServerMetadata).status == 200)
  }

  @Test func aRegisteredClientSignsInRefreshesAndRevokesWithinWhatItRegistered() async throws {
    let registered = await register()
    #expect(registered.status == 201, "\(registered.body)")
    let clientID = try #require(registered["client_id"])
    let accessToken = try #require(registered["registration_access_token"])
    #expect(registered["registration_client_uri"] == harness.url(Paths.register + "/" + clientID))
    #expect(await harness.server.stats()[.registrations, .dynamic] == 1)

    let signIn = OpenIDSignIn.dynamic(harness, clientID: clientID)
    let tokens = try await signIn.tokens()
    let refreshToken = try #require(tokens["refresh_token"])
    let refreshed = await signIn.refresh(refreshToken)
    #expect(refreshed.status == 200, "\(refreshed.body)")
    let revoked = await harness.postForm(
      Paths.revoke, [("token", refreshed["refresh_token"] ?? ""), ("client_id", clientID)])
    #expect(revoked.status == 200)

    // Its redirect URI is held to what it registered, byte for byte.
    let other = signIn.authorizationQuery.map {
      $0.0 == "redirect_uri" ? ($0.0, "http://127.0.0.1:1/callback") : $0
    }
    let refused = await harness.get(SandboxHarness.target(Paths.authorize, other))
    #expect(refused.status == 400)
    #expect(refused.body.contains("Redirect URI not registered"))
    // And to its grants: no device grant was registered.
    let device = await harness.postForm(Paths.deviceAuthorization, [("client_id", clientID)])
    #expect(device["error"] == "unauthorized_client")

    // RFC 7592: read, then delete; the client is gone with its tokens.
    let bearer = ["Authorization: Bearer \(accessToken)"]
    let read = await harness.get(Paths.register + "/" + clientID, headers: bearer)
    #expect(read["client_id"] == clientID)
    #expect(
      await harness.get(Paths.register + "/" + clientID, headers: ["Authorization: Bearer x"])
        .status == 401)
    let deleted = await RawHTTPClient.request(
      "DELETE", Paths.register + "/" + clientID, port: harness.port, headers: bearer)
    #expect(deleted.status == 204)
    #expect(await harness.server.stats()[.registrationDeletions] == 1)
    let after = await signIn.refresh(refreshToken)
    #expect(after["error"] == "invalid_client")
  }

  @Test func refusesARegistrationAsItsSettingSays() async throws {
    _ = await harness.postJSON(Hooks.settings, #"{"profile":"dynamic","registration":"closed"}"#)
    let closed = await register()
    #expect(closed.status == 401)
    #expect(closed["error"] == "invalid_token")
    _ = await harness.postJSON(
      Hooks.settings, #"{"profile":"dynamic","registration":"vendor_field"}"#)
    let vendor = await register()
    #expect(vendor.status == 400)
    #expect(vendor["error"] == "invalid_client_metadata")
    #expect(vendor["error_description"] == "vendor_tenant is required by this server's policy.")
    #expect(await register(#","vendor_tenant":"acme""#).status == 201)
    _ = await harness.postJSON(Hooks.settings, #"{"profile":"dynamic","registration":"open"}"#)
    let confidential = await harness.postJSON(
      Paths.register,
      #"{"redirect_uris":["\#(harness.callback.redirectURI)"],"token_endpoint_auth_method":"client_secret_basic"}"#
    )
    #expect(confidential["error"] == "invalid_client_metadata")
    let notLoopback = await harness.postJSON(
      Paths.register,
      #"{"redirect_uris":["https://app.example/cb"],"token_endpoint_auth_method":"none"}"#)
    #expect(notLoopback["error"] == "invalid_redirect_uri")
    #expect(await harness.server.stats()[.refusedRegistrations] == 4)
    let bad = await harness.postJSON(
      Hooks.settings, #"{"profile":"dynamic","registration":"sometimes"}"#)
    #expect(bad["error"] == #"registration takes "open", "closed", "vendor_field"."#)
  }

  @Test func aStrictServerShowsAnErrorPageForOfflineAccessWithoutConsent() async throws {
    _ = await harness.postJSON(Hooks.settings, #"{"profile":"oidc","strict_offline_access":true}"#)
    let signIn = OpenIDSignIn.oidc(harness)
    let page = await harness.get(
      SandboxHarness.target(SandboxPaths.OIDC.authorize, signIn.authorizationQuery))
    #expect(page.status == 400)
    #expect(page.header("Location") == nil)
    #expect(page.body.contains("prompt=consent (OpenID Connect Core §11)"))
    var consenting = OpenIDSignIn.oidc(harness)
    consenting.extraQuery = [("prompt", "consent")]
    _ = try await consenting.tokens()
  }

  @Test func canLeaveThePromisedIssOutOfAnErrorRedirect() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    let denied = try await signIn.authorize(action: .deny)
    #expect(denied["error"] == "access_denied")
    #expect(denied["iss"] == harness.url(SandboxPaths.OIDC.issuer))
    _ = await harness.postJSON(
      Hooks.settings, #"{"profile":"oidc","error_redirect_omits_iss":true}"#)
    let again = OpenIDSignIn.oidc(harness)
    let bare = try await again.authorize(action: .deny)
    #expect(bare["error"] == "access_denied")
    #expect(bare["iss"] == nil)
    // Codes still carry it.
    let approved = try await OpenIDSignIn.oidc(harness).authorize()
    #expect(approved["iss"] == harness.url(SandboxPaths.OIDC.issuer))
  }

  @Test func canNameTheAccountOnlyByAnOpaqueSubject() async throws {
    _ = await harness.postJSON(Hooks.settings, #"{"profile":"oidc","subject_only_claims":true}"#)
    let tokens = try await OpenIDSignIn.oidc(harness).tokens()
    let accessToken = try #require(tokens["access_token"])
    let userinfo = try #require(
      await harness.get(
        SandboxPaths.OIDC.userinfo, headers: ["Authorization: Bearer \(accessToken)"]
      ).json)
    #expect(Set(userinfo.keys) == ["sub"])
    let subject = try #require(userinfo["sub"] as? String)
    #expect(subject != "alice" && subject.allSatisfy { $0.isNumber })
  }
}
