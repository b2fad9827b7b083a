import AuthCore
import Foundation
import Sandbox
import TestSupport
import Testing

/// Simkl's quirks (PROVIDERS.md "Simkl"), over real HTTP, the consent and PIN pages played by
/// the scripted browser.
@Suite(.sandboxHarnessWithSimklRedirect) struct SimklProfileTests {
  /// The harness the suite's trait started for this test.
  var harness: SandboxHarness { .current }

  typealias Paths = SandboxPaths.Simkl
  /// This test's own `state`: a callback of another test's late browser carries another.
  let state = "s-" + UUID().uuidString
  static let perRequest = [
    ("client_id", "sandbox-client"), ("app-name", "authtui-tests"), ("app-version", "1.0"),
  ]
  static let agent = ["User-Agent: authtui-tests/1.0"]

  func authorizeURL(_ harness: SandboxHarness, pkce: PKCEPair, method: String = "S256") -> String {
    harness.url(
      Paths.authorize,
      [
        ("response_type", "code"), ("client_id", "sandbox-client"),
        ("redirect_uri", harness.callback.redirectURI), ("code_challenge", pkce.challenge),
        ("code_challenge_method", method), ("state", state), ("app-name", "authtui-tests"),
        ("app-version", "1.0"),
      ])
  }

  /// Consent approved in the browser; returns the code from the callback.
  func approvedCode(_ harness: SandboxHarness, pkce: PKCEPair, user: String = "alice") async throws
    -> String
  {
    let outcome = await harness.browse(authorizeURL(harness, pkce: pkce), user: user)
    #expect(outcome.succeeded, "\(outcome.failure ?? "")")
    let callback = try #require(await harness.callback.received(state: state).last)
    return try #require(callback["code"])
  }

  func exchangeJSON(
    _ harness: SandboxHarness, code: String, verifier: String, redirectURI: String
  ) async -> RawHTTPResponse {
    let body = """
      {"code":"\(code)","client_id":"sandbox-client","code_verifier":"\(verifier)",\
      "redirect_uri":"\(redirectURI)","grant_type":"authorization_code"}
      """
    return await harness.postJSON(
      SandboxHarness.target(Paths.token, Self.perRequest), body, headers: Self.agent)
  }

  @Test func approvedConsentGivesAFiveYearTokenWithoutRefreshAndTheUserName() async throws {
    let pkce = PKCEPair.generate()
    let code = try await approvedCode(harness, pkce: pkce, user: "carol")
    let token = await exchangeJSON(
      harness, code: code, verifier: pkce.verifier, redirectURI: harness.callback.redirectURI)
    #expect(token.status == 200)
    #expect(token["token_type"] == "bearer")
    #expect(token["scope"] == "public")
    #expect(token.integer("expires_in") == 157_680_000)
    #expect(token.json?["refresh_token"] == nil)
    let accessToken = try #require(token["access_token"])
    let settings = await harness.get(
      SandboxHarness.target(Paths.userSettings, Self.perRequest),
      headers: Self.agent + ["Authorization: Bearer \(accessToken)"])
    #expect(settings.status == 200)
    #expect((settings.json?["user"] as? [String: Any])?["name"] as? String == "carol")
    #expect(await harness.server.stats()[.exchanges, .simkl] == 1)
  }

  @Test func acceptsAFormEncodedTokenRequestToo() async throws {
    let pkce = PKCEPair.generate()
    let code = try await approvedCode(harness, pkce: pkce)
    let token = await harness.postForm(
      SandboxHarness.target(Paths.token, Self.perRequest),
      [
        ("code", code), ("client_id", "sandbox-client"), ("code_verifier", pkce.verifier),
        ("redirect_uri", harness.callback.redirectURI), ("grant_type", "authorization_code"),
      ], headers: Self.agent)
    #expect(token.status == 200)
    #expect(token["access_token"] != nil)
  }

  @Test func denialSendsTheBrowserToSimklHomeAndNothingToTheApp() async throws {
    let outcome = await harness.browse(
      authorizeURL(harness, pkce: PKCEPair.generate()), action: .deny)
    #expect(outcome.succeeded)
    #expect(outcome.decision == .deny)
    #expect(outcome.steps.last == "GET /simkl-web/ 200")
    #expect(await harness.callback.received(state: state).isEmpty)
    #expect(await harness.server.stats()[.denials, .simkl] == 1)
  }

  @Test func wrongVerifierGivesSecretErrorAndConsumesTheSimklCode() async throws {
    let pkce = PKCEPair.generate()
    let code = try await approvedCode(harness, pkce: pkce)
    let wrong = await exchangeJSON(
      harness, code: code, verifier: PKCEPair.generate().verifier,
      redirectURI: harness.callback.redirectURI)
    #expect(wrong.status == 401)
    #expect(
      wrong.body == #"{"error":"secret_error","code":401,"message":"PKCE verification failed"}"#)
    let right = await exchangeJSON(
      harness, code: code, verifier: pkce.verifier, redirectURI: harness.callback.redirectURI)
    #expect(right.status == 400)
    #expect(right["error"] == "invalid_grant")
  }

