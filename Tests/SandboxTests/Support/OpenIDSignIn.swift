import AuthCore
import Foundation
import Sandbox
import TestSupport
import Testing

/// One authorization-code sign-in against the `oidc` or `muhajir` profile, as a client does it:
/// PKCE S256, state and nonce, the consent played in the browser, a form-encoded exchange.
struct OpenIDSignIn {
  let harness: SandboxHarness
  let authorizePath: String
  let tokenPath: String
  var clientID = "sandbox-client"
  var scope = "openid profile email offline_access"
  /// Parameters added to the authorization request (`prompt`).
  var extraQuery: [(String, String)] = []
  let pkce = PKCEPair.generate()
  let state = "st-" + UUID().uuidString
  let nonce = "n-" + UUID().uuidString

  static func oidc(_ harness: SandboxHarness) -> OpenIDSignIn {
    OpenIDSignIn(
      harness: harness, authorizePath: SandboxPaths.OIDC.authorize,
      tokenPath: SandboxPaths.OIDC.token)
  }

  static func muhajir(_ harness: SandboxHarness) -> OpenIDSignIn {
    OpenIDSignIn(
      harness: harness, authorizePath: SandboxPaths.Muhajir.authorize,
      tokenPath: SandboxPaths.Muhajir.token)
  }

  static func dynamic(_ harness: SandboxHarness, clientID: String) -> OpenIDSignIn {
    var signIn = OpenIDSignIn(
      harness: harness, authorizePath: SandboxPaths.Dynamic.authorize,
      tokenPath: SandboxPaths.Dynamic.token)
    signIn.clientID = clientID
    return signIn
  }

  static func microsoft(_ harness: SandboxHarness, tenant: String = "common") -> OpenIDSignIn {
    OpenIDSignIn(
      harness: harness, authorizePath: SandboxPaths.Microsoft.authorize(tenant),
      tokenPath: SandboxPaths.Microsoft.token(tenant))
  }

  var authorizationQuery: [(String, String)] {
    [
      ("client_id", clientID), ("redirect_uri", harness.callback.redirectURI),
      ("response_type", "code"), ("scope", scope), ("state", state), ("nonce", nonce),
      ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
    ] + extraQuery
  }

  var authorizationURL: String { harness.url(authorizePath, authorizationQuery) }

  /// Plays the consent; returns the callback's parameters.
  func authorize(user: String = "alice", action: ScriptedBrowser.Action = .approve) async throws
    -> [String: String]
  {
    let outcome = await harness.browse(authorizationURL, action: action, user: user)
    #expect(outcome.succeeded, "\(outcome.failure ?? "")")
    let callbacks = await harness.callback.received()
    return try #require(
      callbacks.last { $0["state"] == state },
      "no callback with this sign-in's state among \(callbacks)")
  }

  func exchange(code: String, verifier: String? = nil) async -> RawHTTPResponse {
    await harness.postForm(
      tokenPath,
      [
        ("grant_type", "authorization_code"), ("code", code),
        ("redirect_uri", harness.callback.redirectURI), ("client_id", clientID),
        ("code_verifier", verifier ?? pkce.verifier),
      ])
  }

  /// Consent approved and the code exchanged.
  func tokens(user: String = "alice") async throws -> RawHTTPResponse {
    let code = try #require(try await authorize(user: user)["code"])
    let answer = await exchange(code: code)
    #expect(answer.status == 200, "\(answer.body)")
    return answer
  }

  func refresh(_ refreshToken: String) async -> RawHTTPResponse {
    await harness.postForm(
      tokenPath,
      [
        ("grant_type", "refresh_token"), ("refresh_token", refreshToken),
        ("client_id", clientID),
      ])
  }
}
