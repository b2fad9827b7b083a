import Crypto
import Foundation
import JSON
import TestSupport
import Testing

@testable import AuthCore

/// The JWKS kept by `OIDCProvider`: fetched once, fetched again once when a token names a key
/// it lacks (rotation), and not hammered by tokens naming keys that do not exist.
@Suite struct KeyRotationTests {
  let transport = FakeTransport()
  let clock = ManualClock()

  func provider() async -> OIDCProvider {
    await transport.enqueue(
      "/.well-known/openid-configuration", FakeTransport.json(TestJWT.discovery()))
    return TestJWT.provider(transport, clock: clock)
  }

  func validate(_ provider: OIDCProvider, _ signer: TestSigner) async throws(AuthError) -> IDToken {
    let token: String
    do {
      token = try signer.sign(TestJWT.claims())
    } catch {
      throw .malformedResponse("signing failed: \(error)")
    }
    return try await provider.validateIDToken(
      token, nonce: TestJWT.nonce, accessToken: TestJWT.accessToken)
  }

  /// The key sets the provider's `jwks_uri` answers, one per fetch, in turn.
  func publish(_ keySets: [TestSigner]...) async {
    for keys in keySets {
      await transport.enqueue("/jwks", FakeTransport.json(TestJWT.jwks(keys)))
    }
  }

  var jwksFetches: Int {
    get async { await transport.requests(to: "/jwks").count }
  }

  @Test func fetchesDiscoveryAndKeysOnceForManySignIns() async throws {
    let provider = await provider()
    await publish([.rsa, .ec])
    for signer in [TestSigner.rsa, .ec, .rsa] {
      _ = try await validate(provider, signer)
    }
    #expect(await transport.requests(to: "/.well-known/openid-configuration").count == 1)
    #expect(await jwksFetches == 1)
  }

  @Test func refetchesTheKeysOnceWhenATokenNamesANewKid() async throws {
    let provider = await provider()
    await publish([.rsa], [.rotatedRSA])
    _ = try await validate(provider, .rsa)
    let token = try await validate(provider, .rotatedRSA)
    #expect(token.keyID == "rsa-2")
    #expect(await jwksFetches == 2)
    // The rotated set is kept: the next token with the new key costs nothing.
    _ = try await validate(provider, .rotatedRSA)
    #expect(await jwksFetches == 2)
  }

  @Test func doesNotRefetchForASecondUnknownKidInTheSameRun() async throws {
    let provider = await provider()
    await publish([.rsa], [.rotatedRSA], [.rsa, .rotatedRSA, .ec])
    _ = try await validate(provider, .rotatedRSA)
    #expect(await jwksFetches == 2)
    let stranger = TestSigner(key: TestSigner.rsaKey, kid: "never-published")
    await #expect(throws: AuthError.idTokenRejected(.unknownKey(kid: "never-published"))) {
      try await validate(provider, stranger)
    }
    // The old key is gone from the kept set, and no third fetch brings it back.
    await #expect(throws: AuthError.idTokenRejected(.unknownKey(kid: "rsa-1"))) {
      try await validate(provider, .rsa)
    }
    #expect(await jwksFetches == 2)
  }

  @Test func refusesAKidStillMissingAfterTheRefetchWithAMessageSayingSo() async throws {
    let provider = await provider()
    await publish([.rsa], [.rsa])
    let error = await #expect(throws: AuthError.self) {
      try await validate(provider, .rotatedRSA)
    }
    #expect(error == .idTokenRejected(.unknownKey(kid: "rsa-2")))
    #expect(
      error?.message
        == "The provider's id_token is signed with key rsa-2, which is not among the provider's "
        + "published keys even after fetching them again; try again in a few minutes, and check "
        + "`jwks_uri` in the provider file if it keeps happening.")
    #expect(await jwksFetches == 2)
  }

  @Test func followsALaterRotationOnceTheRefetchIntervalHasPassed() async throws {
    let provider = await provider()
    let third = TestSigner(key: TestSigner.ecKey, kid: "ec-3")
    await publish([.rsa], [.rotatedRSA], [third])
    _ = try await validate(provider, .rotatedRSA)
    await clock.advance(by: provider.keyRefetchInterval)
    let token = try await validate(provider, third)
    #expect(token.keyID == "ec-3")
    #expect(await jwksFetches == 3)
  }

  @Test func sharesOneRefetchBetweenConcurrentSignIns() async throws {
    let provider = await provider()
    await publish([.rsa], [.rotatedRSA])
    async let first = validate(provider, .rotatedRSA)
    async let second = validate(provider, .rotatedRSA)
    let keyIDs = try await [first.keyID, second.keyID]
    #expect(keyIDs == ["rsa-2", "rsa-2"])
    #expect(await jwksFetches == 2)
  }

  @Test func triesAgainAfterAFailedKeyFetch() async throws {
    let provider = await provider()
    await transport.enqueue(
      "/jwks", .failure(.connectionLost(host: "provider.test")),
      FakeTransport.json(TestJWT.jwks([.rsa])))
    await #expect(throws: AuthError.transport(.connectionLost(host: "provider.test"))) {
      try await validate(provider, .rsa)
    }
    _ = try await validate(provider, .rsa)
    #expect(await jwksFetches == 2)
  }
}

