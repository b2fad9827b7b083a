import AuthCore
import Crypto
import Foundation
import Sandbox
import TestSupport
import Testing

/// The standards-complete `oidc` profile: discovery, JWKS and id_tokens (issue 5 point 4),
/// authorization responses with RFC 9207 `iss`, userinfo, revocation, end session.
@Suite(.sandboxHarness) struct OIDCProfileTests {
  /// The harness the suite's trait started for this test.
  var harness: SandboxHarness { .current }

  typealias Paths = SandboxPaths.OIDC
  /// This test's own `state` for a logout's return: another test's carries another.
  let state = "bye-" + UUID().uuidString

  @Test func discoveryNamesEveryEndpointAndTheIssParameter() async throws {
    let discovery = await harness.get(Paths.discovery)
    #expect(discovery.status == 200)
    let document = try #require(discovery.json)
    #expect(document["issuer"] as? String == harness.url(Paths.issuer))
    let endpoints: [(String, String)] = [
      ("authorization_endpoint", Paths.authorize), ("token_endpoint", Paths.token),
      ("device_authorization_endpoint", Paths.deviceAuthorization),
      ("revocation_endpoint", Paths.revoke), ("userinfo_endpoint", Paths.userinfo),
      ("end_session_endpoint", Paths.endSession), ("jwks_uri", Paths.jwks),
    ]
    for (name, path) in endpoints {
      #expect(document[name] as? String == harness.url(path), "\(name)")
    }
    #expect(document["authorization_response_iss_parameter_supported"] as? Bool == true)
    #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
    #expect(document["id_token_signing_alg_values_supported"] as? [String] == ["RS256", "ES256"])
    #expect(await harness.get(Paths.authorizationServerMetadata).body == discovery.body)
  }

  @Test func theJWKSHasAnRS256AndAnES256KeyEachWithAKid() async throws {
    let keys = try #require(await harness.get(Paths.jwks).json?["keys"] as? [[String: Any]])
    #expect(keys.map { $0["kty"] as? String } == ["RSA", "EC"])
    #expect(keys.map { $0["alg"] as? String } == ["RS256", "ES256"])
    #expect(keys.allSatisfy { ($0["kid"] as? String)?.isEmpty == false })
  }

