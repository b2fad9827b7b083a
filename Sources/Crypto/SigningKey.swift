/// The public half of a key in JWK terms (RFC 7518 §6), as raw big-endian bytes.
public enum JWKPublicParameters: Sendable, Equatable {
  /// `kty` = `RSA`: modulus `n` and exponent `e`.
  case rsa(modulus: [UInt8], exponent: [UInt8])
  /// `kty` = `EC`, `crv` = `P-256`: coordinates `x` and `y`, 32 bytes each.
  case p256(x: [UInt8], y: [UInt8])

  /// The verifier for this key.
  public func publicKey() throws -> PublicKey {
    switch self {
    case .rsa(let modulus, let exponent): return try .rsa(modulus: modulus, exponent: exponent)
    case .p256(let x, let y): return try .p256(x: x, y: y)
    }
  }
}

/// A private key that produces JWS signatures: what an authorization server (the sandbox
/// provider) signs id_tokens with. authtui itself only ever verifies.
public struct SigningKey: Sendable {
  /// The algorithm this key signs with.
  public let algorithm: SignatureAlgorithm
  /// DER private key; kept as bytes so the value holds no OpenSSL handle between uses.
  let privateKeyDER: [UInt8]
  /// The public half, as JWK parameters.
  public let publicParameters: JWKPublicParameters

  /// A fresh key: RSA 2048 for RS256, P-256 for ES256.
  public static func generate(_ algorithm: SignatureAlgorithm) throws -> SigningKey {
    try generateWithOpenSSL(algorithm)
  }

  /// The verifier for this key's signatures.
  public func publicKey() throws -> PublicKey {
    try publicParameters.publicKey()
  }

  /// Signs `message` with SHA-256; ES256 signatures come back as JWS `r ‖ s` (64 bytes).
  public func signature(for message: [UInt8]) throws -> [UInt8] {
    try signWithOpenSSL(message)
  }
}
