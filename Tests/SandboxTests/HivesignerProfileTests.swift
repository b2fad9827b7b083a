import AuthCore
import Foundation
import Sandbox
import TestSupport
import Testing

/// Hivesigner's quirks (PROVIDERS.md "Hivesigner").
@Suite(.sandboxHarness) struct HivesignerProfileTests {
  /// The harness the suite's trait started for this test.
  var harness: SandboxHarness { .current }

  typealias Paths = SandboxPaths.Hivesigner
  /// This test's own `state`: a callback of another test's late browser carries another.
  let state = "h-" + UUID().uuidString

  func authorizeURL(
    _ harness: SandboxHarness, challenge: String?, method: String? = "S256",
    scope: String = "posting"
  ) -> String {
    var query: [(String, String)] = [
      ("client_id", "sandbox-client"), ("redirect_uri", harness.callback.redirectURI),
      ("response_type", "code"), ("scope", scope), ("state", state),
    ]
    if let challenge { query.append(("code_challenge", challenge)) }
    if let method { query.append(("code_challenge_method", method)) }
    return harness.url(Paths.authorize, query)
  }

  func approvedCallback(
    _ harness: SandboxHarness, challenge: String?, method: String? = "S256", user: String = "alice"
  ) async throws -> [String: String] {
    let outcome = await harness.browse(
      authorizeURL(harness, challenge: challenge, method: method), user: user)
    #expect(outcome.succeeded, "\(outcome.failure ?? "")")
    return try #require(await harness.callback.received(state: state).last)
  }

  func exchange(_ harness: SandboxHarness, code: String, verifier: String?) async
    -> RawHTTPResponse
  {
    let verifierMember = verifier.map { #","code_verifier":"\#($0)""# } ?? ""
    return await harness.postJSON(Paths.token, #"{"code":"\#(code)"\#(verifierMember)}"#)
  }

  @Test func callbackCarriesUsernameAndTheExchangeAnswersItWithoutARefreshToken() async throws {
    let pkce = PKCEPair.generate()
    let callback = try await approvedCallback(harness, challenge: pkce.challenge, user: "erin")
    #expect(callback["username"] == "erin")
    #expect(callback["state"] == state)
    let code = try #require(callback["code"])
    let token = await exchange(harness, code: code, verifier: pkce.verifier)
    #expect(token.status == 200)
    #expect(token["username"] == "erin")
    #expect(token.integer("expires_in") == 604_800)
    #expect(token.json?["refresh_token"] == nil)
    let accessToken = try #require(token["access_token"])
    let me = await harness.get(Paths.me, headers: ["Authorization: \(accessToken)"])
    #expect(me.status == 200)
    #expect(me["user"] == "erin")
  }

  @Test func wrongVerifierDoesNotConsumeHivesignerCode() async throws {
    let pkce = PKCEPair.generate()
    let code = try #require(try await approvedCallback(harness, challenge: pkce.challenge)["code"])
    let wrong = await exchange(harness, code: code, verifier: PKCEPair.generate().verifier)
    #expect(wrong.status == 401)
    #expect(wrong["error"] == "invalid_grant")
    let missing = await exchange(harness, code: code, verifier: nil)
    #expect(missing.status == 401)
    let right = await exchange(harness, code: code, verifier: pkce.verifier)
    #expect(right.status == 200)
    let again = await exchange(harness, code: code, verifier: pkce.verifier)
    #expect(again.status == 401)
    #expect(again["error_description"] == "The code was already used")
    let stats = await harness.server.stats()
    #expect(stats[.exchanges, .hivesigner] == 1)
    #expect(stats[.failedExchanges, .hivesigner] == 3)
  }

  @Test func codeOlderThanFifteenMinutesIsRefusedButFourteenIsFine() async throws {
    let first = PKCEPair.generate()
    let oldCode = try #require(
      try await approvedCallback(harness, challenge: first.challenge)["code"])
    let second = PKCEPair.generate()
    let lateCode = try #require(
      try await approvedCallback(harness, challenge: second.challenge)["code"])
    await harness.server.setClockOffset(seconds: 14 * 60)
    #expect(await exchange(harness, code: lateCode, verifier: second.verifier).status == 200)
    await harness.server.setClockOffset(seconds: 15 * 60 + 2)
    let old = await exchange(harness, code: oldCode, verifier: first.verifier)
    #expect(old.status == 401)
    #expect(old["error_description"] == "The code has expired")
  }

