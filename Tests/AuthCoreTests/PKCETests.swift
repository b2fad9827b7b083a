import AuthCore
import Crypto
import Testing

@Suite struct PKCETests {
  /// RFC 7636 Appendix B.
  @Test func derivesTheRFC7636AppendixBChallenge() throws {
    let pair = try PKCEPair(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    #expect(pair.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    #expect(pair.method == "S256")
  }

  @Test func rejectsTheAppendixBVerifierWithOneCharacterAltered() throws {
    let pair = try PKCEPair(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj")
    #expect(pair.challenge != "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }

  @Test func makesAFreshValidPairEveryTime() {
    let first = PKCEPair.generate()
    let second = PKCEPair.generate()
    #expect(first.verifier != second.verifier)
    #expect(first.verifier.count == 43)
    #expect(PKCEPair.isValidVerifier(first.verifier))
  }

  @Test(arguments: [
    String(repeating: "a", count: 42), String(repeating: "a", count: 129),
    String(repeating: "a", count: 42) + "+", String(repeating: "a", count: 42) + " ",
    String(repeating: "a", count: 42) + "é",
  ])
  func refusesVerifiersOfTheWrongLengthOrAlphabet(verifier: String) {
    #expect(throws: CryptoError.self) { try PKCEPair(verifier: verifier) }
  }

  @Test func acceptsTheLongestAllowedVerifierWithEveryUnreservedCharacter() throws {
    let verifier = String(repeating: "A-._~z9", count: 18) + "xx"
    #expect(verifier.count == 128)
    #expect(try PKCEPair(verifier: verifier).verifier == verifier)
  }
}
