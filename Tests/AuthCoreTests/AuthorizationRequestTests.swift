import Crypto
import Foundation
import Loopback
import Testing

@testable import AuthCore

@Suite struct AuthorizationRequestTests {
  let redirectURI = "http://127.0.0.1:8765/callback"

  func request(_ configuration: ProviderConfiguration) throws -> AuthorizationRequest {
    try AuthorizationRequest(
      configuration: configuration, redirectURI: redirectURI, random: SystemRandomSource())
  }

  @Test func carriesThePKCEChallengeStateAndEverySimklParameterOnce() throws {
    let request = try request(TestProviders.simkl)
    let query = try #require(request.url.query(percentEncoded: true))
    let pairs = FormEncoding.decode(query)
    #expect(
      pairs.map(\.name) == [
        "response_type", "client_id", "redirect_uri", "state", "code_challenge",
        "code_challenge_method", "app-name", "app-version",
      ])
    let values = Dictionary(uniqueKeysWithValues: pairs.map { ($0.name, $0.value) })
    #expect(values["client_id"] == "simkl-client")
    #expect(values["redirect_uri"] == redirectURI)
    #expect(values["code_challenge"] == request.codeChallenge)
    #expect(values["code_challenge_method"] == "S256")
    #expect(values["app-version"] == "0.1.0")
    #expect(request.url.absoluteString.hasPrefix("https://provider.test/web/oauth/authorize?"))
    #expect(request.nonce == nil)
  }

  @Test func escapesScopesAndPlusSignsInsteadOfLeavingThemToURLComponents() throws {
    var configuration = TestProviders.oidc
    configuration.extraAuthorizeParameters = ["prompt": "a+b c"]
    let url = try request(configuration).url.absoluteString
    #expect(url.contains("scope=openid%20profile%20offline_access"))
    #expect(url.contains("prompt=a%2Bb%20c"))
    #expect(url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback"))
  }

  @Test func sendsANonceOnlyWhenOpenIDIsAskedFor() throws {
    let oidc = try request(TestProviders.oidc)
    let nonce = try #require(oidc.nonce)
    #expect(oidc.parameters.contains { $0.name == "nonce" && $0.value == nonce })
    #expect(try request(TestProviders.hivesigner).parameters.allSatisfy { $0.name != "nonce" })
  }

  @Test func makesFreshSecretsForEveryAttempt() throws {
    let first = try request(TestProviders.oidc)
    let second = try request(TestProviders.oidc)
    #expect(first.state != second.state)
    #expect(first.nonce != second.nonce)
    #expect(first.pkce.verifier != second.pkce.verifier)
    #expect(first.state.count == 43)
  }

  @Test func neverShowsTheVerifierOrStateInItsDescription() throws {
    let request = try request(TestProviders.oidc)
    #expect(!request.description.contains(request.pkce.verifier))
    #expect(!request.description.contains(request.state))
  }

  @Test func refusesAPlainHTTPEndpointOffLoopback() {
    var configuration = TestProviders.oidc
    configuration.authorizationEndpoint = URL(string: "http://id.example.com/authorize")
    #expect(throws: AuthError.insecureEndpoint("authorization_endpoint", provider: "Work SSO")) {
      try request(configuration)
    }
    configuration.authorizationEndpoint = URL(string: "http://127.0.0.1:9000/authorize")
    #expect(throws: Never.self) { try request(configuration) }
  }

  /// Plain http is for this machine: 127.0.0.1, ::1 and `localhost` (any case), which
  /// libcurl resolves to loopback itself; not a name under it, nor one with the root's dot.
  @Test(arguments: [
    ("http://127.0.0.1:8080/x", true), ("http://[::1]:8080/x", true),
    ("http://localhost:8080/realms/dev", true), ("http://LocalHost/x", true),
    ("https://id.example.com", true), ("http://id.example.com", false),
    ("http://app.localhost:8080", false), ("http://localhost.:8080", false),
    ("http://127.0.0.2", false), ("ftp://localhost", false),
  ])
  func allowsPlainHTTPOnlyOnLoopbackHosts(address: String, allowed: Bool) throws {
    let url = try #require(URL(string: address))
    #expect(ProviderConfiguration.isAllowedEndpoint(url) == allowed)
  }

  // MARK: Validating the redirect

  func response(_ request: AuthorizationRequest, _ query: String) -> AuthorizationResponse {
    AuthorizationResponse(
      parameters: FormEncoding.decode(query.replacingOccurrences(of: "STATE", with: request.state)))
  }

  @Test func acceptsTheCodeWithTheRightStateAndIssuer() throws {
    let request = try request(TestProviders.oidc)
    let grant = try request.validate(
      response(request, "code=abc&state=STATE&iss=https%3A%2F%2Fprovider.test"))
    #expect(grant.code == "abc")
    #expect(grant.codeVerifier == request.pkce.verifier)
    #expect(grant.redirectURI == redirectURI)
  }

  @Test func discardsACodeWithAnotherStateEvenWhenItCarriesAnError() throws {
    let request = try request(TestProviders.oidc)
    #expect(throws: AuthError.stateMismatch) {
      _ = try request.validate(response(request, "code=abc&state=forged"))
    }
    #expect(throws: AuthError.stateMismatch) {
      _ = try request.validate(response(request, "error=access_denied"))
    }
  }

  @Test func refusesAnotherIssuerBeforeLookingAtTheCode() throws {
    let request = try request(TestProviders.oidc)
    #expect(
      throws: AuthError.issuerMismatch(
        expected: "https://provider.test", received: "https://evil.test")
    ) {
      _ = try request.validate(response(request, "code=abc&state=STATE&iss=https://evil.test"))
    }
  }

  @Test func acceptsAMissingIssUnlessTheProviderPromisedIt() throws {
    var configuration = TestProviders.oidc
    let lenient = try request(configuration)
    #expect(try lenient.validate(response(lenient, "code=abc&state=STATE")).code == "abc")
    configuration.requiresIssuerInAuthorizationResponse = true
    let strict = try request(configuration)
    #expect(throws: AuthError.issuerMismatch(expected: "https://provider.test", received: nil)) {
      _ = try strict.validate(response(strict, "code=abc&state=STATE"))
    }
  }

  @Test func anErrorWithoutThePromisedIssEndsAsTheProviderSaysWithANote() throws {
    var configuration = TestProviders.oidc
    configuration.requiresIssuerInAuthorizationResponse = true
    let request = try request(configuration)
    let denied = #expect(throws: AuthError.self) {
      _ = try request.validate(
        response(request, "error=access_denied&error_description=No+thanks&state=STATE"))
    }
    #expect(denied == .accessDenied(description: "No thanks", issuerMissing: true))
    #expect(denied?.exitCode == 6)
    #expect(
      denied?.message
        == "The sign-in was declined at the provider (No thanks); start a new sign-in and "
        + "approve access to try again. (The provider's answer lacked the `iss` it promises "
        + "(RFC 9207); no code was used.)")
    #expect(
      throws: AuthError.authorizationFailed(OAuthError(code: .invalidScope), issuerMissing: true)
    ) {
      _ = try request.validate(response(request, "error=invalid_scope&state=STATE"))
    }
    // A code never goes without the promised iss, error or not.
    #expect(throws: AuthError.accessDenied(description: nil, issuerMissing: true)) {
      _ = try request.validate(response(request, "code=abc&error=access_denied&state=STATE"))
    }
    #expect(throws: AuthError.issuerMismatch(expected: "https://provider.test", received: nil)) {
      _ = try request.validate(response(request, "code=abc&state=STATE"))
    }
    // A wrong iss is still refused before the error is looked at.
    #expect(
      throws: AuthError.issuerMismatch(
        expected: "https://provider.test", received: "https://evil.test")
    ) {
      _ = try request.validate(
        response(request, "error=access_denied&state=STATE&iss=https://evil.test"))
    }
  }

  @Test func asksForConsentWhenAnOpenIDProviderIsAskedForOfflineAccess() throws {
    // OIDC Core §11: TestProviders.oidc asks for openid and offline_access.
    let prompted = try request(TestProviders.oidc).parameters.filter { $0.name == "prompt" }
    #expect(prompted.map(\.value) == ["consent"])
    // The provider file's own prompt wins, once.
    var chooser = TestProviders.oidc
    chooser.extraAuthorizeParameters = ["prompt": "select_account"]
    #expect(
      try request(chooser).parameters.filter { $0.name == "prompt" }.map(\.value) == [
        "select_account"
      ])
    var everywhere = TestProviders.oidc
    everywhere.extraRequestParameters = ["prompt": "login"]
    #expect(
      try request(everywhere).parameters.filter { $0.name == "prompt" }.map(\.value) == ["login"])
    // Without offline_access, or without openid (plain OAuth), nothing is added.
    var online = TestProviders.oidc
    online.scopes = ["openid", "profile"]
    #expect(try request(online).parameters.allSatisfy { $0.name != "prompt" })
    var oauth = TestProviders.oidc
    oauth.scopes = ["offline_access"]
    #expect(try request(oauth).parameters.allSatisfy { $0.name != "prompt" })
  }

  @Test func reportsADenialWithTheProvidersDescription() throws {
    let request = try request(TestProviders.oidc)
    #expect(throws: AuthError.accessDenied(description: "The user said no")) {
      _ = try request.validate(
        response(request, "error=access_denied&error_description=The+user+said+no&state=STATE"))
    }
    #expect(
      throws: AuthError.authorizationFailed(
        OAuthError(code: .invalidScope, errorDescription: "unknown scope: posting"))
    ) {
      _ = try request.validate(
        response(
          request, "error=invalid_scope&error_description=unknown%20scope%3A%20posting&state=STATE")
      )
    }
  }

  @Test func refusesARedirectWithNeitherCodeNorError() throws {
    let request = try request(TestProviders.oidc)
    #expect(throws: AuthError.malformedRedirect("it has neither a code nor an error")) {
      _ = try request.validate(response(request, "state=STATE"))
    }
  }

  @Test func readsAPastedRedirectOnlyWhenItStartsWithTheRedirectURI() throws {
    let pasted = try AuthorizationResponse(
      pastedURL: "  '\(redirectURI)?code=a%2Bb&state=s#frag'\n", redirectURI: redirectURI)
    #expect(pasted.code == "a+b")
    #expect(pasted.state == "s")
    #expect(throws: AuthError.malformedRedirect("it does not start with \(redirectURI)")) {
      _ = try AuthorizationResponse(
        pastedURL: "http://127.0.0.1:9999/callback?code=x&state=s", redirectURI: redirectURI)
    }
    #expect(throws: AuthError.malformedRedirect("it has no query with a code")) {
      _ = try AuthorizationResponse(pastedURL: "hello", redirectURI: redirectURI)
    }
  }
}
