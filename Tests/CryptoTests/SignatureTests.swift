import Crypto
import Testing

/// RFC 7515 Appendix A.2 (RS256) and A.3 (ES256): the published keys and signatures verify, and
/// one altered byte anywhere does not.
@Suite struct SignatureTests {
  static let signingInputA2 =
    "eyJhbGciOiJSUzI1NiJ9"
    + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
  static let modulusA2 =
    "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddx"
    + "HmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMs"
    + "D1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSH"
    + "SXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdV"
    + "MTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8"
    + "NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"
  static let signatureA2 =
    "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7"
    + "AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4"
    + "BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K"
    + "0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqv"
    + "hJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrB"
    + "p0igcN_IoypGlUPQGe77Rw"

  static let signingInputA3 =
    "eyJhbGciOiJFUzI1NiJ9"
    + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
  static let xA3 = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
  static let yA3 = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
  static let signatureA3 =
    "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

  func rsaKey() throws -> PublicKey {
    try PublicKey.rsa(modulus: Base64URL.decode(Self.modulusA2), exponent: Base64URL.decode("AQAB"))
  }

  func ecKey() throws -> PublicKey {
    try PublicKey.p256(x: Base64URL.decode(Self.xA3), y: Base64URL.decode(Self.yA3))
  }

  @Test func verifiesTheRFC7515AppendixA2Signature() throws {
    let signature = try Base64URL.decode(Self.signatureA2)
    #expect(
      try rsaKey().isValidSignature(signature, for: bytes(Self.signingInputA2), algorithm: .rs256))
  }

  @Test func verifiesTheRFC7515AppendixA3Signature() throws {
    let signature = try Base64URL.decode(Self.signatureA3)
    #expect(
      try ecKey().isValidSignature(signature, for: bytes(Self.signingInputA3), algorithm: .es256))
  }

  @Test(arguments: [0, 100, 255])
  func rejectsTheA2SignatureWithOneByteAltered(position: Int) throws {
    var signature = try Base64URL.decode(Self.signatureA2)
    signature[position] ^= 0x01
    #expect(
      try !rsaKey().isValidSignature(signature, for: bytes(Self.signingInputA2), algorithm: .rs256))
  }

  @Test(arguments: [0, 31, 32, 63])
  func rejectsTheA3SignatureWithOneByteAltered(position: Int) throws {
    var signature = try Base64URL.decode(Self.signatureA3)
    signature[position] ^= 0x01
    #expect(
      try !ecKey().isValidSignature(signature, for: bytes(Self.signingInputA3), algorithm: .es256))
  }

  @Test func rejectsTheA2SignatureOverAPayloadWithOneByteAltered() throws {
    var message = bytes(Self.signingInputA2)
    message[message.count - 1] ^= 0x01
    let signature = try Base64URL.decode(Self.signatureA2)
    #expect(try !rsaKey().isValidSignature(signature, for: message, algorithm: .rs256))
  }

  @Test func rejectsTheA3SignatureOverAPayloadWithOneByteAltered() throws {
    var message = bytes(Self.signingInputA3)
    message[5] ^= 0x01
    let signature = try Base64URL.decode(Self.signatureA3)
    #expect(try !ecKey().isValidSignature(signature, for: message, algorithm: .es256))
  }

  @Test func rejectsASignatureCheckedUnderTheOtherAlgorithm() throws {
    let signature = try Base64URL.decode(Self.signatureA3)
    #expect(
      try !ecKey().isValidSignature(signature, for: bytes(Self.signingInputA3), algorithm: .rs256))
  }

  @Test func rejectsAnA3KeyWithOneCoordinateByteAlteredAsOffTheCurve() throws {
    var y = try Base64URL.decode(Self.yA3)
    y[10] ^= 0x01
    let x = try Base64URL.decode(Self.xA3)
    #expect(throws: CryptoError.self) { try PublicKey.p256(x: x, y: y) }
  }

  @Test func refusesRSAKeysShorterThan2048Bits() throws {
    let short = Array(try Base64URL.decode(Self.modulusA2).prefix(128))
    #expect(throws: CryptoError.self) { try PublicKey.rsa(modulus: short, exponent: [1, 0, 1]) }
  }

  @Test(arguments: SignatureAlgorithm.allCases)
  func signsWhatItsPublicKeyVerifiesAndNothingElse(algorithm: SignatureAlgorithm) throws {
    let key = try SigningKey.generate(algorithm)
    let message = bytes("header.payload")
    var signature = try key.signature(for: message)
    if algorithm == .es256 { #expect(signature.count == 64) }
    let publicKey = try key.publicKey()
    #expect(publicKey.isValidSignature(signature, for: message, algorithm: algorithm))
    signature[signature.count / 2] ^= 0x01
    #expect(!publicKey.isValidSignature(signature, for: message, algorithm: algorithm))
  }
}
