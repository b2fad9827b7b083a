import AuthCore
import Testing

/// The two headers a DPoP server answers with: `DPoP-Nonce` (RFC 9449 §8.1) and the `DPoP`
/// challenge of `WWW-Authenticate` (§7.1), read from whatever a server sends.
@Suite struct DPoPHeaderParsingTests {
  @Test(arguments: [
    ("eyJ7S_zG.zXi4-KlD", "eyJ7S_zG.zXi4-KlD"), ("  padded\t", "padded"),
    ("!#$%&'()*+", "!#$%&'()*+"),
  ])
  func readsANonce(header: String, expected: String) {
    #expect(DPoPNonce.parse(header) == expected)
  }

  @Test(arguments: [
    "", "   ", "two words", "quote\"d", "back\\slash", "tab\there", "é", "\u{1B}[31m",
  ])
  func refusesWhatIsNoNonce(header: String) {
    #expect(DPoPNonce.parse(header) == nil)
  }

  @Test func refusesAnOverlongNonce() {
    #expect(DPoPNonce.parse(String(repeating: "n", count: DPoPNonce.maximumLength)) != nil)
    #expect(DPoPNonce.parse(String(repeating: "n", count: DPoPNonce.maximumLength + 1)) == nil)
  }

  @Test func readsTheDPoPChallengeAmongOthers() throws {
    let header =
      #"Bearer realm="api", error="invalid_token", DPoP algs="ES256 PS256", "#
      + #"error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#
    let challenge = try #require(DPoPChallenge(header: header))
    #expect(challenge.error == "use_dpop_nonce")
    #expect(challenge.errorDescription == "Resource server requires nonce in DPoP proof")
    #expect(challenge.algorithms == ["ES256", "PS256"])
  }

  @Test func keepsCommasAndEscapesInsideQuotedValues() throws {
    let header = #"DPoP error_description="a, b \"c\" \\ d", error=invalid_dpop_proof"#
    let challenge = try #require(DPoPChallenge(header: header))
    #expect(challenge.errorDescription == #"a, b "c" \ d"#)
    #expect(challenge.error == "invalid_dpop_proof")
  }

  @Test func readsTheSchemeWithoutRegardToCaseAndAfterAToken68() throws {
    let challenge = try #require(DPoPChallenge(header: #"Basic dGVzdA==, dpop ERROR="x""#))
    #expect(challenge.error == "x")
    #expect(DPoPChallenge(header: "DPoP")?.error == nil)
  }

  @Test(arguments: [
    #"Bearer error="use_dpop_nonce""#, "", "error=use_dpop_nonce", #"DPoPx error="y""#,
  ])
  func findsNoDPoPChallengeWhereThereIsNone(header: String) {
    #expect(DPoPChallenge(header: header) == nil)
  }

  @Test func cleansWhatItKeeps() throws {
    let challenge = try #require(
      DPoPChallenge(header: "DPoP error=\"bad\", error_description=\"a\u{1B}[31mb\""))
    #expect(challenge.errorDescription == #"a\u{1B}[31mb"#)
  }

  @Test func ignoresAnUnterminatedValue() throws {
    let challenge = try #require(DPoPChallenge(header: #"DPoP error="never ends"#))
    #expect(challenge.error == nil)
  }
}