  @Test func codeDatedMoreThanFiveMinutesAheadIsRefused() async throws {
    // Signed while the sandbox's clock ran ahead: to the exchange the code is from the future.
    // Ten minutes ahead, so a slow test machine cannot bring it back under five.
    await harness.server.setClockOffset(seconds: 600)
    let pkce = PKCEPair.generate()
    let code = try #require(try await approvedCallback(harness, challenge: pkce.challenge)["code"])
    await harness.server.setClockOffset(seconds: 0)
    let answer = await exchange(harness, code: code, verifier: pkce.verifier)
    #expect(answer.status == 401)
    #expect(answer["error_description"] == "The code is dated in the future")
  }

  @Test func plainOrMissingMethodLeavesTheChallengeIgnoredSoTheCodeNeedsASecret() async throws {
    let pkce = PKCEPair.generate()
    for method in ["plain", nil] {
      let code = try #require(
        try await approvedCallback(harness, challenge: pkce.verifier, method: method)["code"])
      let answer = await exchange(harness, code: code, verifier: pkce.verifier)
      #expect(answer.status == 401)
      #expect(answer["error"] == "invalid_grant")
      #expect(answer["error_description"]?.contains("client secret") == true)
    }
  }

  @Test func anySentClientSecretIsRefusedEvenNull() async throws {
    let pkce = PKCEPair.generate()
    let code = try #require(try await approvedCallback(harness, challenge: pkce.challenge)["code"])
    let answer = await harness.postJSON(
      Paths.token, #"{"code":"\#(code)","code_verifier":"\#(pkce.verifier)","client_secret":null}"#)
    #expect(answer.status == 401)
    #expect(answer["error"] == "invalid_grant")
    // The refusal did not use the code up.
    #expect(await exchange(harness, code: code, verifier: pkce.verifier).status == 200)
  }

  @Test func aCodeUsedAsATokenAtApiMeIsRefused() async throws {
    let pkce = PKCEPair.generate()
    let code = try #require(try await approvedCallback(harness, challenge: pkce.challenge)["code"])
    let me = await harness.get(Paths.me, headers: ["Authorization: \(code)"])
    #expect(me.status == 401)
    #expect(me["error"] == "invalid_grant")
  }

  @Test func theExchangeTakesJSONOnly() async throws {
    let pkce = PKCEPair.generate()
    let code = try #require(try await approvedCallback(harness, challenge: pkce.challenge)["code"])
    let form = await harness.postForm(
      Paths.token, [("code", code), ("code_verifier", pkce.verifier)])
    #expect(form.status == 401)
    #expect(form["error"] == "invalid_grant")
  }

  @Test func aDenialComesBackAsAccessDenied() async throws {
    let outcome = await harness.browse(
      authorizeURL(harness, challenge: PKCEPair.generate().challenge), action: .deny)
    #expect(outcome.succeeded)
    let callback = try #require(await harness.callback.received(state: state).last)
    #expect(callback["error"] == "access_denied")
    #expect(callback["code"] == nil)
  }

  @Test func localhostRedirectIsRefusedOnThePage() async throws {
    let url = harness.url(
      Paths.authorize,
      [
        ("client_id", "sandbox-client"), ("redirect_uri", "http://localhost:9/callback"),
        ("response_type", "code"),
      ])
    let outcome = await harness.browse(url)
    #expect(outcome.finalStatus == 400)
    #expect(outcome.finalBody.contains("not localhost"))
  }
}
