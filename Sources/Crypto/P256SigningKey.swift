/// A P-256 private key that signs ES256 (RFC 7518 §3.4): the key pair a client holds to prove
/// possession of the tokens bound to it (DPoP, RFC 9449 §2), one per account.
///
/// The private half leaves the value only through `rawRepresentation`, the 32-byte scalar `d`,
/// meant to be sealed in the vault like a token and read back with
/// `init(rawRepresentation:)`. It never prints: `description`, `debugDescription`, `dump` and
/// string interpolation show the public key's thumbprint and nothing of `d`.
public struct P256SigningKey: Sendable {
  /// The length of `rawRepresentation`, in bytes.
  public static let rawByteCount = 32

  /// The private scalar `d`, big-endian, 32 bytes.
  private let scalar: [UInt8]
  /// The same key as OpenSSL reads it, for signing.
  private let signer: SigningKey

  /// A fresh key pair from the operating system's CSPRNG (OpenSSL's generator, seeded from
  /// `getrandom(2)`).
  public static func generate() throws -> P256SigningKey {
    let signer = try SigningKey.generate(.es256)
    return P256SigningKey(scalar: try signer.privateScalar(), signer: signer)
  }

  /// The key whose private scalar is `rawRepresentation`: 32 bytes, big-endian, between 1 and
  /// the curve's order less one (SEC 1 §3.2.1), as `rawRepresentation` gives it and as the
  /// JWK member `d` holds it (RFC 7518 §6.2.2.1). The public key is derived from it.
  public init(rawRepresentation: [UInt8]) throws {
    guard rawRepresentation.count == Self.rawByteCount else {
      throw CryptoError.invalidParameter(
        "a P-256 private key is \(Self.rawByteCount) bytes, not \(rawRepresentation.count)")
    }
    guard Self.isInRange(rawRepresentation) else {
      throw CryptoError.invalidParameter(
        "a P-256 private key lies between 1 and the curve's order less one")
    }
    self.init(scalar: rawRepresentation, signer: try SigningKey.p256(scalar: rawRepresentation))
  }

  private init(scalar: [UInt8], signer: SigningKey) {
    self.scalar = scalar
    self.signer = signer
  }

  /// The private scalar `d`, 32 bytes big-endian: what the vault seals. Nothing else of the
  /// key needs storing.
  public var rawRepresentation: [UInt8] { scalar }

  /// The public key as JWK parameters: `.p256(x:y:)`.
  public var publicParameters: JWKPublicParameters { signer.publicParameters }

  /// The verifier of this key's signatures.
  public func publicKey() throws -> PublicKey {
    try signer.publicKey()
  }

  /// The public key's RFC 7638 thumbprint (SHA-256, base64url): its `jkt` (RFC 9449 §6.1).
  public var thumbprint: String { publicParameters.thumbprint }

  /// An ES256 signature of `message` in the JWS form, `r ‖ s`, 64 bytes (RFC 7518 §3.4).
  public func signature(for message: [UInt8]) throws -> [UInt8] {
    try signer.signature(for: message)
  }

  /// The order `n` of P-256's base point (SEC 2 §2.4.2).
  private static let order: [UInt8] = [
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
  ]

  /// True when the 32 big-endian bytes are neither 0 nor `n` or more.
  private static func isInRange(_ scalar: [UInt8]) -> Bool {
    guard scalar.contains(where: { $0 != 0 }) else { return false }
    for (byte, limit) in zip(scalar, order) where byte != limit {
      return byte < limit
    }
    return false
  }
}

extension P256SigningKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The thumbprint only: the private key never reaches a log or a terminal.
  public var description: String { "P256SigningKey(jkt: \(thumbprint), private key hidden)" }
  public var debugDescription: String { description }
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}
