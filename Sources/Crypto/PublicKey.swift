/// The JWS signature algorithms authtui accepts for id_tokens (RFC 7518 §3.1).
///
/// Deliberately closed: `none` and the HMAC family are not representable, so a token naming them
/// can never reach a verifier.
public enum SignatureAlgorithm: String, Sendable, CaseIterable {
  /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3).
  case rs256 = "RS256"
  /// ECDSA on P-256 with SHA-256 (RFC 7518 §3.4).
  case es256 = "ES256"
}

/// A public key that verifies JWS signatures, built from JWK parameters (RFC 7518 §6).
///
/// Stored as its DER SubjectPublicKeyInfo, so the value is plain data: `Sendable`, comparable and
/// free of OpenSSL handles outside a verification.
public struct PublicKey: Sendable, Equatable {
  /// The algorithm this key verifies; a JWK is bound to one key type.
  public let algorithm: SignatureAlgorithm
  /// DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
  public let subjectPublicKeyInfo: [UInt8]

  /// An RSA key from the JWK `n` and `e` members, already base64url-decoded.
  ///
  /// Keys under 2048 bits are refused (RFC 7518 §3.3).
  public static func rsa(modulus: [UInt8], exponent: [UInt8]) throws -> PublicKey {
    let modulus = Array(modulus.drop { $0 == 0 })
    let exponent = Array(exponent.drop { $0 == 0 })
    guard modulus.count * 8 >= 2048 else {
      throw CryptoError.invalidPublicKey(
        "RSA modulus `n` has \(modulus.count * 8) bits; RS256 needs at least 2048")
    }
    guard !exponent.isEmpty, exponent.count <= 8 else {
      throw CryptoError.invalidPublicKey("RSA exponent `e` is missing or implausibly long")
    }
    let key = PublicKey(
      algorithm: .rs256,
      subjectPublicKeyInfo: DER.rsaSubjectPublicKeyInfo(modulus: modulus, exponent: exponent))
    try key.checkLoads()
    return key
  }

  /// A P-256 key from the JWK `x` and `y` members (`crv` = `P-256`), already base64url-decoded.
  ///
  /// Each coordinate must be exactly 32 bytes (RFC 7518 §6.2.1.2) and the point must lie on the
  /// curve.
  public static func p256(x: [UInt8], y: [UInt8]) throws -> PublicKey {
    guard x.count == 32, y.count == 32 else {
      throw CryptoError.invalidPublicKey(
        "P-256 coordinates `x` and `y` are 32 bytes each, not \(x.count) and \(y.count)")
    }
    let key = PublicKey(
      algorithm: .es256, subjectPublicKeyInfo: DER.p256SubjectPublicKeyInfo(x: x, y: y))
    try key.checkLoads()
    return key
  }

  /// True when `signature` is a valid `algorithm` signature of `message` under this key.
  ///
  /// For ES256 the signature is the JWS form, `r ‖ s`, 64 bytes (RFC 7518 §3.4). A mismatch
  /// between `algorithm` and the key type is simply invalid.
  public func isValidSignature(
    _ signature: [UInt8], for message: [UInt8], algorithm: SignatureAlgorithm
  ) -> Bool {
    guard algorithm == self.algorithm else { return false }
    switch algorithm {
    case .rs256:
      return verifyWithOpenSSL(signature: signature, message: message)
    case .es256:
      guard signature.count == 64 else { return false }
      return verifyWithOpenSSL(signature: DER.ecdsaSignature(raw: signature), message: message)
    }
  }
}
