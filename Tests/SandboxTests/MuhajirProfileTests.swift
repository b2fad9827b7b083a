import Foundation
import Sandbox
import TestSupport
import Testing

/// Muhajir Studio's quirks (PROVIDERS.md "Muhajir Studio").
@Suite(.sandboxHarness) struct MuhajirProfileTests {
  /// The harness the suite's trait started for this test.
  var harness: SandboxHarness { .current }

  typealias Paths = SandboxPaths.Muhajir

  @Test func formExchangeWithOfflineAccessGivesARefreshTokenAndANonceBoundIDToken() async throws {
    let signIn = OpenIDSignIn.muhajir(harness)
    let tokens = try await signIn.tokens(user: "farid")
    #expect(tokens["token_type"] == "Bearer")
    #expect(tokens["refresh_token"] != nil)
    let jwks = try #require(await harness.get(Paths.jwks).json)
    let idToken = try IDTokenCheck(try #require(tokens["id_token"]), jwks: jwks)
    #expect(idToken["iss"] == harness.url(Paths.issuer))
    #expect(idToken["aud"] == "sandbox-client")
    #expect(idToken["nonce"] == signIn.nonce)
    #expect(idToken["sub"] == "farid")
    #expect(idToken.header["alg"] as? String == "RS256")
    let discovery = await harness.get(Paths.discovery)
    #expect(discovery["issuer"] == harness.url(Paths.issuer))
    #expect(discovery["userinfo_endpoint"] == harness.url(Paths.me))
  }

  @Test func noRefreshTokenWithoutOfflineAccess() async throws {
    var signIn = OpenIDSignIn.muhajir(harness)
    signIn.scope = "openid profile email"
    let tokens = try await signIn.tokens()
    #expect(tokens["access_token"] != nil)
    #expect(tokens.json?["refresh_token"] == nil)
  }

  @Test func theTokenEndpointRefusesAJSONBody() async throws {
    let signIn = OpenIDSignIn.muhajir(harness)
    let code = try #require(try await signIn.authorize()["code"])
    let answer = await harness.postJSON(
      Paths.token,
      #"{"grant_type":"authorization_code","code":"\#(code)","client_id":"sandbox-client"}"#)
    #expect(answer.status == 400)
    #expect(answer["error"] == "invalid_request")
  }

  @Test func refreshKeepsTheSameRefreshTokenUntilItIsInvalidated() async throws {
    let signIn = OpenIDSignIn.muhajir(harness)
    let refreshToken = try #require(try await signIn.tokens()["refresh_token"])
    let first = await signIn.refresh(refreshToken)
    #expect(first.status == 200)
    #expect(first.json?["refresh_token"] == nil)
    #expect(await signIn.refresh(refreshToken).status == 200)
    #expect(await harness.server.invalidateRefreshTokens(of: .muhajir) == 1)
    let refused = await signIn.refresh(refreshToken)
    #expect(refused.status == 400)
    #expect(refused["error"] == "invalid_grant")
  }

  @Test func meAnswers401ForAnUnusableTokenAnd403WithoutOpenid() async throws {
    let unusable = await harness.get(Paths.me, headers: ["Authorization: Bearer nope"])
    #expect(unusable.status == 401)
    #expect(unusable.header("WWW-Authenticate")?.contains("invalid_token") == true)

    var signIn = OpenIDSignIn.muhajir(harness)
    signIn.scope = "profile email"
    let withoutOpenid = try #require(try await signIn.tokens()["access_token"])
    let forbidden = await harness.get(Paths.me, headers: ["Authorization: Bearer \(withoutOpenid)"])
    #expect(forbidden.status == 403)
    #expect(forbidden["error"] == "insufficient_scope")
    #expect(forbidden["scope"] == "openid")

    let full = try #require(
      try await OpenIDSignIn.muhajir(harness).tokens(user: "gul")["access_token"])
    let me = await harness.get(Paths.me, headers: ["Authorization: Bearer \(full)"])
    #expect(me.status == 200)
    #expect(me["sub"] == "gul")
    #expect(me["email"] == "gul@example.com")
  }

  @Test func aDenialRedirectsWithAccessDeniedAndTheState() async throws {
    let signIn = OpenIDSignIn.muhajir(harness)
    let callback = try await signIn.authorize(action: .deny)
    #expect(callback["error"] == "access_denied")
    #expect(callback["code"] == nil)
    #expect(callback["iss"] == nil)
  }
}
