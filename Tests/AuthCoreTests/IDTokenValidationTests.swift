import Crypto
import Foundation
import Testing

@testable import AuthCore

/// id_token validation (OIDC Core §3.1.3.7) through `OIDCProvider`, with discovery and a JWKS
/// served by a scripted transport and tokens signed here with `Crypto.SigningKey`.
@Suite struct IDTokenValidationTests {
  let transport = FakeTransport()

  /// A provider whose discovery and JWKS (RSA and EC keys) are scripted.
  func provider(jwks: [TestSigner] = [.rsa, .ec]) async -> OIDCProvider {
    await transport.enqueue(
      "/.well-known/openid-configuration", FakeTransport.json(TestJWT.discovery()))
    await transport.enqueue("/jwks", FakeTransport.json(TestJWT.jwks(jwks)))
    return TestJWT.provider(transport)
  }

  /// Validates `token` as the sign-in that sent `TestJWT.nonce` would.
  func validate(_ token: String, provider: OIDCProvider? = nil) async throws(AuthError)
    -> IDToken
  {
    let validator: OIDCProvider
    if let provider {
      validator = provider
    } else {
      validator = await self.provider()
    }
    return try await validator.validateIDToken(
      token, nonce: TestJWT.nonce, accessToken: TestJWT.accessToken)
  }

  /// The error validating `token` fails with.
  func refusal(_ token: String) async -> AuthError? {
    do {
      _ = try await validate(token)
      return nil
    } catch {
      return error
    }
  }

  /// The refusal of an RS256 id_token whose claims are `TestJWT.claims` with `changes`.
  func refusal(ofClaims changes: [String: Any]) async throws -> AuthError? {
    await refusal(try TestSigner.rsa.sign(TestJWT.claims(changes)))
  }

  // MARK: Valid tokens

  @Test func acceptsAValidRS256TokenAndReadsItsClaims() async throws {
    let token = try await validate(try TestSigner.rsa.sign(TestJWT.claims()))
    #expect(token.algorithm == .rs256)
    #expect(token.keyID == "rsa-1")
    #expect(token.issuer == TestJWT.issuer)
    #expect(token.subject == "user-42")
    #expect(token.audiences == ["abc123"])
    #expect(token.nonce == TestJWT.nonce)
    #expect(token.expiresAt == TestJWT.now.addingTimeInterval(600))
    #expect(token.claims["preferred_username"] == .string("alice"))
  }

  @Test func acceptsAValidES256Token() async throws {
    let token = try await validate(try TestSigner.ec.sign(TestJWT.claims()))
    #expect(token.algorithm == .es256)
    #expect(token.keyID == "ec-1")
  }

  @Test func picksTheOnlyKeyOfTheTokensTypeWhenTheTokenNamesNoKid() async throws {
    let signer = TestSigner(key: TestSigner.ecKey, kid: nil)
    let provider = await provider(jwks: [.rsa, signer])
    let token = try await validate(try signer.sign(TestJWT.claims()), provider: provider)
    #expect(token.keyID == nil)
  }

  @Test func acceptsTokensWithinFiveMinutesOfClockSkew() async throws {
    let now = Int(TestJWT.now.timeIntervalSince1970)
    let claims = TestJWT.claims(["exp": now - 290, "iat": now + 290])
    let token = try await validate(try TestSigner.rsa.sign(claims))
    #expect(token.issuedAt == TestJWT.now.addingTimeInterval(290))
  }

  @Test func describesItselfWithoutTheSubjectOrClaims() async throws {
    let token = try await validate(try TestSigner.rsa.sign(TestJWT.claims()))
    #expect(!token.description.contains("user-42"))
    #expect(!token.description.contains("alice"))
    #expect(token.description.contains("RS256"))
  }

  // MARK: Each refusal has its own error

