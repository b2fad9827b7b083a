import Foundation
import TestSupport
import Testing

@testable import AuthCore

/// The OpenID discovery document merged with RFC 8414 metadata (`MetadataDiscovery`,
/// `OIDCProviderMetadata(documents:…)`).
@Suite struct MetadataMergeTests {
  let transport = FakeTransport()
  let openIDPath = "/.well-known/openid-configuration"
  let serverPath = "/.well-known/oauth-authorization-server"

  var issuerOnly: ProviderConfiguration {
    ProviderConfiguration(
      id: "work", issuer: TestJWT.issuer, clientID: "abc123", scopes: ["openid"])
  }

  /// Makes the fake server answer the next fetch of `path` (the RFC 8414 document's) with
  /// `members` as a JSON object.
  func serveAuthorizationServerMetadata(_ members: [String: Any], at path: String? = nil) async {
    let data = try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])
    await transport.enqueue(
      path ?? serverPath, FakeTransport.json(String(decoding: data ?? Data(), as: UTF8.self)))
  }

  func provider(_ configuration: ProviderConfiguration? = nil) -> OIDCProvider {
    TestJWT.provider(transport, configuration: configuration ?? issuerOnly)
  }

  // MARK: Where the documents are

  @Test(arguments: [
    (
      "https://id.example.com/realms/work/",
      [
        "https://id.example.com/.well-known/oauth-authorization-server/realms/work",
        "https://id.example.com/realms/work/.well-known/oauth-authorization-server",
      ]
    ),
    (
      "http://127.0.0.1:8080/dynamic",
      [
        "http://127.0.0.1:8080/.well-known/oauth-authorization-server/dynamic",
        "http://127.0.0.1:8080/dynamic/.well-known/oauth-authorization-server",
      ]
    ),
    ("https://id.example.com", ["https://id.example.com/.well-known/oauth-authorization-server"]),
    ("https://id.example.com/", ["https://id.example.com/.well-known/oauth-authorization-server"]),
  ])
  func insertsTheWellKnownPathBetweenHostAndPath(issuer: String, expected: [String]) throws {
    let urls = try OIDCProviderMetadata.authorizationServerMetadataURLs(issuer: issuer)
    #expect(urls.map(\.absoluteString) == expected)
  }

  // MARK: The merge

  @Test func takesAMemberOnlyTheRFC8414DocumentHas() async throws {
    await transport.enqueue(
      openIDPath, FakeTransport.json(TestJWT.discovery(["revocation_endpoint": NSNull()])))
    await serveAuthorizationServerMetadata([
      "issuer": TestJWT.issuer, "revocation_endpoint": TestJWT.issuer + "/oauth/revoke",
      "token_endpoint": TestJWT.issuer + "/other/token",
      "registration_endpoint": TestJWT.issuer + "/register",
    ])
    let provider = provider()
    let configuration = try await provider.configuration()
    #expect(configuration.revocationEndpoint == TestProviders.url("/oauth/revoke"))
    // OpenID discovery first: its token endpoint stands.
    #expect(configuration.tokenEndpoint == TestProviders.url("/token"))
    let metadata = try #require(try await provider.discoveredMetadata())
    #expect(metadata.registrationEndpoint == TestProviders.url("/register"))
    #expect(metadata.sources == [.openIDConfiguration, .authorizationServer])
  }

  @Test func readsTheMembersLaterIssuesBuildOn() async throws {
    await serveAuthorizationServerMetadata([
      "issuer": TestJWT.issuer, "authorization_endpoint": TestJWT.issuer + "/authorize",
      "token_endpoint": TestJWT.issuer + "/token",
      "pushed_authorization_request_endpoint": TestJWT.issuer + "/par",
      "require_pushed_authorization_requests": true,
      "dpop_signing_alg_values_supported": ["ES256", "RS256"],
      "grant_types_supported": ["authorization_code", "refresh_token"],
      "response_types_supported": ["code"],
      "token_endpoint_auth_methods_supported": ["none", "private_key_jwt"],
    ])
    let metadata = try await OIDCProvider.discover(
      issuer: TestJWT.issuer, transport: transport, clock: ManualClock())
    #expect(metadata.pushedAuthorizationRequestEndpoint == TestProviders.url("/par"))
    #expect(metadata.requirePushedAuthorizationRequests)
    #expect(metadata.dpopSigningAlgorithms == ["ES256", "RS256"])
    #expect(metadata.grantTypesSupported == ["authorization_code", "refresh_token"])
    #expect(metadata.responseTypesSupported == ["code"])
    #expect(metadata.tokenEndpointAuthMethods == ["none", "private_key_jwt"])
    #expect(metadata.offersGrant("refresh_token"))
    #expect(!metadata.offersGrant(ClientRegistrationRequest.deviceCodeGrantType))
    // Without OpenID discovery there is no id_token to check, so no jwks_uri is needed.
    #expect(metadata.jwksURI == nil)
    #expect(metadata.sources == [.authorizationServer])
  }

  @Test func triesTheSuffixFormForAnIssuerWithAPathWhenTheInsertedOneIsMissing() async throws {
    let issuer = TestJWT.issuer + "/tenant"
    await serveAuthorizationServerMetadata(
      ["issuer": issuer, "authorization_endpoint": issuer + "/authorize"],
      at: "/tenant" + serverPath)
    let metadata = try await OIDCProvider.discover(
      issuer: issuer, transport: transport, clock: ManualClock(), requestTimeout: 9)
    #expect(metadata.authorizationEndpoint?.absoluteString == issuer + "/authorize")
    let paths = await transport.requests.map(\.url.path)
    #expect(
      Set(paths) == [
        "/tenant" + openIDPath, serverPath + "/tenant", "/tenant" + serverPath,
      ])
    // Every fetch has the deadline.
    #expect(await transport.requests.allSatisfy { $0.timeout == 9 })
  }

  @Test func leavesOutAnRFC8414DocumentOfAnotherIssuer() async throws {
    await transport.enqueue(openIDPath, FakeTransport.json(TestJWT.discovery()))
    await serveAuthorizationServerMetadata([
      "issuer": "https://evil.test", "registration_endpoint": "https://evil.test/register",
    ])
    let metadata = try #require(try await provider().discoveredMetadata())
    #expect(metadata.registrationEndpoint == nil)
    #expect(metadata.sources == [.openIDConfiguration])
  }

  @Test func refusesAnRFC8414DocumentOfAnotherIssuerWhenItIsTheOnlyOne() async throws {
    await serveAuthorizationServerMetadata(["issuer": "https://evil.test"])
    await #expect(
      throws: AuthError.discoveryFailed(
        .issuerMismatch(expected: TestJWT.issuer, received: "https://evil.test"))
    ) {
      try await OIDCProvider.discover(
        issuer: TestJWT.issuer, transport: transport, clock: ManualClock())
    }
  }

  @Test func anRFC8414DocumentThatFailsCostsTheOpenIDDocumentNothing() async throws {
    await transport.enqueue(openIDPath, FakeTransport.json(TestJWT.discovery()))
    await transport.enqueue(serverPath, FakeTransport.raw("", status: 500))
    let configuration = try await provider().configuration()
    #expect(configuration.revocationEndpoint == TestProviders.url("/revoke"))
  }

  @Test func theMergeAppliesToEverySignInAndSignOut() async throws {
    // A revocation endpoint only in RFC 8414 metadata reaches the configuration the sign-out
    // uses (`OIDCProvider.client()`).
    await transport.enqueue(
      openIDPath, FakeTransport.json(TestJWT.discovery(["revocation_endpoint": NSNull()])))
    await serveAuthorizationServerMetadata([
      "issuer": TestJWT.issuer, "revocation_endpoint": TestJWT.issuer + "/revoke2",
    ])
    let client = try await provider().client()
    #expect(client.configuration.revocationEndpoint == TestProviders.url("/revoke2"))
  }
}
