import AuthCore
import Crypto
import JSON

/// The keys an issuer signs id_tokens with, published as a JWKS (RFC 7517 §5).
///
/// Keys are made on first use (an RSA key takes a moment, and most tests never need one) and
/// replaced together by `rotate()`, after which the old `kid`s are gone from the JWKS. A `kid`
/// is the key's RFC 7638 thumbprint.
struct SigningKeySet: Sendable {
  struct Entry: Sendable {
    let kid: String
    let key: SigningKey
    let jwk: OrderedJSON
  }

  /// The algorithms this issuer publishes a key for, in JWKS order.
  let algorithms: [SignatureAlgorithm]
  private var entries: [SignatureAlgorithm: Entry] = [:]

  /// A set publishing `algorithms`, starting from the matching keys of `initial` (fresh keys
  /// are made on first use for the others).
  init(algorithms: [SignatureAlgorithm], initial: [SigningKey] = []) {
    self.algorithms = algorithms
    for key in initial where algorithms.contains(key.algorithm) && entries[key.algorithm] == nil {
      entries[key.algorithm] = Self.entry(for: key)
    }
  }

  /// The current key for `algorithm`, made now if there is none yet.
  mutating func entry(for algorithm: SignatureAlgorithm) throws -> Entry {
    if let entry = entries[algorithm] { return entry }
    let entry = try Self.makeEntry(algorithm)
    entries[algorithm] = entry
    return entry
  }

  /// `{"keys":[…]}` with every current key.
  mutating func jwks() throws -> OrderedJSON {
    var keys: [OrderedJSON] = []
    for algorithm in algorithms {
      keys.append(try entry(for: algorithm).jwk)
    }
    return ["keys": .array(keys)]
  }

  /// Replaces every key; returns the new `kid`s.
  mutating func rotate() throws -> [String] {
    entries.removeAll()
    return try algorithms.map { try entry(for: $0).kid }
  }

  private static func makeEntry(_ algorithm: SignatureAlgorithm) throws -> Entry {
    entry(for: try SigningKey.generate(algorithm))
  }

  private static func entry(for key: SigningKey) -> Entry {
    let algorithm = key.algorithm
    // RFC 7638 §3.2: the required members, in lexicographic order, no whitespace.
    let members: [(String, OrderedJSON)]
    let thumbprintInput: OrderedJSON
    switch key.publicParameters {
    case .rsa(let modulus, let exponent):
      let n = Base64URL.encode(modulus.drop { $0 == 0 })
      let e = Base64URL.encode(exponent.drop { $0 == 0 })
      thumbprintInput = ["e": .string(e), "kty": "RSA", "n": .string(n)]
      members = [("kty", "RSA"), ("n", .string(n)), ("e", .string(e))]
    case .p256(let x, let y):
      let xText = Base64URL.encode(x)
      let yText = Base64URL.encode(y)
      thumbprintInput = ["crv": "P-256", "kty": "EC", "x": .string(xText), "y": .string(yText)]
      members = [("kty", "EC"), ("crv", "P-256"), ("x", .string(xText)), ("y", .string(yText))]
    }
    let kid = Base64URL.encode(SHA256.hash(thumbprintInput.text))
    let jwk = OrderedJSON.object(
      members + [("use", "sig"), ("alg", .string(algorithm.rawValue)), ("kid", .string(kid))])
    return Entry(kid: kid, key: key, jwk: jwk)
  }
}

/// JWS compact serialization (RFC 7515 §7.1) of a JWT (RFC 7519).
enum JWS {
  /// `header.claims.signature`, the header naming the algorithm and the key's `kid`.
  static func sign(claims: OrderedJSON, with entry: SigningKeySet.Entry) throws -> String {
    let header: OrderedJSON = [
      "alg": .string(entry.key.algorithm.rawValue), "kid": .string(entry.kid), "typ": "JWT",
    ]
    let signingInput =
      Base64URL.encode(Array(header.text.utf8)) + "." + Base64URL.encode(Array(claims.text.utf8))
    let signature = try entry.key.signature(for: Array(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// OIDC Core §3.1.3.6 `at_hash`: the left half of SHA-256 of the access token, base64url.
  static func accessTokenHash(_ accessToken: String) -> String {
    Base64URL.encode(SHA256.hash(accessToken).prefix(16))
  }
}
