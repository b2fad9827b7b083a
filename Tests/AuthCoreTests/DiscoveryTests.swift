import Foundation
import TestSupport
import Testing

@testable import AuthCore

/// OpenID Connect discovery (OIDC Discovery §4) through `OIDCProvider`.
@Suite struct DiscoveryTests {
  let transport = FakeTransport()
  let path = "/.well-known/openid-configuration"

  /// A configuration with an issuer only, as `"issuer"` alone in a provider file.
  var issuerOnly: ProviderConfiguration {
    ProviderConfiguration(
      id: "work", issuer: TestJWT.issuer, clientID: "abc123", scopes: ["openid"])
  }

  func configuration(
    _ base: ProviderConfiguration, document: String = TestJWT.discovery()
  ) async throws(AuthError) -> ProviderConfiguration {
    await transport.enqueue(path, FakeTransport.json(document))
    return try await TestJWT.provider(transport, configuration: base).configuration()
  }

  @Test func fillsEveryEndpointFromTheIssuerAlone() async throws {
    let configuration = try await configuration(issuerOnly)
    #expect(configuration.authorizationEndpoint == TestProviders.url("/authorize"))
    #expect(configuration.tokenEndpoint == TestProviders.url("/token"))
    #expect(configuration.deviceAuthorizationEndpoint == TestProviders.url("/device"))
    #expect(configuration.revocationEndpoint == TestProviders.url("/revoke"))
    #expect(configuration.userinfoEndpoint == TestProviders.url("/userinfo"))
    #expect(configuration.endSessionEndpoint == TestProviders.url("/logout"))
    #expect(configuration.jwksURI == TestProviders.url("/jwks"))
    #expect(configuration.requiresIssuerInAuthorizationResponse)
    let request = try #require(await transport.requests.first)
    #expect(request.url.absoluteString == "https://provider.test/.well-known/openid-configuration")
    #expect(request.method == .get)
  }

  @Test func keepsEveryEndpointTheConfigurationSetsItself() async throws {
    var base = issuerOnly
    base.tokenEndpoint = URL(string: "https://other.test/oauth/token")
    base.userinfoEndpoint = URL(string: "https://api.other.test/me")
    let configuration = try await configuration(base)
    #expect(configuration.tokenEndpoint == base.tokenEndpoint)
    #expect(configuration.userinfoEndpoint == base.userinfoEndpoint)
    #expect(configuration.authorizationEndpoint == TestProviders.url("/authorize"))
  }

  @Test func ignoresABadPublishedEndpointThatTheConfigurationOverrides() async throws {
    var base = issuerOnly
    base.revocationEndpoint = URL(string: "https://provider.test/oauth/revoke")
    let document = TestJWT.discovery(["revocation_endpoint": "http://provider.test/revoke"])
    let configuration = try await configuration(base, document: document)
    #expect(configuration.revocationEndpoint == base.revocationEndpoint)
  }

