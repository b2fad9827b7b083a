import Crypto
import Testing

/// RFC 7914 §12. The fourth vector (N = 2^20, 1 GiB of memory) is left out: it would double the
/// test suite's peak memory and prove nothing the third does not.
@Suite struct ScryptTests {
  /// The 64-byte key of one RFC 7914 §12 vector, in hex.
  private func derivedKey(
    password: String, salt: String, cost: UInt64, blockSize: UInt32, parallelism: UInt32
  ) throws -> String {
    hexString(
      try Scrypt.deriveKey(
        password: bytes(password), salt: bytes(salt),
        parameters: Scrypt.Parameters(cost: cost, blockSize: blockSize, parallelism: parallelism),
        byteCount: 64))
  }

  @Test func derivesTheFirstRFC7914Vector() throws {
    #expect(
      try derivedKey(password: "", salt: "", cost: 16, blockSize: 1, parallelism: 1)
        == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
        + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
  }

  @Test func derivesTheSecondRFC7914Vector() throws {
    #expect(
      try derivedKey(password: "password", salt: "NaCl", cost: 1024, blockSize: 8, parallelism: 16)
        == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
        + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
  }

  @Test func derivesTheThirdRFC7914Vector() throws {
    #expect(
      try derivedKey(
        password: "pleaseletmein", salt: "SodiumChloride", cost: 16384, blockSize: 8,
        parallelism: 1)
        == "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
        + "d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887")
  }

  @Test func derivesADifferentKeyForAPasswordOneCharacterOff() throws {
    let parameters = try Scrypt.Parameters(cost: 16, blockSize: 1, parallelism: 1)
    let right = try Scrypt.deriveKey(
      password: bytes("password"), salt: bytes("NaCl"), parameters: parameters, byteCount: 32)
    let wrong = try Scrypt.deriveKey(
      password: bytes("passwore"), salt: bytes("NaCl"), parameters: parameters, byteCount: 32)
    #expect(right != wrong)
  }

  @Test func runsTheVaultParametersThatExceedOpenSSLsDefaultMemoryCap() throws {
    let key = try Scrypt.deriveKey(
      password: bytes("correct horse"), salt: [UInt8](repeating: 7, count: 32),
      parameters: .interactive, byteCount: 32)
    #expect(key.count == 32)
  }

  @Test(arguments: [(UInt64(0), UInt32(8)), (1, 8), (1000, 8), (1024, 0)])
  func refusesParametersOutsideRFC7914(cost: UInt64, blockSize: UInt32) {
    #expect(throws: CryptoError.self) {
      try Scrypt.Parameters(cost: cost, blockSize: blockSize, parallelism: 1)
    }
  }
}