  @Test func anApprovedSignInGivesIssAndAnRS256IDTokenWithNonceAndAtHash() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    let callback = try await signIn.authorize(user: "hana")
    #expect(callback["iss"] == harness.url(Paths.issuer))
    let before = Int(await harness.server.now().timeIntervalSince1970)
    let tokens = await signIn.exchange(code: try #require(callback["code"]))
    let after = Int(await harness.server.now().timeIntervalSince1970)
    #expect(tokens.status == 200)
    #expect(tokens["scope"] == "openid profile email offline_access")
    let jwks = try #require(await harness.get(Paths.jwks).json)
    let idToken = try IDTokenCheck(try #require(tokens["id_token"]), jwks: jwks)
    #expect(idToken.header["alg"] as? String == "RS256")
    #expect(idToken["iss"] == harness.url(Paths.issuer))
    #expect(idToken["aud"] == "sandbox-client")
    #expect(idToken["sub"] == "hana")
    #expect(idToken["nonce"] == signIn.nonce)
    #expect(idToken["preferred_username"] == "hana")
    let accessToken = try #require(tokens["access_token"])
    #expect(idToken["at_hash"] == Base64URL.encode(SHA256.hash(accessToken).prefix(16)))
    // Issued by the sandbox's clock during the exchange, valid for an hour.
    let issuedAt = try #require(idToken.claims["iat"] as? Int)
    #expect((before...after).contains(issuedAt))
    #expect(idToken.claims["exp"] as? Int == issuedAt + 3600)
  }

  @Test func theES256ClientGetsES256IDTokens() async throws {
    var signIn = OpenIDSignIn.oidc(harness)
    signIn.clientID = OIDCClients.es256ClientID
    let tokens = try await signIn.tokens()
    let jwks = try #require(await harness.get(Paths.jwks).json)
    let idToken = try IDTokenCheck(try #require(tokens["id_token"]), jwks: jwks)
    #expect(idToken.header["alg"] as? String == "ES256")
    #expect(idToken["aud"] == OIDCClients.es256ClientID)
  }

  @Test func alternatingSigningUsesBothKeysInTurn() async throws {
    var settings = await harness.server.settings(for: .oidc)
    settings.idTokenSigning = .alternate
    await harness.server.setSettings(settings, for: .oidc)
    var algorithms: Set<String> = []
    for _ in 0..<2 {
      let tokens = try await OpenIDSignIn.oidc(harness).tokens()
      let jwks = try #require(await harness.get(Paths.jwks).json)
      let idToken = try IDTokenCheck(try #require(tokens["id_token"]), jwks: jwks)
      algorithms.insert(idToken.header["alg"] as? String ?? "")
    }
    #expect(algorithms == ["RS256", "ES256"])
  }

  @Test func rotatedKeysReplaceEveryKidInTheJWKS() async throws {
    let before = try #require(await harness.get(Paths.jwks).json)
    let oldToken = try #require(try await OpenIDSignIn.oidc(harness).tokens()["id_token"])
    #expect(throws: Never.self) { try IDTokenCheck(oldToken, jwks: before) }

    let rotated = await harness.postJSON(SandboxPaths.Hooks.rotateKeys, #"{"profile":"oidc"}"#)
    let newKids = try #require(
      (rotated.json?["kids"] as? [String: Any])?["oidc"] as? [String],
      "HTTP \(rotated.status): \(rotated.body)")
    let after = try #require(await harness.get(Paths.jwks).json)
    let kids = (after["keys"] as? [[String: Any]] ?? []).compactMap { $0["kid"] as? String }
    let oldKids = (before["keys"] as? [[String: Any]] ?? []).compactMap { $0["kid"] as? String }
    #expect(kids == newKids)
    #expect(Set(kids).isDisjoint(with: oldKids))
    #expect(throws: IDTokenCheck.Failure.self) { try IDTokenCheck(oldToken, jwks: after) }
    let newToken = try #require(try await OpenIDSignIn.oidc(harness).tokens()["id_token"])
    #expect(throws: Never.self) { try IDTokenCheck(newToken, jwks: after) }
  }

  @Test func pkceIsRequiredAndOnlyS256() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    for (name, value) in [("code_challenge_method", "plain"), ("code_challenge", nil)] {
      var query = signIn.authorizationQuery.filter { $0.0 != name }
      if let value { query.append((name, value)) }
      let answer = await harness.get(SandboxHarness.target(Paths.authorize, query))
      #expect(answer.status == 302)
      #expect(answer.locationQuery["error"] == "invalid_request")
      #expect(answer.locationQuery["state"] == signIn.state)
      #expect(answer.locationQuery["iss"] == harness.url(Paths.issuer))
    }
  }

  @Test func unknownClientsAndLocalhostRedirectsAreToldOnThePageNotRedirected() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    var unknown = signIn.authorizationQuery.filter { $0.0 != "client_id" }
    unknown.append(("client_id", "stranger"))
    #expect(await harness.get(SandboxHarness.target(Paths.authorize, unknown)).status == 400)
    var localhost = signIn.authorizationQuery.filter { $0.0 != "redirect_uri" }
    localhost.append(("redirect_uri", "http://localhost:4000/callback"))
    let answer = await harness.get(SandboxHarness.target(Paths.authorize, localhost))
    #expect(answer.status == 400)
    #expect(answer.header("Location") == nil)
    let token = await harness.postForm(
      Paths.token, [("grant_type", "authorization_code"), ("code", "x"), ("client_id", "stranger")])
    #expect(token.status == 401)
    #expect(token["error"] == "invalid_client")
  }

  @Test func aDenialComesBackAsAccessDeniedWithIss() async throws {
    let callback = try await OpenIDSignIn.oidc(harness).authorize(action: .deny)
    #expect(callback["error"] == "access_denied")
    #expect(callback["iss"] == harness.url(Paths.issuer))
  }

  @Test func aReplayedCodeIsRefusedAndRevokesWhatItGave() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    let code = try #require(try await signIn.authorize()["code"])
    let first = await signIn.exchange(code: code)
    let accessToken = try #require(first["access_token"])
    let replay = await signIn.exchange(code: code)
    #expect(replay.status == 400)
    #expect(replay["error"] == "invalid_grant")
    let userinfo = await harness.get(
      Paths.userinfo, headers: ["Authorization: Bearer \(accessToken)"])
    #expect(userinfo.status == 401)
    #expect(await harness.server.stats()[.codeReplays] == 1)
  }

