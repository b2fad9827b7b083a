import AuthCore
import Crypto
import Foundation
import Sandbox
import TestSupport
import Testing

/// OpenID Connect against the sandbox provider over real HTTP: discovery, real RS256 and ES256
/// id_tokens checked against the published JWKS, key rotation, userinfo, RP-initiated logout,
/// and the identity step of every profile.
@Suite struct SandboxOpenIDTests {
  /// The `oidc` profile described by its issuer alone, as `{"issuer": …}` in a provider file.
  static func issuerOnly(
    _ harness: SandboxHarness, clientID: String = SandboxProfile.defaultClientID
  ) -> ProviderConfiguration {
    ProviderConfiguration(
      id: "oidc", name: "Sandbox OpenID Provider",
      issuer: harness.server.url(SandboxPaths.OIDC.issuer), clientID: clientID,
      scopes: ["openid", "profile", "email", "offline_access"])
  }

  /// A browser sign-in through `provider` with its id_token checked: the tokens and the id_token.
  static func signIn(
    _ provider: OIDCProvider, person: ScriptedBrowser = SandboxHarness.person()
  ) async throws -> (tokens: TokenResponse, idToken: IDToken?) {
    let attempt = try await AuthorizationCodeSignIn.start(client: try await provider.client())
    _ = await person.visit(await attempt.browserAddress().absoluteString)
    let tokens = try await attempt.tokens()
    let idToken = try await provider.validateIDToken(in: tokens, nonce: await attempt.request.nonce)
    return (tokens, idToken)
  }

  /// The real transport, counting what it sends.
  static func countingTransport() -> InterceptingTransport {
    InterceptingTransport { $0 }
  }

  static func requests(_ transport: InterceptingTransport, to path: String) async -> Int {
    await transport.built.filter { $0.url.path == path }.count
  }

  @Test func validatesARealRS256IDTokenFoundThroughDiscovery() async throws {
    let harness = try await SandboxHarness.startSharingKeys()
    let provider = OIDCProvider(
      configuration: Self.issuerOnly(harness), transport: URLSessionTransport())
    let configuration = try await provider.configuration()
    #expect(configuration.tokenEndpoint == harness.endpoint(SandboxPaths.OIDC.token))
    #expect(configuration.jwksURI == harness.endpoint(SandboxPaths.OIDC.jwks))
    #expect(configuration.requiresIssuerInAuthorizationResponse)

    let (tokens, idToken) = try await Self.signIn(provider)
    let token = try #require(idToken)
    #expect(token.algorithm == .rs256)
    #expect(token.issuer == harness.server.url(SandboxPaths.OIDC.issuer))
    #expect(token.subject == "alice")
    #expect(token.audiences == [SandboxProfile.defaultClientID])
    #expect(token.keyID != nil)

    // The identity step with the OpenID defaults: userinfo, its `sub` checked.
    let identity = try await provider.client().identity(for: tokens, idToken: token)
    #expect(identity?.label == "alice")
    #expect(identity?.subject == "alice")
    #expect(await harness.server.stats()[.identityRequests] == 1)
    await harness.stop()
  }

  @Test func validatesARealES256IDToken() async throws {
    let harness = try await SandboxHarness.startSharingKeys()
    let provider = OIDCProvider(
      configuration: Self.issuerOnly(harness, clientID: OIDCClients.es256ClientID),
      transport: URLSessionTransport())
    let token = try #require(try await Self.signIn(provider).idToken)
    #expect(token.algorithm == .es256)
    #expect(token.audiences == [OIDCClients.es256ClientID])
    await harness.stop()
  }

  @Test func checksBothKeysOfOneJWKSWithOneFetch() async throws {
    let harness = try await SandboxHarness.startSharingKeys()
    var settings = await harness.server.settings(for: .oidc)
    settings.idTokenSigning = .alternate
    await harness.server.setSettings(settings, for: .oidc)
    let transport = Self.countingTransport()
    let provider = OIDCProvider(configuration: Self.issuerOnly(harness), transport: transport)
    var algorithms: [SignatureAlgorithm] = []
    for _ in 0..<2 {
      algorithms.append(try #require(try await Self.signIn(provider).idToken).algorithm)
    }
    #expect(Set(algorithms) == [.rs256, .es256])
    #expect(await Self.requests(transport, to: SandboxPaths.OIDC.jwks) == 1)
    #expect(await Self.requests(transport, to: SandboxPaths.OIDC.discovery) == 1)
    await harness.stop()
  }

  @Test func followsAKeyRotationWithOneRefetchAndNoMoreWithinTheRun() async throws {
    let harness = try await SandboxHarness.startSharingKeys()
    let transport = Self.countingTransport()
    let provider = OIDCProvider(configuration: Self.issuerOnly(harness), transport: transport)
    let before = try #require(try await Self.signIn(provider).idToken)

    let rotated = try await harness.server.rotateKeys(of: .oidc)
    let after = try #require(try await Self.signIn(provider).idToken)
    #expect(after.keyID != before.keyID)
    #expect(rotated[.oidc]?.contains(after.keyID ?? "") == true)
    #expect(await Self.requests(transport, to: SandboxPaths.OIDC.jwks) == 2)

    // A second rotation moments later: the new kid is refused without a third fetch.
    _ = try await harness.server.rotateKeys(of: .oidc)
    let error = await #expect(throws: AuthError.self) { try await Self.signIn(provider) }
    guard case .idTokenRejected(.unknownKey(let kid))? = error else {
      Issue.record("expected an unknown key, got \(String(describing: error))")
      return
    }
    #expect(kid != nil && kid != after.keyID)
    #expect(await Self.requests(transport, to: SandboxPaths.OIDC.jwks) == 2)
    await harness.stop()
  }

  @Test func endsTheSessionWithTheIDTokenAsHint() async throws {
    let harness = try await SandboxHarness.startSharingKeys()
    var base = Self.issuerOnly(harness)
    base.postLogoutRedirectURI = URL(string: "http://127.0.0.1:9/signed-out")
    // Registered for the client, as the provider requires (RP-Initiated Logout §3).
    var settings = await harness.server.settings(for: .oidc)
    settings.postLogoutRedirectURIs = ["http://127.0.0.1:9/signed-out"]
    await harness.server.setSettings(settings, for: .oidc)
    let transport = URLSessionTransport()
    let provider = OIDCProvider(configuration: base, transport: transport)
    let (tokens, _) = try await Self.signIn(provider)
    let url = try #require(
      try await provider.configuration().endSessionURL(idTokenHint: tokens.idToken, state: "s1"))
    #expect(url.path == SandboxPaths.OIDC.endSession)
    let page = try await transport.send(TransportRequest(method: .get, url: url))
    let body = String(decoding: page.body, as: UTF8.self)
    #expect(page.status == 200)
    #expect(body.contains("Sign out alice from \(SandboxProfile.defaultClientID)"))
    await harness.stop()
  }

