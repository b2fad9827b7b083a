import Crypto
import Foundation
import JSON
import Testing

@testable import AuthCore

/// `issuerTemplate` (a provider file's `id_token_issuer_fields`): Microsoft's `common`,
/// `organizations` and `consumers` endpoints publish a templated or another tenant's issuer,
/// and every id_token is issued by its signing tenant, named in `tid`.
@Suite struct TenantIssuerTests {
  static let host = TestProviders.host
  static let organization = "4b1e6a52-3c8d-4f0e-9a7b-2d5c8e1f0a63"
  static let consumers = "9188040d-6c67-4c5b-b112-36a304b66dad"
  static let template = IssuerTemplate(host + "/{tid}/v2.0")

  let transport = FakeTransport()

  /// A provider configured with the `segment` tenant, whose discovery document publishes
  /// `published`; with the template unless `templated` is false (a generic OIDC client).
  func provider(segment: String, published: String, templated: Bool = true) async
    -> OIDCProvider
  {
    await transport.enqueue(
      "/\(segment)/v2.0/.well-known/openid-configuration",
      FakeTransport.json(
        TestJWT.discovery([
          "issuer": published, "jwks_uri": Self.host + "/\(segment)/discovery/v2.0/keys",
          "authorization_response_iss_parameter_supported": NSNull(),
        ])))
    await transport.enqueue(
      "/\(segment)/discovery/v2.0/keys", FakeTransport.json(TestJWT.jwks([.rsa])))
    var configuration = TestProviders.oidc
    configuration.issuer = Self.host + "/\(segment)/v2.0"
    configuration.issuerTemplate = templated ? Self.template : nil
    return TestJWT.provider(transport, configuration: configuration)
  }

  func token(tenant: String?, issuerTenant: String? = nil) throws -> String {
    var changes: [String: Any] = ["iss": Self.host + "/\(issuerTenant ?? tenant ?? "x")/v2.0"]
    changes["tid"] = tenant ?? NSNull()
    return try TestSigner.rsa.sign(TestJWT.claims(changes))
  }

  func refusal(_ provider: OIDCProvider, _ token: String) async -> AuthError? {
    do {
      _ = try await provider.validateIDToken(
        token, nonce: TestJWT.nonce, accessToken: TestJWT.accessToken)
      return nil
    } catch {
      return error
    }
  }

  @Test func theTemplateNeedsOnePlaceholderAndFillsItWithTheClaim() throws {
    let template = try #require(IssuerTemplate("https://login.microsoftonline.com/{tid}/v2.0"))
    #expect(template.claim == "tid")
    #expect(template.filled(with: "abc") == "https://login.microsoftonline.com/abc/v2.0")
    #expect(IssuerTemplate("https://login.microsoftonline.com/v2.0") == nil)
    #expect(IssuerTemplate("https://x/{a}/{b}") == nil)
    #expect(IssuerTemplate("{tid}/v2.0") == nil)
    #expect(template.describes("https://login.microsoftonline.com/{tenantid}/v2.0"))
    #expect(template.describes("https://login.microsoftonline.com/\(Self.consumers)/v2.0"))
    #expect(!template.describes("https://login.microsoftonline.com/a/b/v2.0"))
    #expect(!template.describes("https://evil.test/\(Self.consumers)/v2.0"))
    #expect(!template.isConcrete("https://login.microsoftonline.com/{tenantid}/v2.0"))
  }

  @Test func commonAcceptsATokenFromEachTenantIssuedByItsOwnTid() async throws {
    let provider = await provider(segment: "common", published: Self.host + "/{tenantid}/v2.0")
    for tenant in [Self.organization, Self.consumers] {
      let token = try await provider.validateIDToken(
        try token(tenant: tenant), nonce: TestJWT.nonce, accessToken: TestJWT.accessToken)
      #expect(token.issuer == Self.host + "/\(tenant)/v2.0")
      #expect(token.claims["tid"] == .string(tenant))
    }
  }

  /// The quirk's guard: without the template (a generic OpenID client, or the preset without
  /// `id_token_issuer_fields`) Microsoft's `common` discovery document is refused, and so is
  /// its id_token.
  @Test func aGenericClientRefusesTheTemplatedDiscoveryAndTheTenantIssuedToken() async throws {
    let provider = await provider(
      segment: "common", published: Self.host + "/{tenantid}/v2.0", templated: false)
    let error = await refusal(provider, try token(tenant: Self.organization))
    #expect(
      error
        == .discoveryFailed(
          .issuerMismatch(
            expected: Self.host + "/common/v2.0", received: Self.host + "/{tenantid}/v2.0")))
    let validator = IDTokenValidator(issuer: Self.host + "/common/v2.0", clientID: "abc123")
    let claims = TestJWT.claims([
      "iss": Self.host + "/\(Self.organization)/v2.0", "tid": Self.organization,
    ])
    #expect(
      throws: IDTokenError.issuerMismatch(
        expected: Self.host + "/common/v2.0", received: Self.host + "/\(Self.organization)/v2.0")
    ) {
      try validator.validate(
        try TestSigner.rsa.sign(claims), keys: JSONWebKeySet(json: Self.keys()),
        now: TestJWT.now, nonce: TestJWT.nonce, accessToken: TestJWT.accessToken)
    }
  }

  static func keys() throws -> [String: JSONValue] {
    guard case .object(let members) = try JSONParser.parse(TestJWT.jwks([.rsa])).root else {
      return [:]
    }
    return members
  }

  @Test func aTokenWhoseIssDoesNotMatchItsOwnTidIsRefused() async throws {
    let provider = await provider(segment: "common", published: Self.host + "/{tenantid}/v2.0")
    let error = await refusal(
      provider, try token(tenant: Self.organization, issuerTenant: Self.consumers))
    #expect(
      error
        == .idTokenRejected(
          .issuerMismatch(
            expected: Self.host + "/\(Self.organization)/v2.0",
            received: Self.host + "/\(Self.consumers)/v2.0")))
  }

  @Test func aTokenWithoutTidOrWithAPathInItIsRefused() async throws {
    let provider = await provider(segment: "common", published: Self.host + "/{tenantid}/v2.0")
    #expect(
      await refusal(provider, try token(tenant: nil))
        == .idTokenRejected(.missingIssuerClaim("tid")))
    #expect(
      await refusal(provider, try token(tenant: "a/../b", issuerTenant: "a/../b"))
        == .idTokenRejected(.missingIssuerClaim("tid")))
    #expect(
      IDTokenError.missingIssuerClaim("tid").description
        == "The provider's id_token has no valid `tid` claim, which names the issuer it must "
        + "come from (`id_token_issuer_fields` in the provider file); it is refused.")
  }

  @Test func consumersPinsTheTokensToTheTenantItsDiscoveryNames() async throws {
    let provider = await provider(
      segment: "consumers", published: Self.host + "/\(Self.consumers)/v2.0")
    #expect(await refusal(provider, try token(tenant: Self.consumers)) == nil)
    #expect(
      await refusal(provider, try token(tenant: Self.organization))
        == .idTokenRejected(
          .issuerMismatch(
            expected: Self.host + "/\(Self.consumers)/v2.0",
            received: Self.host + "/\(Self.organization)/v2.0")))
  }
}
