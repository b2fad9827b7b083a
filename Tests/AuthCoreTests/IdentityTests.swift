import Foundation
import JSON
import Loopback
import TestSupport
import Testing

@testable import AuthCore

/// The identity step after a sign-in, for each source of `IdentityConfiguration`.
@Suite struct IdentityTests {
  let transport = FakeTransport()

  func client(_ configuration: ProviderConfiguration) -> ProviderClient {
    ProviderClient(configuration: configuration, transport: transport, clock: ManualClock())
  }

  func tokens(_ extra: [String: JSONValue] = [:]) -> TokenResponse {
    TokenResponse(
      accessToken: TestJWT.accessToken, additionalParameters: extra, receivedAt: TestJWT.now)
  }

  /// Simkl: `GET users/settings` with the Bearer token and Simkl's per-request parameters.
  var simkl: ProviderConfiguration {
    var configuration = TestProviders.simkl
    configuration.identity = IdentityConfiguration(
      source: .endpoint(TestProviders.url("/api/users/settings")), labelPaths: ["user.name"],
      subjectPaths: ["account.id"], namePaths: ["user.name"])
    return configuration
  }

  /// Muhajir: `/api/external/me`, where 403 means the token lacks `openid`.
  var muhajir: ProviderConfiguration {
    ProviderConfiguration(
      id: "muhajir", name: "Muhajir Studio", issuer: TestJWT.issuer, clientID: "muhajir-app",
      scopes: ["openid", "profile", "email"], usesDiscovery: false,
      identity: IdentityConfiguration(
        source: .endpoint(TestProviders.url("/api/external/me")),
        labelPaths: ["preferred_username", "email", "sub"], subjectPaths: ["sub"],
        emailPaths: ["email"], forbiddenScopeHint: "openid"))
  }

