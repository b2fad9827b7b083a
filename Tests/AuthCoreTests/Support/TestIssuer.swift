import AuthCore
import Crypto
import Foundation
import TestSupport

/// A signing key with its `kid` and JWK, for minting id_tokens in tests.
struct TestSigner: Sendable {
  let key: SigningKey
  let kid: String?

  /// One RSA and one P-256 key for the whole test run: key generation is the slow part.
  static let rsaKey: SigningKey = {
    do { return try SigningKey.generate(.rs256) } catch { fatalError("\(error)") }
  }()
  static let ecKey: SigningKey = {
    do { return try SigningKey.generate(.es256) } catch { fatalError("\(error)") }
  }()
  static let otherRSAKey: SigningKey = {
    do { return try SigningKey.generate(.rs256) } catch { fatalError("\(error)") }
  }()

  static let rsa = TestSigner(key: rsaKey, kid: "rsa-1")
  static let ec = TestSigner(key: ecKey, kid: "ec-1")
  static let rotatedRSA = TestSigner(key: otherRSAKey, kid: "rsa-2")

  /// The public JWK members (RFC 7517), with `use` and `alg` unless told otherwise.
  func jwk(extra: [String: String] = ["use": "sig"]) -> [String: String] {
    var members: [String: String]
    switch key.publicParameters {
    case .rsa(let modulus, let exponent):
      members = [
        "kty": "RSA", "n": Base64URL.encode(modulus.drop { $0 == 0 }),
        "e": Base64URL.encode(exponent.drop { $0 == 0 }),
      ]
    case .p256(let x, let y):
      members = ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(x), "y": Base64URL.encode(y)]
    }
    if let kid { members["kid"] = kid }
    return members.merging(extra) { _, new in new }
  }

  /// A compact JWS of `claims` signed with this key; `header` members are added to (or replace)
  /// `alg`, `kid` and `typ`.
  func sign(_ claims: [String: Any], header: [String: Any] = [:]) throws -> String {
    var fullHeader: [String: Any] = ["alg": key.algorithm.rawValue, "typ": "JWT"]
    if let kid { fullHeader["kid"] = kid }
    fullHeader.merge(header) { _, new in new }
    return try sign(payload: TestJWT.segment(claims), header: fullHeader)
  }

  /// A compact JWS of the claims written out as `json`, exactly as given (a name twice, say).
  func sign(json: String) throws -> String {
    var header: [String: Any] = ["alg": key.algorithm.rawValue, "typ": "JWT"]
    if let kid { header["kid"] = kid }
    return try sign(payload: Base64URL.encode(Array(json.utf8)), header: header)
  }

  private func sign(payload: String, header: [String: Any]) throws -> String {
    let input = try TestJWT.segment(header) + "." + payload
    return input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
  }
}

enum TestJWT {
  static let issuer = TestProviders.host
  static let clientID = "abc123"
  static let nonce = "n-0S6_WzA2Mj"
  static let accessToken = "access-token-1"
  /// ManualClock's default time.
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// The claims of a valid id_token for `TestProviders.oidc`, with `changes` applied (a value
  /// of `NSNull()` removes the claim).
  static func claims(_ changes: [String: Any] = [:]) -> [String: Any] {
    var claims: [String: Any] = [
      "iss": issuer, "sub": "user-42", "aud": clientID,
      "exp": Int(now.timeIntervalSince1970) + 600, "iat": Int(now.timeIntervalSince1970) - 5,
      "nonce": nonce, "at_hash": IDTokenValidator.accessTokenHash(accessToken),
      "preferred_username": "alice", "email": "alice@example.com", "name": "Alice Example",
    ]
    for (name, value) in changes {
      claims[name] = value is NSNull ? nil : value
    }
    return claims
  }

  /// base64url of the JSON of `object`, keys sorted.
  static func segment(_ object: [String: Any]) throws -> String {
    Base64URL.encode(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
  }

  /// `{"keys": [...]}` with the JWKs of `signers` and any `extra` raw members.
  static func jwks(_ signers: [TestSigner], extra: [[String: String]] = []) -> String {
    let keys = signers.map { $0.jwk() } + extra
    let data =
      (try? JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys]))
      ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// A discovery document for `TestProviders.host` with the usual endpoints, `changes` applied.
  static func discovery(_ changes: [String: Any] = [:]) -> String {
    var document: [String: Any] = [
      "issuer": issuer,
      "authorization_endpoint": issuer + "/authorize",
      "token_endpoint": issuer + "/token",
      "device_authorization_endpoint": issuer + "/device",
      "revocation_endpoint": issuer + "/revoke",
      "userinfo_endpoint": issuer + "/userinfo",
      "end_session_endpoint": issuer + "/logout",
      "jwks_uri": issuer + "/jwks",
      "id_token_signing_alg_values_supported": ["RS256", "ES256"],
      "code_challenge_methods_supported": ["S256"],
      "authorization_response_iss_parameter_supported": true,
    ]
    for (name, value) in changes {
      document[name] = value is NSNull ? nil : value
    }
    let data =
      (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// A provider for `TestProviders.oidc` over `transport`, with discovery at the fake host.
  static func provider(
    _ transport: FakeTransport, configuration: ProviderConfiguration = TestProviders.oidc,
    clock: ManualClock = ManualClock()
  ) -> OIDCProvider {
    OIDCProvider(configuration: configuration, transport: transport, clock: clock)
  }
}
