import Crypto
import Testing

@Suite struct Base64URLTests {
  /// RFC 4648 §10 test vectors, in the unpadded base64url form of §5.
  static let rfc4648Vectors: [(String, String)] = [
    ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
    ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
  ]

  @Test(arguments: rfc4648Vectors)
  func encodesTheRFC4648Vectors(plain: String, encoded: String) {
    #expect(Base64URL.encode(bytes(plain)) == encoded)
  }

  @Test(arguments: rfc4648Vectors)
  func decodesTheRFC4648Vectors(plain: String, encoded: String) throws {
    #expect(try Base64URL.decode(encoded) == bytes(plain))
  }

  @Test func usesTheURLSafeAlphabetForBytesThatStandardBase64WritesAsPlusAndSlash() throws {
    #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    #expect(try Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
  }

  @Test(arguments: ["Zg==", "Zm8=", "+/8", "Zm9v YmFy", "Zm9v\nYmFy", "Zm9vY", "Zh", "Zm9", "é"])
  func refusesPaddingStandardAlphabetWhitespaceAndNonCanonicalInput(input: String) {
    #expect(throws: CryptoError.malformedBase64URL) { try Base64URL.decode(input) }
  }

  @Test func roundTripsEveryByteValueAtEveryLength() throws {
    let all = (0...255).map { UInt8($0) }
    for length in 0...all.count {
      let slice = Array(all[0..<length])
      #expect(try Base64URL.decode(Base64URL.encode(slice)) == slice)
    }
  }
}
