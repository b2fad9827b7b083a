import AuthCore
import Crypto
import Foundation
import JSON
import TestSupport
import Testing

/// DPoP proofs as the client builds them (RFC 9449 §4.2), over a scripted token endpoint:
/// their header and claims, one per request and each fresh, the nonce challenge answered once,
/// the nonce kept per server, and what an answer's `token_type` may be.
@Suite struct DPoPProofTests {
  let clock = ManualClock()
  let transport = FakeTransport()
  let key: P256SigningKey

  init() throws {
    key = try P256SigningKey(
      rawRepresentation: Base64URL.decode(
        "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"))
  }

  /// The OpenID test provider, its server listing ES256 for DPoP, its extras in the query.
  static var configuration: ProviderConfiguration {
    var configuration = TestProviders.oidc
    configuration.dpopSigningAlgorithms = ["ES256"]
    configuration.extraRequestParameters = ["tenant": "t1"]
    configuration.extraRequestParametersLocation = .query
    return configuration
  }

  func client(
    _ configuration: ProviderConfiguration = Self.configuration, signer: (any DPoPSigner)? = nil,
    random: some RandomSource = RepeatedRandom(byte: 7)
  ) -> ProviderClient {
    ProviderClient(
      configuration: configuration, transport: transport, clock: clock,
      dpopKey: signer ?? key, random: random)
  }

  static let dpopTokens = #"{"access_token":"at","token_type":"DPoP","expires_in":60}"#

  @Test func aResourceProofHasTheHeaderAndClaimsOfRFC9449() async throws {
    let proof = try await client().resourceProof(
      method: "get", url: try #require(URL(string: "https://rs.test/api/items?page=2#top")),
      accessToken: "tok")
    let decoded = try #require(DecodedProof(proof))
    #expect(
      decoded.headerText
        == #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"crv":"P-256","kty":"EC","#
        + #""x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","#
        + #""y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}}"#)
    #expect(decoded.claims["htm"] == .string("GET"))
    #expect(decoded.claims["htu"] == .string("https://rs.test/api/items"))
    #expect(decoded.claims["iat"]?.numberValue == 1_800_000_000)
    #expect(decoded.claims["jti"] == .string("BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc"))
    // base64url(SHA-256("tok")), computed outside this code base.
    #expect(decoded.claims["ath"] == .string("GnZ0607njffhrEOak8P6jjyUV4TU3sn9jjARc4svHWI"))
    #expect(decoded.claims["nonce"] == nil)
    #expect(decoded.claims.count == 5)
    #expect(decoded.signature.count == 64)
    #expect(decoded.isSigned(by: key))
  }

  @Test func everyTokenRequestCarriesAFreshProofWithoutAthOrQuery() async throws {
    await transport.enqueue("/token", FakeTransport.json(Self.dpopTokens))
    await transport.enqueue("/token", FakeTransport.json(Self.dpopTokens))
    let client = client(random: SystemRandomSource())
    let first = try await client.refresh("rt")
    _ = try await client.refresh("rt")
    #expect(first.tokenType == "DPoP")
    #expect(first.isDPoPBound)
    let sent = await transport.requests(to: "/token")
    #expect(sent.count == 2)
    #expect(sent[0].url.query == "tenant=t1")
    let proofs = sent.compactMap(\.dpopProof)
    #expect(proofs.count == 2)
    for proof in proofs {
      #expect(proof.claims["htm"] == .string("POST"))
      #expect(proof.claims["htu"] == .string("https://provider.test/token"))
      #expect(proof.claims["ath"] == nil)
      #expect(proof.isSigned(by: key))
    }
    #expect(proofs[0].claims["jti"] != proofs[1].claims["jti"])
  }