  @Test func malformedVerifierGetsTheSameSecretErrorAsAWrongOne() async throws {
    let pkce = PKCEPair.generate()
    let code = try await approvedCode(harness, pkce: pkce)
    // The right verifier with one character outside the unreserved set.
    let malformed = String(pkce.verifier.dropLast()) + "+"
    let answer = await exchangeJSON(
      harness, code: code, verifier: malformed, redirectURI: harness.callback.redirectURI)
    #expect(answer.status == 401)
    #expect(answer["error"] == "secret_error")
    #expect(answer["message"] == "PKCE verification failed")
  }

  @Test func codeChallengeMethodIsCaseSensitiveAtAuthorize() async throws {
    let lower = await harness.get(
      String(
        authorizeURL(harness, pkce: PKCEPair.generate(), method: "s256").dropFirst(
          harness.server.baseURL.count)))
    #expect(lower.status == 400)
    #expect(lower["error"] == "invalid_request")
    #expect(
      lower["error_description"] == "code_challenge_method must be S256 or plain (RFC 7636 §4.3)")
    let plain = await harness.browse(
      authorizeURL(harness, pkce: PKCEPair.generate(), method: "plain"))
    #expect(plain.succeeded)
  }

  @Test func plainChallengeIsCheckedAgainstTheVerifierItself() async throws {
    let verifier = PKCEPair.generate().verifier
    let url = harness.url(
      Paths.authorize,
      [
        ("response_type", "code"), ("client_id", "sandbox-client"),
        ("redirect_uri", harness.callback.redirectURI), ("code_challenge", verifier),
        ("code_challenge_method", "plain"), ("state", state),
      ])
    #expect(await harness.browse(url).succeeded)
    let code = try #require(await harness.callback.received(state: state).last?["code"])
    let token = await exchangeJSON(
      harness, code: code, verifier: verifier, redirectURI: harness.callback.redirectURI)
    #expect(token.status == 200)
  }

  @Test func redirectURIMustMatchTheRegistrationByteForByte() async throws {
    let registered = harness.callback.redirectURI
    for other in [
      registered.replacingOccurrences(of: "127.0.0.1", with: "localhost"), registered + "/",
      "http://127.0.0.1:1/callback",
    ] {
      let answer = await harness.get(
        SandboxHarness.target(
          Paths.authorize,
          [
            ("response_type", "code"), ("client_id", "sandbox-client"), ("redirect_uri", other),
            ("code_challenge", PKCEPair.generate().challenge), ("code_challenge_method", "S256"),
            ("state", state),
          ]))
      #expect(answer.status == 302)
      #expect(answer.header("Location")?.hasPrefix(Paths.home) == true)
    }
    #expect(await harness.callback.received(state: state).isEmpty)
  }

  @Test func theAuthorizeURLOnTheAPIHostIsNotFound() async throws {
    let answer = await harness.get(
      SandboxHarness.target("/simkl-api/oauth/authorize", Self.perRequest), headers: Self.agent)
    #expect(answer.status == 404)
  }

  @Test func apiRequestsNeedAppNameAppVersionAndAKnownClient() async throws {
    let missing = await harness.get(
      SandboxHarness.target(Paths.pin, [("client_id", "sandbox-client")]), headers: Self.agent)
    #expect(missing.status == 400)
    #expect(missing["message"]?.contains("`app-name`, `app-version`") == true)
    let noAgent = await harness.get(SandboxHarness.target(Paths.pin, Self.perRequest))
    #expect(noAgent.status == 400)
    #expect(noAgent["message"]?.contains("User-Agent") == true)
    let unknown = await harness.get(
      SandboxHarness.target(
        Paths.pin, [("client_id", "nobody"), ("app-name", "x"), ("app-version", "1")]),
      headers: Self.agent)
    #expect(unknown.status == 401)
    #expect(unknown["error"] == "client_id_failed")
  }

  @Test func aCodeOlderThanItsLifetimeIsRefused() async throws {
    let pkce = PKCEPair.generate()
    let code = try await approvedCode(harness, pkce: pkce)
    await harness.server.setClockOffset(seconds: 601)
    let answer = await exchangeJSON(
      harness, code: code, verifier: pkce.verifier, redirectURI: harness.callback.redirectURI)
    #expect(answer.status == 400)
    #expect(answer["error"] == "invalid_grant")
  }

  @Test func aRevokedOrExpiredTokenGets401AtUserSettings() async throws {
    let answer = await harness.get(
      SandboxHarness.target(Paths.userSettings, Self.perRequest),
      headers: Self.agent + ["Authorization: Bearer 0123"])
    #expect(answer.status == 401)
    #expect(answer["error"] == "user_token_failed")
  }
}
