import Accounts
import Foundation
import TestSupport
import Testing
import Vault

@testable import AuthCore

@Suite struct ProviderClientTests {
  let clock = ManualClock()

  func client(_ configuration: ProviderConfiguration, _ transport: FakeTransport)
    -> ProviderClient
  {
    ProviderClient(configuration: configuration, transport: transport, clock: clock)
  }

  func grant(code: String = "the-code") -> AuthorizationGrant {
    AuthorizationGrant(
      code: code, codeVerifier: String(repeating: "v", count: 43),
      redirectURI: "http://127.0.0.1:8765/callback")
  }

  // MARK: Exchange

  @Test func exchangesAsAFormWithoutAnySecretByDefault() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/token",
      FakeTransport.json(
        #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1","scope":"openid profile","id_token":"x.y.z"}"#
      ))
    let tokens = try await client(TestProviders.oidc, transport).exchange(grant())
    #expect(tokens.accessToken == "at-1")
    #expect(tokens.refreshToken == "rt-1")
    #expect(tokens.idToken == "x.y.z")
    #expect(tokens.scopes == ["openid", "profile"])
    #expect(tokens.expiresAt == (await clock.now()).addingTimeInterval(3600))

    let sent = try #require(await transport.requests.first)
    #expect(sent.method == .post)
    #expect(sent.header("Content-Type") == "application/x-www-form-urlencoded")
    #expect(sent.header("User-Agent") == "authtui/\(AuthTUIVersion.current)")
    #expect(sent.followsRedirects == false)
    #expect(
      sent.bodyParameters == [
        "grant_type": "authorization_code", "code": "the-code",
        "redirect_uri": "http://127.0.0.1:8765/callback", "client_id": "abc123",
        "code_verifier": String(repeating: "v", count: 43),
      ])
    #expect(!sent.bodyText.contains("secret"))
  }

  @Test func exchangesAsJSONWithSimklsParametersOnTheURL() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/api/oauth/token",
      FakeTransport.json(
        #"{"access_token":"simkl-at","token_type":"bearer","scope":"public","expires_in":157680000}"#
      ))
    let tokens = try await client(TestProviders.simkl, transport).exchange(grant())
    #expect(tokens.refreshToken == nil)
    #expect(tokens.expiresIn == 157_680_000)

    let sent = try #require(await transport.requests.first)
    #expect(sent.header("Content-Type") == "application/json")
    #expect(sent.bodyParameters["code"] == "the-code")
    #expect(sent.bodyParameters["app-name"] == nil)
    #expect(
      sent.queryParameters == [
        "client_id": "simkl-client", "app-name": "authtui", "app-version": "0.1.0",
      ])
  }

  @Test func keepsUnknownMembersSuchAsHivesignersUsername() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/api/oauth2/token",
      FakeTransport.json(#"{"access_token":"hive-at","expires_in":604800,"username":"alice"}"#))
    let tokens = try await client(TestProviders.hivesigner, transport).exchange(grant())
    #expect(tokens.additionalParameters["username"] == .string("alice"))
    #expect(tokens.tokenType == nil)
    #expect(!tokens.description.contains("hive-at"))
    #expect(tokens.description.contains("other members: username"))
  }

  @Test(arguments: [
    (
      #"{"error":"secret_error","code":401,"message":"PKCE verification failed"}"#,
      AuthError.pkceVerificationFailed(description: "PKCE verification failed")
    ),
    (
      #"{"error":"invalid_grant","error_description":"The code was already used"}"#,
      AuthError.authorizationCodeUsed
    ),
    (
      #"{"error":"invalid_grant","error_description":"The code has expired"}"#,
      AuthError.authorizationCodeExpired
    ),
    (
      #"{"error":"invalid_grant","error_description":"The code is dated in the future"}"#,
      AuthError.authorizationCodeFromTheFuture
    ),
    (
      #"{"error":"invalid_grant","error_description":"Invalid code_verifier"}"#,
      AuthError.pkceVerificationFailed(description: "Invalid code_verifier")
    ),
    (
      #"{"error":"invalid_client"}"#,
      AuthError.tokenRequestRejected(OAuthError(code: .invalidClient))
    ),
  ])
  func namesEachRefusalOfACode(body: String, expected: AuthError) async throws {
    let transport = FakeTransport()
    await transport.enqueue("/token", FakeTransport.json(body, status: 401))
    await #expect(throws: expected) {
      _ = try await client(TestProviders.oidc, transport).exchange(grant())
    }
  }

  @Test(arguments: [
    (FakeTransport.raw("oops", status: 500), AuthError.serverError(status: 500)),
    (FakeTransport.raw("", status: 502), AuthError.serverError(status: 502)),
    (FakeTransport.raw("<html>hello</html>", status: 200), AuthError.nonJSONResponse(status: 200)),
    (FakeTransport.raw("  \n", status: 200), AuthError.emptyResponse(status: 200)),
    (FakeTransport.raw("", status: 302), AuthError.redirectRefused(status: 302)),
    (FakeTransport.raw("[1,2]", status: 200), AuthError.nonJSONResponse(status: 200)),
    (
      FakeTransport.json(#"{"token_type":"bearer"}"#),
      AuthError.malformedResponse("the answer has no access_token")
    ),
    (FakeTransport.raw("nope", status: 404), AuthError.nonJSONResponse(status: 404)),
    (FakeTransport.json("{}", status: 403), AuthError.unexpectedStatus(403)),
    (.failure(.timedOut(seconds: 30)), AuthError.transport(.timedOut(seconds: 30))),
    (
      .failure(.connectionLost(host: "provider.test")),
      AuthError.transport(.connectionLost(host: "provider.test"))
    ),
    (.failure(.responseTooLarge(limit: 1024)), AuthError.transport(.responseTooLarge(limit: 1024))),
    (.failure(.cancelled), AuthError.cancelled),
  ])
  func givesEachBrokenAnswerItsTypedError(reply: FakeTransport.Reply, expected: AuthError)
    async throws
  {
    let transport = FakeTransport()
    await transport.enqueue("/token", reply)
    await #expect(throws: expected) {
      _ = try await client(TestProviders.oidc, transport).exchange(grant())
    }
  }

  // MARK: Refresh

  @Test func refreshReturnsTheRotatedRefreshToken() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/token", FakeTransport.json(#"{"access_token":"at-2","refresh_token":"rt-2"}"#))
    let tokens = try await client(TestProviders.oidc, transport).refresh("rt-1")
    #expect(tokens.refreshToken == "rt-2")
    let sent = try #require(await transport.requests.first)
    #expect(
      sent.bodyParameters == [
        "grant_type": "refresh_token", "refresh_token": "rt-1", "client_id": "abc123",
      ])
  }

  @Test func refreshKeepsTheOldRefreshTokenWhenTheAnswerHasNone() async throws {
    let transport = FakeTransport()
    await transport.enqueue("/token", FakeTransport.json(#"{"access_token":"at-2"}"#))
    // The answer goes into the stored tokens through the one merge (Accounts).
    let stored = TokenSet(accessToken: "at-1", refreshToken: "rt-1", obtainedAt: .distantPast)
    let tokens = stored.updated(
      with: try await client(TestProviders.oidc, transport).refresh("rt-1"))
    #expect(tokens.accessToken == "at-2")
    #expect(tokens.refreshToken == "rt-1")
  }

  @Test func aRefusedRefreshTokenMeansSignInNeeded() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/token",
      FakeTransport.json(
        #"{"error":"invalid_grant","error_description":"refresh token reused"}"#, status: 400))
    let error = await #expect(throws: AuthError.self) {
      _ = try await client(TestProviders.oidc, transport).refresh("rt-1")
    }
    #expect(error == .refreshTokenRejected(description: "refresh token reused"))
    #expect(error?.exitCode == 5)
    #expect(
      error?.message
        == "The provider no longer accepts this account's refresh token (refresh token reused); "
        + "sign in to the account again.")
  }

  // MARK: Revocation

  @Test func revokesTheRefreshTokenFirstThenTheAccessToken() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/revoke", FakeTransport.raw("", status: 200), FakeTransport.raw("", status: 200))
    let result = try await client(TestProviders.oidc, transport).revoke(
      accessToken: "at-1", refreshToken: "rt-1")
    #expect(result == .revoked)
    let sent = await transport.requests(to: "/revoke").map(\.bodyParameters)
    #expect(
      sent == [
        ["token": "rt-1", "token_type_hint": "refresh_token", "client_id": "abc123"],
        ["token": "at-1", "token_type_hint": "access_token", "client_id": "abc123"],
      ])
  }

  @Test func reportsAFailedRevocationAfterTryingBothTokens() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/revoke", FakeTransport.raw("down", status: 503), FakeTransport.raw("", status: 200))
    await #expect(throws: AuthError.serverError(status: 503)) {
      _ = try await client(TestProviders.oidc, transport).revoke(
        accessToken: "at-1", refreshToken: "rt-1")
    }
    #expect(await transport.requests(to: "/revoke").count == 2)
  }

  @Test func acceptsAProviderThatRevokesOnlyRefreshTokens() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/revoke", FakeTransport.raw("", status: 200),
      FakeTransport.json(#"{"error":"unsupported_token_type"}"#, status: 400))
    let result = try await client(TestProviders.oidc, transport).revoke(
      accessToken: "at-1", refreshToken: "rt-1")
    #expect(result == .revoked)
  }

  @Test func saysRevocationIsUnsupportedWithoutAnEndpoint() async throws {
    let transport = FakeTransport()
    let result = try await client(TestProviders.simkl, transport).revoke(
      accessToken: "at-1", refreshToken: nil)
    #expect(result == .unsupported)
    #expect(await transport.requests.isEmpty)
  }

  // MARK: Resources

  @Test func fetchesJSONWithTheBearerTokenAndTheProvidersParameters() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/api/users/settings", FakeTransport.json(#"{"user":{"name":"alice"}}"#))
    let json = try await client(TestProviders.simkl, transport).fetchJSON(
      TestProviders.url("/api/users/settings"), bearerToken: "at-1")
    #expect(json["user"] == .object(["name": .string("alice")]))
    let sent = try #require(await transport.requests.first)
    #expect(sent.header("Authorization") == "Bearer at-1")
    #expect(sent.queryParameters["app-name"] == "authtui")
    #expect(sent.description == "GET https://provider.test/api/users/settings")
  }

  @Test func keeps401And403ApartForTheIdentityStep() async throws {
    let transport = FakeTransport()
    await transport.enqueue(
      "/me", FakeTransport.raw("", status: 401), FakeTransport.raw("", status: 403))
    let client = client(TestProviders.oidc, transport)
    await #expect(throws: AuthError.unexpectedStatus(401)) {
      _ = try await client.fetchJSON(TestProviders.url("/me"), bearerToken: "t")
    }
    await #expect(throws: AuthError.unexpectedStatus(403)) {
      _ = try await client.fetchJSON(TestProviders.url("/me"), bearerToken: "t")
    }
  }
}
