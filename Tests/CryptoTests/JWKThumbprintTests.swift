import Crypto
import Testing

/// RFC 7638 thumbprints: the specification's RSA example, EC keys whose thumbprints were
/// computed independently, and the canonical JSON itself.
@Suite struct JWKThumbprintTests {
  /// RFC 7638 §3.1's RSA key (`n` and `e`; its `alg` and `kid` are not required members).
  static let modulus71 =
    "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECP"
    + "ebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2Q"
    + "vzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh"
    + "6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"

  @Test func computesTheRFC7638Section31ThumbprintFromTheExampleMembers() {
    // The members as the example writes them, out of order: the function sorts them.
    let members: [(name: String, value: String)] = [
      ("kty", "RSA"), ("n", Self.modulus71), ("e", "AQAB"),
    ]
    #expect(
      JWKThumbprint.canonicalJSON(members)
        == "{\"e\":\"AQAB\",\"kty\":\"RSA\",\"n\":\"\(Self.modulus71)\"}")
    #expect(
      JWKThumbprint.thumbprint(of: members) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
  }

  @Test func anRSAKeysRequiredMembersGiveTheSameThumbprint() throws {
    // A leading zero byte in the modulus is not part of the JWK's `n` (RFC 7518 §6.3.1.1).
    let key = JWKPublicParameters.rsa(
      modulus: [0] + (try Base64URL.decode(Self.modulus71)), exponent: [0x01, 0x00, 0x01])
    #expect(key.thumbprint == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
  }

  /// The expected values were computed outside this code base, with Python's `hashlib` and
  /// `json.dumps(sort_keys=True, separators=(",", ":"))` over the same members; the first is
  /// also the `jkt` RFC 9449 §6.1 (Figure 7) publishes for its example key.
  @Test(arguments: [
    (
      "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs", "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA",
      "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
    ),
    (
      "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
      "oKIywvGUpTVTyxMQ3bwIIeQUudfr_CkLMjCE19ECD-U"
    ),
  ])
  func computesTheThumbprintOfAP256Key(x: String, y: String, expected: String) throws {
    let key = JWKPublicParameters.p256(x: try Base64URL.decode(x), y: try Base64URL.decode(y))
    #expect(key.thumbprint == expected)
    #expect(key.requiredMembers.map(\.name) == ["crv", "kty", "x", "y"])
  }

  @Test func escapesOnlyWhatJSONRequires() {
    let json = JWKThumbprint.canonicalJSON([("b", "quote \" backslash \\ tab \t é"), ("a", "/")])
    #expect(json == "{\"a\":\"/\",\"b\":\"quote \\\" backslash \\\\ tab \\u0009 é\"}")
  }

  @Test func ordersNamesByCodePointNotByLocale() {
    let json = JWKThumbprint.canonicalJSON([("b", "1"), ("B", "2"), ("é", "3"), ("a", "4")])
    #expect(json == "{\"B\":\"2\",\"a\":\"4\",\"b\":\"1\",\"é\":\"3\"}")
  }
}
