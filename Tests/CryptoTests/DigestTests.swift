import Crypto
import Testing

@Suite struct DigestTests {
  /// FIPS 180-4 examples, as published in NIST's "SHA256.pdf" example values.
  @Test func hashesTheNISTExamples() {
    #expect(
      hexString(SHA256.hash("abc"))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hexString(SHA256.hash(""))
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      hexString(SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func hashesAMillionAs() {
    let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      hexString(SHA256.hash(input))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// RFC 4231 §4.2 and §4.3 (test cases 1 and 2).
  @Test func authenticatesTheRFC4231Vectors() {
    #expect(
      hexString(
        HMACSHA256.authenticationCode(
          for: bytes("Hi There"), key: [UInt8](repeating: 0x0B, count: 20)))
        == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    #expect(
      hexString(
        HMACSHA256.authenticationCode(
          for: bytes("what do ya want for nothing?"), key: bytes("Jefe")))
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
  }

  /// RFC 4231 §4.7 (test case 6): a key longer than the block is hashed first.
  @Test func authenticatesWithAKeyLongerThanTheBlock() {
    let code = HMACSHA256.authenticationCode(
      for: bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
      key: [UInt8](repeating: 0xAA, count: 131))
    #expect(hexString(code) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }

  /// One key for many messages (`HMACSHA256.Key`, what the vault's name index uses): the
  /// RFC 4231 codes, one message after another under the same key, and the same codes as the
  /// one-shot for keys empty, short and longer than the block.
  @Test func aKeyUsedForManyMessagesGivesTheOneShotsCodes() throws {
    let jefe = try HMACSHA256.Key(bytes("Jefe"))
    for _ in 0..<3 {
      #expect(
        hexString(jefe.authenticationCode(for: bytes("what do ya want for nothing?")))
          == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
      #expect(
        jefe.authenticationCode(for: bytes("Hi There"))
          == HMACSHA256.authenticationCode(for: bytes("Hi There"), key: bytes("Jefe")))
    }
    let long = [UInt8](repeating: 0xAA, count: 131)
    #expect(
      hexString(
        try HMACSHA256.Key(long).authenticationCode(
          for: bytes("Test Using Larger Than Block-Size Key - Hash Key First")))
        == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    for key in [[], [0x0B], [UInt8](repeating: 0x0B, count: 20), long] {
      let keyed = try HMACSHA256.Key(key)
      for message in [[], bytes("a"), [UInt8](repeating: 7, count: 200)] {
        #expect(
          keyed.authenticationCode(for: message)
            == HMACSHA256.authenticationCode(for: message, key: key))
      }
    }
  }

  @Test func rejectsAnAuthenticationCodeWithOneBitFlipped() {
    let key = bytes("Jefe")
    let message = bytes("what do ya want for nothing?")
    var code = HMACSHA256.authenticationCode(for: message, key: key)
    #expect(HMACSHA256.isValid(code, for: message, key: key))
    code[31] ^= 0x01
    #expect(!HMACSHA256.isValid(code, for: message, key: key))
  }

  @Test func comparesInConstantTimeWithoutConfusingLengthsOrContents() {
    #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
    #expect(ConstantTime.equals([], []))
    #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
    #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
  }

  @Test func drawsDistinctRandomBytesOfTheRequestedLength() {
    let first = SecureRandom.bytes(count: 32)
    let second = SecureRandom.bytes(count: 32)
    #expect(first.count == 32)
    #expect(SecureRandom.bytes(count: 5).count == 5)
    #expect(first != second)
  }
}