  @Test func aWrongVerifierIsInvalidGrant() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    let code = try #require(try await signIn.authorize()["code"])
    let answer = await signIn.exchange(code: code, verifier: PKCEPair.generate().verifier)
    #expect(answer.status == 400)
    #expect(answer["error"] == "invalid_grant")
  }

  @Test func userinfoAnswersTheClaimsOf401And403() async throws {
    let missing = await harness.get(Paths.userinfo)
    #expect(missing.status == 401)
    #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
    let accessToken = try #require(
      try await OpenIDSignIn.oidc(harness).tokens(user: "ines")["access_token"])
    let userinfo = await harness.get(
      Paths.userinfo, headers: ["Authorization: Bearer \(accessToken)"])
    #expect(userinfo.status == 200)
    #expect(userinfo["sub"] == "ines")
    #expect(userinfo["preferred_username"] == "ines")
    #expect(userinfo["email"] == "ines@example.com")
    var noOpenid = OpenIDSignIn.oidc(harness)
    noOpenid.scope = "profile"
    let limited = try #require(try await noOpenid.tokens()["access_token"])
    let forbidden = await harness.get(Paths.userinfo, headers: ["Authorization: Bearer \(limited)"])
    #expect(forbidden.status == 403)
    #expect(forbidden["error"] == "insufficient_scope")
  }

  @Test func endSessionAsksThenRedirectsToTheLoopbackWithState() async throws {
    let idToken = try #require(try await OpenIDSignIn.oidc(harness).tokens(user: "jo")["id_token"])
    let url = harness.url(
      Paths.endSession,
      [
        ("id_token_hint", idToken), ("post_logout_redirect_uri", harness.callback.redirectURI),
        ("state", state),
      ])
    let outcome = await harness.browse(url)
    #expect(outcome.succeeded, "\(outcome.failure ?? "")")
    #expect(outcome.decision == .approve)
    #expect(await harness.callback.received(state: state).count == 1)
    #expect(await harness.server.stats()[.endSessions, .oidc] == 1)
    // Only an address registered for the client: by default its loopback redirect URIs.
    let elsewhere = await harness.get(
      SandboxHarness.target(
        Paths.endSession,
        [("id_token_hint", idToken), ("post_logout_redirect_uri", "http://127.0.0.1:9/other")]))
    #expect(elsewhere.status == 400)
    #expect(elsewhere.body.contains("post_logout_redirect_uri is not registered for this client."))
    let unknownHint = await harness.get(
      SandboxHarness.target(Paths.endSession, [("id_token_hint", "e30.e30.sig")]))
    #expect(unknownHint.status == 400)
  }

  @Test func endSessionRedirectsOnlyToTheRegisteredPostLogoutAddresses() async throws {
    let idToken = try #require(try await OpenIDSignIn.oidc(harness).tokens(user: "jo")["id_token"])
    let landing = harness.callback.redirectURI
    func logout() -> String {
      harness.url(
        Paths.endSession,
        [("id_token_hint", idToken), ("post_logout_redirect_uri", landing), ("state", state)])
    }
    // Nothing registered: the redirect URI no longer counts, and nothing is redirected.
    let before = await harness.callback.received(state: state).count
    let none = await harness.postJSON(
      "/_sandbox/settings", #"{"profile":"oidc","post_logout_redirect_uris":[]}"#)
    #expect(none.status == 200)
    let refused = await harness.browse(logout())
    #expect(refused.finalStatus == 400)
    #expect(await harness.callback.received(state: state).count == before)
    // Registered explicitly: redirected there, with the state.
    var settings = await harness.server.settings(for: .oidc)
    settings.postLogoutRedirectURIs = [landing]
    await harness.server.setSettings(settings, for: .oidc)
    let returned = await harness.browse(logout())
    #expect(returned.succeeded, "\(returned.failure ?? "")")
    #expect(await harness.callback.received(state: state).count == before + 1)
    let wrong = await harness.postJSON(
      "/_sandbox/settings", #"{"profile":"oidc","post_logout_redirect_uris":7}"#)
    #expect(wrong.status == 400)
  }
}