  @Test func aClientWithoutAKeySendsNoProof() async throws {
    await transport.enqueue("/token", FakeTransport.json(#"{"access_token":"at"}"#))
    let plain = client().signingProofs(with: nil)
    _ = try await plain.refresh("rt")
    #expect(await transport.requests(to: "/token").first?.header("DPoP") == nil)
  }

  @Test func answersTheNonceChallengeOnceAndKeepsTheNonceForTheServer() async throws {
    let challenge = TransportResponse(
      status: 400, headers: ["DPoP-Nonce": "n-1"],
      body: Data(#"{"error":"use_dpop_nonce","error_description":"Nonce needed."}"#.utf8))
    await transport.enqueue("/token", .success(challenge), FakeTransport.json(Self.dpopTokens))
    await transport.enqueue("/revoke", FakeTransport.raw("", status: 200))
    let client = client()
    _ = try await client.refresh("rt")
    _ = try await client.revoke(accessToken: "at", refreshToken: nil)
    let sent = await transport.requests
    #expect(sent.map(\.url.path) == ["/token", "/token", "/revoke"])
    #expect(sent[0].dpopProof?.claims["nonce"] == nil)
    #expect(sent[1].dpopProof?.claims["nonce"] == .string("n-1"))
    // The same server (origin) gets the nonce at another endpoint, unasked.
    #expect(sent[2].dpopProof?.claims["nonce"] == .string("n-1"))
    #expect(await client.dpopNonces.nonce(for: TestProviders.url("/anything")) == "n-1")
    #expect(
      await client.dpopNonces.nonce(for: try #require(URL(string: "https://other.test/"))) == nil)
  }

  @Test func answersTheNonceChallengeOnlyOnce() async throws {
    let challenge = TransportResponse(
      status: 400, headers: ["DPoP-Nonce": "n-1"],
      body: Data(#"{"error":"use_dpop_nonce"}"#.utf8))
    await transport.enqueue("/token", .success(challenge), .success(challenge))
    let error = await #expect(throws: AuthError.self) { try await client().refresh("rt") }
    guard case .tokenRequestRejected(let oauth)? = error else {
      Issue.record("expected the provider's refusal, got \(String(describing: error))")
      return
    }
    #expect(oauth.code == .useDPoPNonce)
    #expect(error?.message.hasPrefix("The provider kept asking for a new DPoP nonce") == true)
    #expect(await transport.requests(to: "/token").count == 2)
  }

  @Test func answersAResourceServersNonceChallengeAtUserinfo() async throws {
    var configuration = Self.configuration
    configuration.userinfoEndpoint = TestProviders.url("/userinfo")
    let challenge = TransportResponse(
      status: 401,
      headers: [
        "WWW-Authenticate": #"Bearer realm="x", DPoP error="use_dpop_nonce", algs="ES256""#,
        "DPoP-Nonce": "rs-1",
      ])
    await transport.enqueue(
      "/userinfo", .success(challenge), FakeTransport.json(#"{"sub":"alice"}"#))
    let claims = try await client(configuration).userinfo(
      accessToken: "at", dpopBound: true, expectedSubject: "alice")
    #expect(claims["sub"] == .string("alice"))
    let sent = await transport.requests(to: "/userinfo")
    #expect(sent.count == 2)
    #expect(sent.allSatisfy { $0.header("Authorization") == "DPoP at" })
    #expect(sent[1].dpopProof?.claims["nonce"] == .string("rs-1"))
    #expect(sent[1].dpopProof?.claims["ath"] == .string(Base64URL.encode(SHA256.hash("at"))))
  }

  /// RFC 9449 §5: a server may decline to bind, and says so with `Bearer`.
  @Test func acceptsABearerAnswerToAProvenRequestAsBearer() async throws {
    await transport.enqueue(
      "/token", FakeTransport.json(#"{"access_token":"at","token_type":"Bearer"}"#))
    let tokens = try await client().refresh("rt")
    #expect(tokens.tokenType == "Bearer")
    #expect(!tokens.isDPoPBound)
  }

  @Test func refusesADPoPTokenAnsweringARequestWithoutAProof() async throws {
    await transport.enqueue("/token", FakeTransport.json(Self.dpopTokens))
    await #expect(throws: AuthError.unexpectedDPoPToken) {
      try await client().signingProofs(with: nil).refresh("rt")
    }
  }

  @Test func reportsASignerThatFailsWithoutSendingAnything() async throws {
    let failing = FailingSigner(publicParameters: key.publicParameters)
    await #expect(throws: AuthError.dpopProofFailed("the agent stopped")) {
      try await client(signer: failing).refresh("rt")
    }
    #expect(await transport.requests.isEmpty)
  }

  @Test func aResourceProofNeedsAKey() async throws {
    let url = try #require(URL(string: "https://rs.test/api"))
    await #expect(throws: AuthError.dpopKeyMissing("Work SSO")) {
      try await client().signingProofs(with: nil).resourceProof(
        method: "GET", url: url, accessToken: "at")
    }
  }

  @Test func dropsTheFragmentAndQueryFromTheTargetURI() throws {
    for (text, expected) in [
      ("https://a.test/p?q=1", "https://a.test/p"), ("https://a.test/p#f", "https://a.test/p"),
      ("https://a.test:8443/p%20q/?x#y", "https://a.test:8443/p%20q/"),
      ("http://127.0.0.1:9/token", "http://127.0.0.1:9/token"),
    ] {
      #expect(DPoPProof.targetURI(of: try #require(URL(string: text))) == expected)
    }
  }
}