  // MARK: Identity from each profile

  @Test func readsSimklsAccountSettings() async throws {
    let harness = try await SandboxHarness.startSharingKeys()
    var simkl = harness.simkl
    simkl.identity = IdentityConfiguration(
      source: .endpoint(try #require(harness.endpoint(SandboxPaths.Simkl.userSettings))),
      labelPaths: ["user.name"], subjectPaths: ["account.id"])
    let client = harness.client(simkl)
    let tokens = try await harness.signIn(client).result.get()
    let identity = try #require(try await client.identity(for: tokens, idToken: nil))
    #expect(identity.label == "alice")
    #expect(Int(identity.subject ?? "") != nil)

    let unusable = TokenResponse(accessToken: "revoked", receivedAt: Date())
    await #expect(throws: AuthError.identityFailed(.tokenUnusable)) {
      try await client.identity(for: unusable, idToken: nil)
    }
    await harness.stop()
  }

  @Test(arguments: ["token_response", "endpoint"])
  func readsHivesignersAccount(source: String) async throws {
    let harness = try await SandboxHarness.startSharingKeys()
    var hivesigner = harness.hivesigner
    hivesigner.identity = IdentityConfiguration(
      source: try #require(
        IdentityConfiguration.Source(
          wireName: source, endpoint: harness.endpoint(SandboxPaths.Hivesigner.me))),
      labelPaths: ["username", "user"])
    let client = harness.client(hivesigner)
    let tokens = try await harness.signIn(client).result.get()
    #expect(try await client.identity(for: tokens, idToken: nil)?.label == "alice")
    await harness.stop()
  }

  /// Muhajir as its preset would say: discovery for the id_token, `/api/external/me` for the
  /// account, and `openid` named when that endpoint answers 403.
  static func muhajir(_ harness: SandboxHarness, scopes: [String]) throws -> ProviderConfiguration {
    var muhajir = harness.muhajir
    muhajir.scopes = scopes
    muhajir.identity = IdentityConfiguration(
      source: .endpoint(try #require(harness.endpoint(SandboxPaths.Muhajir.me))),
      labelPaths: ["preferred_username", "email", "sub"], subjectPaths: ["sub"],
      emailPaths: ["email"], forbiddenScopeHint: "openid")
    return muhajir
  }

  @Test func readsMuhajirsAccountAfterCheckingItsIDToken() async throws {
    let harness = try await SandboxHarness.startSharingKeys()
    let provider = OIDCProvider(
      configuration: try Self.muhajir(harness, scopes: ["openid", "profile", "email"]),
      transport: URLSessionTransport())
    let (tokens, idToken) = try await Self.signIn(provider)
    #expect(idToken?.issuer == harness.server.url(SandboxPaths.Muhajir.issuer))
    let identity = try await provider.client().identity(for: tokens, idToken: idToken)
    #expect(identity?.label == "alice")
    #expect(identity?.email?.contains("alice") == true)
    await harness.stop()
  }

  @Test func tellsWhichScopeMuhajirsAccountEndpointMisses() async throws {
    let harness = try await SandboxHarness.startSharingKeys()
    let client = harness.client(try Self.muhajir(harness, scopes: ["profile"]))
    let tokens = try await harness.signIn(client).result.get()
    let error = await #expect(throws: AuthError.self) {
      try await client.identity(for: tokens, idToken: nil)
    }
    #expect(error == .identityFailed(.insufficientScope(scopeHint: "openid")))
    #expect(error?.message.contains("add \"openid\" to `scopes`") == true)
    await harness.stop()
  }
}

extension SandboxHarness {
  /// A sandbox whose OpenID profiles sign with the test run's shared keys: making RSA keys is
  /// the slowest thing a sandbox does, and these tests need fresh ones only when they rotate.
  static func startSharingKeys() async throws -> SandboxHarness {
    try await SandboxHarness(
      configuration: SandboxConfiguration(signingKeys: [TestSigner.rsaKey, TestSigner.ecKey]))
  }
}
