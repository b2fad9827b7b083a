/// The few ASN.1 DER encodings needed to hand JWK public keys and JWS signatures to OpenSSL
/// (X.690 §8 and §10). Building DER here keeps OpenSSL's parameter-builder API, whose string
/// arguments outlive Swift's temporary bridging, out of the picture.
enum DER {
  /// Object identifiers, already DER-encoded with their tag and length.
  static let rsaEncryption: [UInt8] = [
    0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01,
  ]
  static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
  static let prime256v1: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
  static let null: [UInt8] = [0x05, 0x00]

  static func length(_ count: Int) -> [UInt8] {
    if count < 0x80 { return [UInt8(count)] }
    var bytes: [UInt8] = []
    var remaining = count
    while remaining > 0 {
      bytes.insert(UInt8(remaining & 0xFF), at: 0)
      remaining >>= 8
    }
    return [0x80 | UInt8(bytes.count)] + bytes
  }

  static func element(tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    [tag] + length(content.count) + content
  }

  static func sequence(_ parts: [UInt8]...) -> [UInt8] {
    element(tag: 0x30, parts.flatMap { $0 })
  }

  /// A non-negative INTEGER from big-endian magnitude bytes.
  static func unsignedInteger(_ magnitude: [UInt8]) -> [UInt8] {
    var bytes = Array(magnitude.drop { $0 == 0 })
    if bytes.isEmpty { bytes = [0] }
    if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
    return element(tag: 0x02, bytes)
  }

  static func bitString(_ content: [UInt8]) -> [UInt8] {
    element(tag: 0x03, [0x00] + content)
  }

  /// SubjectPublicKeyInfo (RFC 5280 §4.1) for an RSA key (RFC 8017 A.1.1).
  static func rsaSubjectPublicKeyInfo(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
    sequence(
      sequence(rsaEncryption, null),
      bitString(sequence(unsignedInteger(modulus), unsignedInteger(exponent))))
  }

  /// SubjectPublicKeyInfo (RFC 5480 §2) for an uncompressed P-256 point.
  static func p256SubjectPublicKeyInfo(x: [UInt8], y: [UInt8]) -> [UInt8] {
    sequence(sequence(ecPublicKey, prime256v1), bitString([0x04] + x + y))
  }

  /// ECPrivateKey (RFC 5915 §3) on P-256 with the private scalar only: OpenSSL computes the
  /// public point from it when it reads the key (`d2i_ECPrivateKey`).
  static func p256PrivateKey(scalar: [UInt8]) -> [UInt8] {
    sequence(element(tag: 0x02, [0x01]), element(tag: 0x04, scalar), element(tag: 0xA0, prime256v1))
  }

  /// ECDSA-Sig-Value (RFC 3279 §2.2.3) from the raw `r ‖ s` that JWS carries (RFC 7518 §3.4).
  static func ecdsaSignature(raw: [UInt8]) -> [UInt8] {
    let half = raw.count / 2
    return sequence(unsignedInteger(Array(raw[..<half])), unsignedInteger(Array(raw[half...])))
  }
}
