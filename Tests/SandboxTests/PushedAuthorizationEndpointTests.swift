import AuthCore
import Foundation
import Sandbox
import TestSupport
import Testing

/// The `oidc` profile's PAR endpoint (RFC 9126) over HTTP, as a client and a browser use it:
/// published only when turned on, a reference that works once, before it expires and for its
/// own client, refusals as JSON, and the authorization endpoint holding a client to pushing.
@Suite(.sandboxHarness) struct PushedAuthorizationEndpointTests {
  var harness: SandboxHarness { .current }

  typealias Paths = SandboxPaths.OIDC

  func turnOn(_ par: String, lifetime: Int = 60) async {
    let answer = await harness.postJSON(
      SandboxPaths.Hooks.settings,
      #"{"profile":"oidc","par":"\#(par)","par_lifetime":\#(lifetime)}"#)
    #expect(answer.status == 200, "\(answer.body)")
  }

  /// Pushes `signIn`'s request (its query as a form); returns the answer.
  func push(_ signIn: OpenIDSignIn, extra: [(String, String)] = []) async -> RawHTTPResponse {
    await harness.postForm(Paths.pushedAuthorization, signIn.authorizationQuery + extra)
  }

  func reference(_ answer: RawHTTPResponse) throws -> String {
    try #require(answer.json?["request_uri"] as? String, "\(answer.body)")
  }

  /// The browser at the authorization endpoint with `client_id` and `request_uri`.
  func browse(
    _ requestURI: String, clientID: String = "sandbox-client", extra: [(String, String)] = []
  )
    async -> ScriptedBrowser.Outcome
  {
    await harness.browse(
      harness.url(
        Paths.authorize, [("client_id", clientID), ("request_uri", requestURI)] + extra))
  }

  @Test func publishesTheEndpointOnlyWhenTurnedOn() async throws {
    let off = try #require(await harness.get(Paths.discovery).json)
    #expect(off["pushed_authorization_request_endpoint"] == nil)
    #expect(off["require_pushed_authorization_requests"] == nil)
    #expect(await harness.postForm(Paths.pushedAuthorization, []).status == 404)
    await turnOn("offered")
    let offered = try #require(await harness.get(Paths.discovery).json)
    #expect(
      offered["pushed_authorization_request_endpoint"] as? String
        == harness.url(Paths.pushedAuthorization))
    #expect(offered["require_pushed_authorization_requests"] == nil)
    await turnOn("required")
    let required = try #require(await harness.get(Paths.authorizationServerMetadata).json)
    #expect(required["require_pushed_authorization_requests"] as? Bool == true)
  }

  @Test func aPushedRequestSignsInOnceThroughItsReference() async throws {
    await turnOn("offered")
    let signIn = OpenIDSignIn.oidc(harness)
    let pushed = await push(signIn)
    #expect(pushed.status == 201)
    #expect(pushed.json?["expires_in"] as? Int == 60)
    #expect(pushed.header("Cache-Control") == "no-store")
    let uri = try reference(pushed)
    #expect(uri.hasPrefix("urn:ietf:params:oauth:request_uri:"))

    let outcome = await browse(uri, extra: [("response_type", "code"), ("scope", signIn.scope)])
    #expect(outcome.succeeded, "\(outcome)")
    let callback = try #require(await harness.callback.received(state: signIn.state).first)
    let code = try #require(callback["code"])
    #expect(await signIn.exchange(code: code).status == 200)

    let again = await browse(uri)
    #expect(again.finalStatus == 400)
    #expect(again.finalBody.contains("unknown, already used or expired"))
    let stats = await harness.server.stats()
    #expect(stats[.pushedRequests] == 1)
    #expect(stats[.exchanges] == 1)
  }

  @Test func aReferenceExpires() async throws {
    await turnOn("offered", lifetime: 30)
    let uri = try reference(await push(OpenIDSignIn.oidc(harness)))
    await harness.server.setClockOffset(seconds: 31)
    let outcome = await browse(uri)
    #expect(outcome.finalStatus == 400)
    #expect(outcome.finalBody.contains("unknown, already used or expired"))
  }

  @Test func aReferenceWorksOnlyForTheClientThatPushedIt() async throws {
    await turnOn("offered")
    let uri = try reference(await push(OpenIDSignIn.oidc(harness)))
    let other = await browse(uri, clientID: OIDCClients.es256ClientID)
    #expect(other.finalStatus == 400)
    #expect(other.finalBody.contains("pushed by another client"))
    #expect(await browse(uri).succeeded)
  }

  @Test func refusesSecretsBesideAReferenceAndParametersThatDiffer() async throws {
    await turnOn("offered")
    let signIn = OpenIDSignIn.oidc(harness)
    let uri = try reference(await push(signIn))
    let leaked = await browse(uri, extra: [("state", signIn.state)])
    #expect(leaked.finalStatus == 400)
    #expect(leaked.finalBody.contains("state belongs in the pushed request only"))
    let differing = await browse(try reference(await push(signIn)), extra: [("scope", "openid")])
    #expect(differing.finalStatus == 400)
    #expect(differing.finalBody.contains("scope differs from the pushed request"))
  }

  @Test func refusesABadPushWithAJSONError() async throws {
    await turnOn("offered")
    var unknownScope = OpenIDSignIn.oidc(harness)
    unknownScope.scope = "openid photos"
    let refused = await push(unknownScope)
    #expect(refused.status == 400)
    #expect(refused.json?["error"] as? String == "invalid_scope")
    let withReference = await push(OpenIDSignIn.oidc(harness), extra: [("request_uri", "urn:x")])
    #expect(withReference.json?["error"] as? String == "invalid_request")
    var stranger = OpenIDSignIn.oidc(harness)
    stranger.clientID = "nobody"
    let unknownClient = await push(stranger)
    #expect(unknownClient.status == 401)
    #expect(unknownClient.json?["error"] as? String == "invalid_client")
    #expect(await harness.server.stats()[.refusedPushedRequests] == 3)
  }

  @Test func aServerTakingOnlyPushedRequestsRefusesOthers() async throws {
    await turnOn("required")
    let signIn = OpenIDSignIn.oidc(harness)
    let outcome = await harness.browse(signIn.authorizationURL)
    #expect(outcome.succeeded)
    let callback = try #require(await harness.callback.received(state: signIn.state).first)
    #expect(callback["error"] == "invalid_request")
    #expect(callback["error_description"]?.contains("only pushed authorization requests") == true)
    #expect(callback["code"] == nil)
  }

  @Test func itsSettingsBelongToTheOpenIDProfilesAndTakeKnownValues() async throws {
    let github = await harness.postJSON(
      SandboxPaths.Hooks.settings, #"{"profile":"github","par":"offered"}"#)
    #expect(github.status == 400)
    #expect(
      github.json?["error"] as? String == "par is a setting of the oidc and dynamic profiles.")
    let wrong = await harness.postJSON(
      SandboxPaths.Hooks.settings, #"{"profile":"oidc","dpop":"sometimes"}"#)
    #expect(wrong.json?["error"] as? String == #"dpop takes "off", "offered", "required"."#)
    let dynamic = await harness.postJSON(
      SandboxPaths.Hooks.settings,
      #"{"profile":"dynamic","par":"required","dpop":"offered","dpop_nonce":true}"#)
    #expect(dynamic.json?["par"] as? String == "required")
    #expect(dynamic.json?["dpop_nonce"] as? Bool == true)
  }
}