  @Test func refusesADocumentForAnotherIssuer() async throws {
    let document = TestJWT.discovery(["issuer": "https://provider.test/"])
    let error = await #expect(throws: AuthError.self) {
      try await configuration(issuerOnly, document: document)
    }
    #expect(
      error
        == .discoveryFailed(
          .issuerMismatch(expected: "https://provider.test", received: "https://provider.test/")))
    #expect(
      error?.message
        == "The provider's discovery document names the issuer https://provider.test/, not "
        + "https://provider.test; set `issuer` in the provider file to exactly the provider's "
        + "issuer (a trailing slash counts).")
    #expect(error?.exitCode == 7)
  }

  @Test func refusesAPlainHTTPEndpointOffLoopback() async throws {
    let document = TestJWT.discovery(["token_endpoint": "http://provider.test/token"])
    await #expect(throws: AuthError.discoveryFailed(.insecureEndpoint("token_endpoint"))) {
      try await configuration(issuerOnly, document: document)
    }
  }

  @Test func allowsPlainHTTPOnLoopbackForTheSandbox() async throws {
    let issuer = "http://127.0.0.1:8080/oidc"
    var base = issuerOnly
    base.issuer = issuer
    let document = TestJWT.discovery([
      "issuer": issuer, "token_endpoint": issuer + "/token", "jwks_uri": issuer + "/jwks",
    ])
    await transport.enqueue("/oidc" + path, FakeTransport.json(document))
    let configuration = try await TestJWT.provider(transport, configuration: base).configuration()
    #expect(configuration.tokenEndpoint?.absoluteString == issuer + "/token")
  }

  @Test func requiresAKeySetAddress() async throws {
    let document = TestJWT.discovery(["jwks_uri": NSNull()])
    await #expect(throws: AuthError.discoveryFailed(.missingMember("jwks_uri"))) {
      try await configuration(issuerOnly, document: document)
    }
  }

  @Test func refusesARequiredEndpointThatIsNotAURL() async throws {
    let document = TestJWT.discovery(["token_endpoint": 42])
    await #expect(throws: AuthError.discoveryFailed(.invalidEndpoint("token_endpoint"))) {
      try await configuration(issuerOnly, document: document)
    }
  }

  @Test func ignoresAnOptionalMemberThatIsMalformedOrInsecure() async throws {
    let document = TestJWT.discovery([
      "userinfo_endpoint": 42, "revocation_endpoint": "http://provider.test/revoke",
      "grant_types_supported": "authorization_code", "require_pushed_authorization_requests": 1,
    ])
    let provider = TestJWT.provider(transport, configuration: issuerOnly)
    await transport.enqueue(path, FakeTransport.json(document))
    let configuration = try await provider.configuration()
    #expect(configuration.userinfoEndpoint == nil)
    #expect(configuration.revocationEndpoint == nil)
    #expect(configuration.tokenEndpoint == TestProviders.url("/token"))
    let metadata = try #require(try await provider.discoveredMetadata())
    #expect(metadata.grantTypesSupported == nil)
    #expect(!metadata.requirePushedAuthorizationRequests)
  }

  @Test func saysWhatToDoWhenThereIsNoDocument() async throws {
    let provider = TestJWT.provider(transport, configuration: issuerOnly)
    let error = await #expect(throws: AuthError.self) { try await provider.configuration() }
    #expect(
      error?.message
        == "The provider has no discovery document at "
        + "https://provider.test/.well-known/openid-configuration (HTTP 404), nor metadata at "
        + "https://provider.test/.well-known/oauth-authorization-server; check `issuer` in "
        + "the provider file, or set the endpoints there and `\"discovery\": false`.")
  }

  @Test func fetchesTheDocumentOncePerRunAndAgainAfterAFailure() async throws {
    await transport.enqueue(
      path, FakeTransport.raw("", status: 503), FakeTransport.json(TestJWT.discovery()))
    let provider = TestJWT.provider(transport, configuration: issuerOnly)
    await #expect(throws: AuthError.serverError(status: 503)) { try await provider.configuration() }
    _ = try await provider.configuration()
    _ = try await provider.configuration()
    _ = try await provider.discoveredMetadata()
    #expect(await transport.requests(to: path).count == 2)
  }

  @Test func boundsTheRequestByTheClientsDeadline() async throws {
    await transport.enqueue(path, FakeTransport.json(TestJWT.discovery()))
    let provider = OIDCProvider(
      configuration: issuerOnly, transport: transport, clock: ManualClock(), requestTimeout: 7)
    _ = try await provider.configuration()
    #expect(await transport.requests.first?.timeout == 7)
  }

  @Test func skipsDiscoveryWhenTheConfigurationSaysSo() async throws {
    var base = issuerOnly
    base.usesDiscovery = false
    let provider = TestJWT.provider(transport, configuration: base)
    #expect(try await provider.configuration() == base)
    #expect(try await provider.discoveredMetadata() == nil)
    #expect(await transport.requests.isEmpty)
  }

  @Test func skipsDiscoveryWithoutAnIssuer() async throws {
    let provider = TestJWT.provider(transport, configuration: TestProviders.simkl)
    #expect(try await provider.configuration() == TestProviders.simkl)
    #expect(await transport.requests.isEmpty)
  }

  @Test(arguments: [
    ("https://id.example.com", "https://id.example.com/.well-known/openid-configuration"),
    ("https://id.example.com/", "https://id.example.com/.well-known/openid-configuration"),
    (
      "http://localhost:8080/realms/dev",
      "http://localhost:8080/realms/dev/.well-known/openid-configuration"
    ),
    (
      "https://id.example.com/tenant/",
      "https://id.example.com/tenant/.well-known/openid-configuration"
    ),
  ])
  func placesTheDocumentUnderTheIssuersPath(issuer: String, expected: String) throws {
    #expect(try OIDCProviderMetadata.discoveryURL(issuer: issuer).absoluteString == expected)
  }

  @Test(arguments: [
    "http://id.example.com", "https://id.example.com?tenant=1", "id.example.com",
    "http://app.localhost:8080", "http://localhost.:8080",
  ])
  func refusesAnIssuerThatIsNotAnHTTPSURL(issuer: String) async throws {
    var base = issuerOnly
    base.issuer = issuer
    let provider = TestJWT.provider(transport, configuration: base)
    let error = await #expect(throws: AuthError.self) { try await provider.configuration() }
    #expect(error == .discoveryFailed(.invalidIssuer(issuer)))
    #expect(error?.exitCode == 1)
    #expect(await transport.requests.isEmpty)
  }

  /// URLSession fails these at once as URLError -1000, which reached the user as a network
  /// error (exit 7): the issuer is what is wrong, before any request.
  @Test(arguments: [
    ("http://127.0.0.1:99999/realm", "its port 99999 is not a number from 1 to 65535"),
    ("https://id.example.com:0", "its port 0 is not a number from 1 to 65535"),
    (
      "http://[::1]:8080/realm",
      "its host is an IPv6 address, which authtui's HTTP client cannot reach; give 127.0.0.1 "
        + "or a host name instead"
    ),
  ])
  func refusesAnIssuerThatCannotBeSentToBeforeAnyRequest(issuer: String, problem: String)
    async throws
  {
    var base = issuerOnly
    base.issuer = issuer
    let provider = TestJWT.provider(transport, configuration: base)
    let error = await #expect(throws: AuthError.self) { try await provider.configuration() }
    #expect(error == .discoveryFailed(.unreachableIssuer(issuer, problem: problem)))
    #expect(
      error?.message
        == "The issuer \(issuer) is not a valid URL: \(problem); fix `issuer` in the provider file."
    )
    #expect(error?.exitCode == 1)
    #expect(await transport.requests.isEmpty)
  }

  /// URLSession would send them as HTTP Basic credentials to every discovery URL, and the
  /// message naming the issuer would repeat the password.
  @Test(arguments: [
    ("https://alice:S3cretPW@id.example.com/realm", "alice:…@"),
    ("http://alice:S3cretPW@127.0.0.1:8080", "alice:…@"),
    ("https://alice@id.example.com", "alice@"),
    ("https://ghp_0123456789abcdefghijklmnopqrstuv@id.example.com", "…@"),
    ("https://alice:S3cretPW@[::1]:99999/x", "alice:…@"),
  ])
  func refusesAnIssuerWithAUserOrPasswordWithoutRequestOrRepeatingIt(
    issuer: String, shown: String
  ) async throws {
    var base = issuerOnly
    base.issuer = issuer
    let provider = TestJWT.provider(transport, configuration: base)
    let error = await #expect(throws: AuthError.self) { try await provider.configuration() }
    guard case .discoveryFailed(.credentialsInIssuer(let credentials))? = error else {
      Issue.record("not refused for its credentials: \(String(describing: error))")
      return
    }
    #expect(credentials.shown == shown)
    #expect(error?.exitCode == 1)
    #expect(error.map { !$0.message.contains("S3cretPW") && !$0.message.contains("ghp_") } == true)
    #expect(await transport.requests.isEmpty)
  }

  @Test func readsTheKeysFromTheDiscoveredAddress() async throws {
    await transport.enqueue(
      path, FakeTransport.json(TestJWT.discovery(["jwks_uri": TestJWT.issuer + "/keys/v2"])))
    await transport.enqueue("/keys/v2", FakeTransport.json(TestJWT.jwks([.ec])))
    let provider = TestJWT.provider(transport, configuration: issuerOnly)
    let token = try await provider.validateIDToken(
      try TestSigner.ec.sign(TestJWT.claims()), nonce: nil, accessToken: nil)
    #expect(token.algorithm == .es256)
  }
}