/// Reading a JWK Set (RFC 7517 §5): which keys are kept, and why the others are not.
@Suite struct JSONWebKeySetTests {
  func keySet(_ json: String) throws -> JSONWebKeySet {
    let object = try #require(JSONValue.object(from: Data(json.utf8)))
    return try JSONWebKeySet(json: object)
  }

  @Test func keepsRSAAndP256SigningKeysAndSaysWhyOthersAreSkipped() throws {
    let rsa = TestSigner.rsa.jwk()
    let extra: [[String: String]] = [
      TestSigner(key: TestSigner.otherRSAKey, kid: "enc").jwk(extra: ["use": "enc"]),
      ["kty": "oct", "kid": "hmac", "k": "c2VjcmV0"],
      ["kty": "EC", "crv": "P-384", "kid": "p384", "x": "AA", "y": "AA"],
      ["kty": "OKP", "crv": "Ed25519", "kid": "ed", "x": "AA"],
      TestSigner(key: TestSigner.otherRSAKey, kid: "ps").jwk(extra: ["alg": "PS256"]),
      [
        "kty": "RSA", "kid": "short", "n": Base64URL.encode([UInt8](repeating: 0xC5, count: 128)),
        "e": "AQAB",
      ],
      ["kty": "RSA", "kid": "padded", "n": (rsa["n"] ?? "") + "=", "e": "AQAB"],
    ]
    let set = try keySet(TestJWT.jwks([.rsa, .ec], extra: extra))
    #expect(set.keys.map(\.keyID) == ["rsa-1", "ec-1"])
    #expect(set.keys.map(\.publicKey.algorithm) == [.rs256, .es256])
    let reasons = Dictionary(uniqueKeysWithValues: set.skipped.map { ($0.keyID ?? "", $0.reason) })
    #expect(reasons["enc"] == "its use is enc, not sig")
    #expect(reasons["hmac"] == "its key type oct is not supported (only RSA and EC)")
    #expect(reasons["p384"] == "its curve P-384 is not supported (only P-256)")
    #expect(reasons["ed"] == "its key type OKP is not supported (only RSA and EC)")
    #expect(reasons["ps"] == "it is meant for PS256, not RS256")
    #expect(reasons["short"]?.contains("1024 bits") == true)
    #expect(reasons["padded"] == "its `n` is not base64url")
  }

  @Test func refusesATokenNamingASkippedKeyWithTheReason() throws {
    let set = try keySet(
      TestJWT.jwks([.ec], extra: [TestSigner.rsa.jwk(extra: ["use": "enc"])]))
    let validator = IDTokenValidator(issuer: TestJWT.issuer, clientID: TestJWT.clientID)
    #expect(throws: IDTokenError.unusableKey(kid: "rsa-1", reason: "its use is enc, not sig")) {
      try validator.validate(
        try TestSigner.rsa.sign(TestJWT.claims()), keys: set, now: TestJWT.now,
        nonce: TestJWT.nonce, accessToken: TestJWT.accessToken)
    }
  }

  @Test func refusesATokenWithoutKidWhenSeveralKeysOfItsTypeExist() throws {
    let set = try keySet(TestJWT.jwks([.rsa, .rotatedRSA]))
    let validator = IDTokenValidator(issuer: TestJWT.issuer, clientID: TestJWT.clientID)
    let signer = TestSigner(key: TestSigner.rsaKey, kid: nil)
    #expect(throws: IDTokenError.ambiguousKey) {
      try validator.validate(
        try signer.sign(TestJWT.claims()), keys: set, now: TestJWT.now, nonce: nil,
        accessToken: nil)
    }
  }

  @Test func refusesADocumentWithoutAKeysArray() {
    #expect(
      throws: AuthError.malformedResponse("the provider's jwks_uri answer has no `keys` array")
    ) {
      try keySet(#"{"keys": {}}"#)
    }
  }
}
