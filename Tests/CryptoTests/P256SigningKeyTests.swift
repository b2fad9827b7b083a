import Crypto
import Testing

/// The P-256 key pair a DPoP client signs its proofs with: RFC 7515 Appendix A.3's key
/// imported from its `d`, signatures that verify, the private key's way to the vault and back,
/// and a description that never shows it.
@Suite struct P256SigningKeyTests {
  /// RFC 7515 Appendix A.3.1's private key `d`; its `x` and `y` are `SignatureTests`'.
  static let dA3 = "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"

  static func keyA3() throws -> P256SigningKey {
    try P256SigningKey(rawRepresentation: Base64URL.decode(Self.dA3))
  }

  @Test func derivesTheRFC7515AppendixA3PublicKeyFromItsPrivateScalar() throws {
    let key = try Self.keyA3()
    let expected = JWKPublicParameters.p256(
      x: try Base64URL.decode(SignatureTests.xA3), y: try Base64URL.decode(SignatureTests.yA3))
    #expect(key.publicParameters == expected)
    #expect(key.rawRepresentation == (try Base64URL.decode(Self.dA3)))
  }

  @Test func theImportedA3KeyVerifiesTheRFCsSignatureAndItsOwn() throws {
    let key = try Self.keyA3()
    let verifier = try key.publicKey()
    let message = bytes(SignatureTests.signingInputA3)
    let published = try Base64URL.decode(SignatureTests.signatureA3)
    #expect(verifier.isValidSignature(published, for: message, algorithm: .es256))
    // ECDSA is randomized: its own signature differs from the RFC's and still verifies.
    let own = try key.signature(for: message)
    #expect(own.count == 64)
    #expect(own != published)
    #expect(verifier.isValidSignature(own, for: message, algorithm: .es256))
    #expect(!verifier.isValidSignature(own, for: message + [0x2E], algorithm: .es256))
  }

  @Test func aGeneratedKeyComesBackFromItsRawRepresentation() throws {
    let key = try P256SigningKey.generate()
    let raw = key.rawRepresentation
    #expect(raw.count == P256SigningKey.rawByteCount)
    let restored = try P256SigningKey(rawRepresentation: raw)
    #expect(restored.publicParameters == key.publicParameters)
    #expect(restored.thumbprint == key.thumbprint)
    let message = bytes("header.payload")
    let signature = try restored.signature(for: message)
    #expect(signature.count == 64)
    #expect(try key.publicKey().isValidSignature(signature, for: message, algorithm: .es256))
  }

  @Test func twoGeneratedKeysDiffer() throws {
    let first = try P256SigningKey.generate()
    let second = try P256SigningKey.generate()
    #expect(first.rawRepresentation != second.rawRepresentation)
    #expect(first.thumbprint != second.thumbprint)
  }

  /// The curve's order `n` (SEC 2 §2.4.2), the first value that is no private key.
  static let order = hex(
    "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")

  @Test(arguments: [
    [UInt8](repeating: 0, count: 32), order,
    hex(
      "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632552"),
    [UInt8](repeating: 0xFF, count: 32), [UInt8](repeating: 1, count: 31),
    [UInt8](repeating: 1, count: 33), [],
  ])
  func refusesWhatIsNoPrivateKey(raw: [UInt8]) {
    #expect(throws: CryptoError.self) { try P256SigningKey(rawRepresentation: raw) }
  }

  @Test func acceptsTheLargestAndSmallestPrivateKeys() throws {
    var largest = Self.order
    largest[31] -= 1
    _ = try P256SigningKey(rawRepresentation: largest)
    _ = try P256SigningKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [1])
  }

  @Test func neverShowsThePrivateKey() throws {
    let key = try Self.keyA3()
    var dumped = ""
    dump(key, to: &dumped)
    let texts = [
      key.description, String(describing: key), String(reflecting: key), "\(key)", dumped,
    ]
    let raw = key.rawRepresentation
    for text in texts {
      #expect(!text.contains(Self.dA3))
      #expect(!text.lowercased().contains(hexString(raw)))
      #expect(!text.contains(String(describing: raw)))
    }
    #expect(key.description.contains(key.thumbprint))
  }
}