  @Test func refusesAnExpiredToken() async throws {
    let expiry = Int(TestJWT.now.timeIntervalSince1970) - 301
    let error = try await refusal(ofClaims: ["exp": expiry])
    #expect(error == .idTokenRejected(.expired(at: Date(timeIntervalSince1970: Double(expiry)))))
    #expect(error?.exitCode == 7)
    #expect(
      error?.message
        == "The provider's id_token had expired (exp) when it arrived; check this computer's "
        + "clock (`timedatectl`) and start a new sign-in.")
  }

  @Test func refusesATokenIssuedInTheFuture() async throws {
    let issued = Int(TestJWT.now.timeIntervalSince1970) + 301
    let error = try await refusal(ofClaims: ["iat": issued])
    #expect(
      error == .idTokenRejected(.issuedInFuture(at: Date(timeIntervalSince1970: Double(issued)))))
    #expect(error?.code == "id_token_issued_in_future")
  }

  @Test func refusesATokenForAnotherApplication() async throws {
    let error = try await refusal(ofClaims: ["aud": "someone-else"])
    #expect(error == .idTokenRejected(.audienceMismatch(clientID: "abc123")))
    #expect(
      error?.message
        == "The provider's id_token was issued for another application (aud); check "
        + "`client_id` in the provider file.")
  }

  @Test func refusesATokenFromAnotherIssuer() async throws {
    let error = try await refusal(ofClaims: ["iss": "https://evil.test"])
    #expect(
      error
        == .idTokenRejected(
          .issuerMismatch(expected: TestJWT.issuer, received: "https://evil.test")))
    #expect(
      error?.message
        == "The provider's id_token was issued by https://evil.test, not https://provider.test "
        + "(iss); check `issuer` in the provider file.")
  }

  @Test func refusesAnIssuerThatDiffersOnlyByATrailingSlash() async throws {
    let error = try await refusal(ofClaims: ["iss": TestJWT.issuer + "/"])
    #expect(error?.code == "id_token_issuer_mismatch")
  }

  @Test func refusesATokenWithAnotherNonce() async throws {
    let error = try await refusal(ofClaims: ["nonce": "replayed"])
    #expect(error == .idTokenRejected(.nonceMismatch))
    #expect(
      error?.message
        == "The provider's id_token does not belong to this sign-in (nonce), so it was refused; "
        + "start a new sign-in.")
  }

  @Test func aClaimGivenTwiceCountsByItsLastValueAsRFC7519Requires() async throws {
    // RFC 7519 §4: refuse the token or read only the lexically last of a name given twice.
    let claims = try JSONSerialization.data(
      withJSONObject: TestJWT.claims(), options: [.sortedKeys])
    let text = String(decoding: claims, as: UTF8.self)
    let body = text.dropFirst().dropLast()
    let lastRight = try TestSigner.rsa.sign(json: #"{"nonce":"replayed","# + body + "}")
    #expect(try await validate(lastRight).nonce == TestJWT.nonce)
    let lastWrong = try TestSigner.rsa.sign(json: "{" + body + #","nonce":"replayed"}"#)
    #expect(await refusal(lastWrong) == .idTokenRejected(.nonceMismatch))
  }

  @Test func refusesATokenWithoutTheNonceThatWasSent() async throws {
    let error = try await refusal(ofClaims: ["nonce": NSNull()])
    #expect(error == .idTokenRejected(.nonceMismatch))
  }

  @Test(arguments: ["none", "None", "NONE"])
  func refusesAnUnsignedToken(algorithm: String) async throws {
    let header = try TestJWT.segment(["alg": algorithm, "typ": "JWT"])
    let token = header + "." + (try TestJWT.segment(TestJWT.claims())) + "."
    let error = await refusal(token)
    #expect(error == .idTokenRejected(.unsigned))
    #expect(error?.code == "id_token_unsigned")
  }

  /// The algorithm-confusion forgery: an attacker who knows the provider's public key signs
  /// with HS256 using the key's bytes as the HMAC secret. A verifier that let the token pick
  /// the algorithm would accept it.
  @Test(arguments: ["der", "jwk-modulus", "jwks"])
  func refusesAnHS256TokenSignedWithThePublicKeyAsSecret(secretForm: String) async throws {
    let publicKey = try TestSigner.rsaKey.publicKey()
    let secret: [UInt8]
    switch secretForm {
    case "der": secret = publicKey.subjectPublicKeyInfo
    case "jwk-modulus": secret = Array((TestSigner.rsa.jwk()["n"] ?? "").utf8)
    default: secret = Array(TestJWT.jwks([.rsa, .ec]).utf8)
    }
    let input =
      try TestJWT.segment(["alg": "HS256", "kid": "rsa-1", "typ": "JWT"]) + "."
      + TestJWT.segment(TestJWT.claims())
    let mac = HMACSHA256.authenticationCode(for: Array(input.utf8), key: secret)
    let error = await refusal(input + "." + Base64URL.encode(mac))
    #expect(error == .idTokenRejected(.symmetricAlgorithm("HS256")))
    #expect(
      error?.message
        == "The provider's id_token is signed with HS256, a shared-secret algorithm a public "
        + "client cannot check, and was refused; have the client registered at the provider "
        + "sign id_tokens with RS256 or ES256.")
  }

  @Test(arguments: [TestSigner.rsa, TestSigner.ec])
  func refusesATokenWithOneSignatureByteFlipped(signer: TestSigner) async throws {
    let token = try signer.sign(TestJWT.claims())
    let parts = token.split(separator: ".").map(String.init)
    var signature = try Base64URL.decode(parts[2])
    signature[signature.count / 2] ^= 0x01
    let error = await refusal(parts[0] + "." + parts[1] + "." + Base64URL.encode(signature))
    #expect(error == .idTokenRejected(.invalidSignature))
    #expect(error?.code == "id_token_invalid_signature")
  }

  @Test func refusesClaimsChangedAfterSigning() async throws {
    let token = try TestSigner.rsa.sign(TestJWT.claims())
    let parts = token.split(separator: ".").map(String.init)
    let forged = try TestJWT.segment(TestJWT.claims(["sub": "admin"]))
    let error = await refusal(parts[0] + "." + forged + "." + parts[2])
    #expect(error == .idTokenRejected(.invalidSignature))
  }

  @Test func refusesAnRS256HeaderNamingTheECKey() async throws {
    let signer = TestSigner(key: TestSigner.rsaKey, kid: "ec-1")
    let error = await refusal(try signer.sign(TestJWT.claims()))
    #expect(
      error
        == .idTokenRejected(
          .unusableKey(kid: "ec-1", reason: "it is an ES256 key and the token says RS256")))
  }

  @Test func refusesOtherAlgorithms() async throws {
    let token = try TestSigner.rsa.sign(TestJWT.claims(), header: ["alg": "PS256"])
    #expect(await refusal(token) == .idTokenRejected(.unsupportedAlgorithm("PS256")))
  }

  @Test func refusesCriticalHeaderExtensions() async throws {
    let token = try TestSigner.rsa.sign(TestJWT.claims(), header: ["crit": ["exp"], "exp": 1])
    #expect(await refusal(token) == .idTokenRejected(.criticalHeader(["exp"])))
  }

  @Test func refusesAccessTokenHashesOfAnotherToken() async throws {
    let claims = TestJWT.claims(["at_hash": IDTokenValidator.accessTokenHash("other-token")])
    let error = await refusal(try TestSigner.rsa.sign(claims))
    #expect(error == .idTokenRejected(.accessTokenHashMismatch))
  }

  @Test func computesAccessTokenHashesAsTheSpecificationShows() {
    // OIDC Core Appendix A.3: the at_hash of this access token.
    #expect(
      IDTokenValidator.accessTokenHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y")
        == "77QmUPtjPfzWtF2AnpK9RQ")
  }

  @Test func refusesSeveralAudiencesWithoutAnAuthorizedParty() async throws {
    let error = try await refusal(ofClaims: ["aud": ["abc123", "api"]])
    #expect(error == .idTokenRejected(.authorizedPartyMismatch(clientID: "abc123")))
    let accepted = try await validate(
      try TestSigner.rsa.sign(TestJWT.claims(["aud": ["abc123", "api"], "azp": "abc123"])))
    #expect(accepted.authorizedParty == "abc123")
  }

  @Test func refusesAnAuthorizedPartyThatIsNotTheClient() async throws {
    let error = try await refusal(ofClaims: ["azp": "other"])
    #expect(error?.code == "id_token_azp_mismatch")
  }

  @Test(arguments: ["sub", "exp", "iat", "aud", "iss"])
  func refusesATokenMissingARequiredClaim(claim: String) async throws {
    let error = try await refusal(ofClaims: [claim: NSNull()])
    #expect(error == .idTokenRejected(.missingClaim(claim)))
  }

  @Test func refusesDatesWrittenAsStrings() async throws {
    let claims = TestJWT.claims(["exp": "\(Int(TestJWT.now.timeIntervalSince1970) + 600)"])
    #expect(
      await refusal(try TestSigner.rsa.sign(claims)) == .idTokenRejected(.missingClaim("exp")))
  }

  @Test(arguments: [
    ("a.b", "it does not have three dot-separated parts"),
    ("a.b.c.d.e", "it is encrypted (JWE), which authtui does not support"),
    ("eyJhbGciOiJSUzI1NiJ9=.e30.AA", "its header is not base64url"),
    ("WzFd.e30.AA", "its header is not a JSON object"),
    ("e30.e30.AA", "its header has no alg"),
  ])
  func refusesTokensThatAreNotCompactJWS(token: String, reason: String) async {
    #expect(await refusal(token) == .idTokenRejected(.malformed(reason)))
  }

  @Test func requiresAnIDTokenWhenANonceWasSent() async throws {
    let provider = await provider()
    let tokens = TokenResponse(accessToken: TestJWT.accessToken, receivedAt: TestJWT.now)
    await #expect(throws: AuthError.idTokenRejected(.missing)) {
      try await provider.validateIDToken(in: tokens, nonce: TestJWT.nonce)
    }
    #expect(try await provider.validateIDToken(in: tokens, nonce: nil) == nil)
    #expect(await transport.requests.isEmpty)
  }

  @Test func checksTheIDTokenOfATokenAnswerWithItsAccessToken() async throws {
    let provider = await provider()
    let tokens = TokenResponse(
      accessToken: "not-the-hashed-one", idToken: try TestSigner.rsa.sign(TestJWT.claims()),
      receivedAt: TestJWT.now)
    await #expect(throws: AuthError.idTokenRejected(.accessTokenHashMismatch)) {
      try await provider.validateIDToken(in: tokens, nonce: TestJWT.nonce)
    }
  }

  @Test func needsAnIssuerToCheckAnything() async throws {
    var configuration = TestProviders.oidc
    configuration.issuer = nil
    configuration.jwksURI = TestProviders.url("/jwks")
    let provider = TestJWT.provider(transport, configuration: configuration)
    let error = await #expect(throws: AuthError.self) {
      try await provider.validateIDToken(
        try TestSigner.rsa.sign(TestJWT.claims()), nonce: nil, accessToken: nil)
    }
    #expect(error == .idTokenRejected(.issuerNotConfigured))
    #expect(error?.exitCode == 1)
  }
}