  @Test func readsSimklsSettingsWithItsPerRequestParameters() async throws {
    await transport.enqueue(
      "/api/users/settings",
      FakeTransport.json(
        #"{"user": {"name": "Alice S", "joined_at": "2020-01-01"}, "account": {"id": 12345}}"#))
    let identity = try await client(simkl).identity(for: tokens(), idToken: nil)
    #expect(identity == AccountIdentity(label: "Alice S", subject: "12345", name: "Alice S"))
    let request = try #require(await transport.requests.first)
    #expect(request.method == .get)
    #expect(request.header("Authorization") == "Bearer \(TestJWT.accessToken)")
    #expect(
      request.queryParameters == [
        "client_id": "simkl-client", "app-name": "authtui", "app-version": "0.1.0",
      ])
  }

  @Test(arguments: [
    (#"{"sub":"9f1c","preferred_username":"al","email":"a@x.test","name":"Al"}"#, "al", false),
    (#"{"sub":"9f1c","email":"a@x.test","name":"Al"}"#, "a@x.test", false),
    (#"{"sub":"9f1c","name":"Al Example"}"#, "Al Example", false),
    (#"{"sub":"9f1c","name":" "}"#, "9f1c", true),
  ])
  func labelsAnOpenIDAccountByItsNameBeforeItsOpaqueSubject(
    claims: String, label: String, onlySubject: Bool
  ) async throws {
    let document = try #require(JSONValue.object(from: Array(claims.utf8)))
    let identity = try AccountIdentity(
      document: document, settings: .openIDDefault(source: .idToken))
    #expect(identity.label == label)
    #expect(identity.subject == "9f1c")
    #expect(identity.labelIsSubject == onlySubject)
  }

  @Test func aLabelPathThatIsTheSubjectStillCountsAsTheSubject() throws {
    // Presets list `sub` last among their label paths (Microsoft's, Muhajir's).
    let settings = IdentityConfiguration(
      source: .idToken, labelPaths: ["preferred_username", "email", "name", "sub"],
      subjectPaths: ["sub"])
    let identity = try AccountIdentity(document: ["sub": .string("42")], settings: settings)
    #expect(identity.label == "42")
    #expect(identity.labelIsSubject)
  }

  @Test func readsHivesignersUsernameFromTheExchangeAnswer() async throws {
    var configuration = TestProviders.hivesigner
    configuration.identity = IdentityConfiguration(
      source: .tokenResponse, labelPaths: ["username"], subjectPaths: ["username"])
    let identity = try await client(configuration).identity(
      for: tokens(["username": .string("alice")]), idToken: nil)
    #expect(identity == AccountIdentity(label: "alice", subject: "alice"))
    #expect(await transport.requests.isEmpty)
  }

  @Test func readsHivesignersAccountEndpoint() async throws {
    var configuration = TestProviders.hivesigner
    configuration.identity = IdentityConfiguration(
      source: .endpoint(TestProviders.url("/api/me")), labelPaths: ["user"],
      subjectPaths: ["_id"])
    await transport.enqueue(
      "/api/me", FakeTransport.json(#"{"user": "alice", "_id": "alice", "scope": ["posting"]}"#))
    let identity = try await client(configuration).identity(for: tokens(), idToken: nil)
    #expect(identity?.label == "alice")
  }

  @Test func readsMuhajirsAccountEndpoint() async throws {
    await transport.enqueue(
      "/api/external/me",
      FakeTransport.json(#"{"sub": "u-1", "preferred_username": "amina", "email": "a@m.test"}"#))
    let identity = try await client(muhajir).identity(for: tokens(), idToken: nil)
    #expect(identity == AccountIdentity(label: "amina", subject: "u-1", email: "a@m.test"))
  }

  @Test func tellsWhichScopeToAddWhenMuhajirAnswers403() async throws {
    await transport.enqueue(
      "/api/external/me", FakeTransport.json(#"{"error": "forbidden"}"#, status: 403))
    let error = await #expect(throws: AuthError.self) {
      try await client(muhajir).identity(for: tokens(), idToken: nil)
    }
    #expect(error == .identityFailed(.insufficientScope(scopeHint: "openid")))
    #expect(
      error?.message
        == "The provider accepted the new token but it may not read the account (HTTP 403: a "
        + "scope is missing); add \"openid\" to `scopes` in the provider file and sign in again.")
    #expect(error?.exitCode == 7)
  }

  @Test func prefersTheScopeTheProviderNamesInItsChallenge() async throws {
    await transport.enqueue(
      "/api/external/me",
      .success(
        TransportResponse(
          status: 403,
          headers: [
            "WWW-Authenticate": #"Bearer error="insufficient_scope", scope="openid profile""#
          ])))
    await #expect(throws: AuthError.identityFailed(.insufficientScope(scopeHint: "openid profile")))
    {
      try await client(muhajir).identity(for: tokens(), idToken: nil)
    }
  }

  @Test func treatsA401AsAnUnusableNewToken() async throws {
    await transport.enqueue(
      "/api/external/me", FakeTransport.json(#"{"error": "unauthorized"}"#, status: 401))
    let error = await #expect(throws: AuthError.self) {
      try await client(muhajir).identity(for: tokens(), idToken: nil)
    }
    #expect(error == .identityFailed(.tokenUnusable))
    #expect(
      error?.message
        == "The provider refused the new access token when asked who signed in (HTTP 401), so "
        + "the sign-in failed; start a new sign-in, and check `identity` in the provider file if "
        + "it happens again.")
  }

  @Test func readsUserinfoAndChecksItsSubjectAgainstTheIDToken() async throws {
    var configuration = TestProviders.oidc
    configuration.userinfoEndpoint = TestProviders.url("/userinfo")
    let idToken = try await validIDToken()
    await transport.enqueue(
      "/userinfo",
      FakeTransport.json(#"{"sub": "user-42", "preferred_username": "alice", "name": "Alice"}"#),
      FakeTransport.json(#"{"sub": "user-7", "preferred_username": "mallory"}"#))
    let identity = try await client(configuration).identity(for: tokens(), idToken: idToken)
    #expect(identity == AccountIdentity(label: "alice", subject: "user-42", name: "Alice"))
    await #expect(throws: AuthError.identityFailed(.subjectMismatch)) {
      try await client(configuration).identity(for: tokens(), idToken: idToken)
    }
    let request = try #require(await transport.requests(to: "/userinfo").first)
    #expect(request.header("Authorization") == "Bearer \(TestJWT.accessToken)")
  }

  @Test func readsTheIDTokenWhenThereIsNoUserinfoEndpoint() async throws {
    let idToken = try await validIDToken()
    let identity = try await client(TestProviders.oidc).identity(for: tokens(), idToken: idToken)
    #expect(
      identity
        == AccountIdentity(
          label: "alice", subject: "user-42", email: "alice@example.com", name: "Alice Example"))
    // Discovery (its OpenID and RFC 8414 documents) and JWKS, for the id_token only.
    #expect(await transport.requests.count == 3)
  }

  @Test func saysWhenTheIDTokenItShouldReadIsMissing() async throws {
    var configuration = TestProviders.oidc
    configuration.identity = .openIDDefault(source: .idToken)
    await #expect(throws: AuthError.identityFailed(.noIDToken)) {
      try await client(configuration).identity(for: tokens(), idToken: nil)
    }
  }

  @Test func hasNoIdentityStepForAPlainOAuthProviderWithoutSettings() async throws {
    #expect(try await client(TestProviders.hivesigner).identity(for: tokens(), idToken: nil) == nil)
  }

  @Test func fallsBackToTheSubjectAndThenSaysWhichPathsWereTried() async throws {
    var configuration = TestProviders.hivesigner
    configuration.identity = IdentityConfiguration(
      source: .tokenResponse, labelPaths: ["username"], subjectPaths: ["account.id"])
    let fallback = try await client(configuration).identity(
      for: tokens(["account": .object(["id": .number(7)])]), idToken: nil)
    #expect(fallback?.label == "7")
    let error = await #expect(throws: AuthError.self) {
      try await client(configuration).identity(for: tokens(), idToken: nil)
    }
    #expect(error == .identityFailed(.labelNotFound(paths: ["username", "account.id"])))
    #expect(
      error?.message
        == "The provider's answer about the account has none of `username`, `account.id`; fix "
        + "`identity.label` in the provider file, or name the account with --label.")
  }

  @Test func cleansLabelsOfControlAndBidiCharactersAndCutsThem() async throws {
    var configuration = TestProviders.hivesigner
    configuration.identity = IdentityConfiguration(
      source: .tokenResponse, labelPaths: ["blank", "username"])
    let long = String(repeating: "ab", count: 50)
    let identity = try await client(configuration).identity(
      for: tokens([
        "blank": .string(" \u{1B} "), "username": .string("\u{202E}al\u{1B}[31mice\n" + long),
      ]), idToken: nil)
    let label = try #require(identity?.label)
    #expect(label.hasPrefix("al[31mice"))
    #expect(label.count == AccountIdentity.maximumLabelLength)
  }

  @Test func keepsEmojiSequencesInLabels() async throws {
    var configuration = TestProviders.hivesigner
    configuration.identity = IdentityConfiguration(source: .tokenResponse, labelPaths: ["u"])
    let family = "👩‍👩‍👧 小林"
    let identity = try await client(configuration).identity(
      for: tokens(["u": .string(family)]), idToken: nil)
    #expect(identity?.label == family)
  }

  @Test func refusesAnInsecureIdentityEndpoint() async throws {
    var configuration = simkl
    configuration.identity?.source = .endpoint(try #require(URL(string: "http://api.test/me")))
    await #expect(throws: AuthError.insecureEndpoint("identity endpoint", provider: "Simkl")) {
      try await client(configuration).identity(for: tokens(), idToken: nil)
    }
  }

  @Test func namesSourcesAsProviderFilesDo() throws {
    let url = TestProviders.url("/me")
    #expect(IdentityConfiguration.Source(wireName: "endpoint", endpoint: url) == .endpoint(url))
    #expect(IdentityConfiguration.Source(wireName: "endpoint") == nil)
    #expect(IdentityConfiguration.Source(wireName: "token_response") == .tokenResponse)
    #expect(IdentityConfiguration.Source(wireName: "userinfo")?.wireName == "userinfo")
    #expect(IdentityConfiguration.Source(wireName: "id_token") == .idToken)
    #expect(IdentityConfiguration.Source(wireName: "cookie") == nil)
  }

  /// The id_token of `TestJWT.claims()`, validated through discovery and a JWKS.
  func validIDToken() async throws -> IDToken {
    await transport.enqueue(
      "/.well-known/openid-configuration",
      FakeTransport.json(TestJWT.discovery(["userinfo_endpoint": NSNull()])))
    await transport.enqueue("/jwks", FakeTransport.json(TestJWT.jwks([.rsa])))
    return try await TestJWT.provider(transport).validateIDToken(
      try TestSigner.rsa.sign(TestJWT.claims()), nonce: TestJWT.nonce,
      accessToken: TestJWT.accessToken)
  }
}

/// RP-initiated logout (OIDC RP-Initiated Logout 1.0 §2).
@Suite struct EndSessionTests {
  var configuration: ProviderConfiguration {
    var configuration = TestProviders.oidc
    configuration.endSessionEndpoint = TestProviders.url("/logout")
    return configuration
  }

  func parameters(_ url: URL?) throws -> [FormEncoding.Pair] {
    FormEncoding.decode(try #require(url?.query(percentEncoded: true)))
  }

  @Test func sendsTheHintAndClientButNoUnregisteredRedirect() throws {
    let url = try configuration.endSessionURL(idTokenHint: "header.claims.sig", state: "s1")
    #expect(url?.absoluteString.hasPrefix("https://provider.test/logout?") == true)
    let pairs = try parameters(url)
    #expect(pairs.map(\.name) == ["id_token_hint", "client_id"])
    #expect(pairs.map(\.value) == ["header.claims.sig", "abc123"])
  }

  @Test func addsTheRegisteredRedirectWithItsState() throws {
    var configuration = configuration
    configuration.postLogoutRedirectURI = URL(string: "http://127.0.0.1:8765/signed-out")
    let pairs = try parameters(try configuration.endSessionURL(idTokenHint: nil, state: "s1"))
    #expect(pairs.map(\.name) == ["client_id", "post_logout_redirect_uri", "state"])
    #expect(pairs[1].value == "http://127.0.0.1:8765/signed-out")
  }

  @Test func returnsToTheSignInRedirectURIWhenTheRegistrationAllowsIt() throws {
    var configuration = configuration
    configuration.postLogoutUsesRedirectURI = true
    configuration.redirectPort = 8765
    var pairs = try parameters(try configuration.endSessionURL(idTokenHint: "h"))
    #expect(pairs.map(\.name) == ["id_token_hint", "client_id", "post_logout_redirect_uri"])
    #expect(pairs[2].value == "http://127.0.0.1:8765/callback")
    // Without a fixed port, 0 stands for the port the landing's listener will take.
    configuration.redirectPort = nil
    configuration.redirectPath = "/done"
    pairs = try parameters(try configuration.endSessionURL(idTokenHint: nil))
    #expect(pairs.last?.value == "http://127.0.0.1:0/done")
    // A registered post_logout_redirect_uri wins.
    configuration.postLogoutRedirectURI = URL(string: "https://app.example/bye")
    pairs = try parameters(try configuration.endSessionURL(idTokenHint: nil))
    #expect(pairs.last?.value == "https://app.example/bye")
  }

  @Test func isAbsentWithoutAnEndpointAndRefusedOverPlainHTTP() throws {
    #expect(try TestProviders.oidc.endSessionURL(idTokenHint: "x") == nil)
    var insecure = configuration
    insecure.endSessionEndpoint = URL(string: "http://provider.test/logout")
    #expect(throws: AuthError.insecureEndpoint("end_session_endpoint", provider: "Work SSO")) {
      try insecure.endSessionURL(idTokenHint: "x")
    }
  }
}
