import AuthCore
import Testing

/// The `Bearer` challenge of an identity endpoint's `WWW-Authenticate` header (RFC 6750 §3),
/// read by the same reader as the DPoP challenge (RFC 9110 §11.6.1): the scope it names is
/// what the user is told to add.
@Suite struct BearerChallengeTests {
  @Test func readsTheErrorAndTheScope() throws {
    let challenge = try #require(
      BearerChallenge(
        header: #"Bearer realm="example", error="insufficient_scope", scope="read:user user:email""#
      ))
    #expect(challenge.error == "insufficient_scope")
    #expect(challenge.scope == "read:user user:email")
  }

  /// Another challenge's parameters are not the Bearer challenge's, before it or after it,
  /// and a comma inside a quoted scope does not end it.
  @Test func readsOnlyTheBearerChallengeAmongOthers() throws {
    let challenge = try #require(
      BearerChallenge(
        header: #"DPoP algs="ES256", error="use_dpop_nonce", Bearer scope="a,b", Basic realm="x""#
      ))
    #expect(challenge.error == nil)
    #expect(challenge.scope == "a,b")
  }

  @Test(arguments: [
    "", #"error="insufficient_scope", scope="x""#, #"DPoP error="invalid_token""#,
    #"Bearerx scope="x""#,
  ])
  func findsNoBearerChallengeWhereThereIsNone(header: String) {
    #expect(BearerChallenge(header: header) == nil)
  }

  @Test func cleansWhatItKeeps() throws {
    let challenge = try #require(BearerChallenge(header: "Bearer scope=\"repo\u{1B}[31m\""))
    #expect(challenge.scope == #"repo\u{1B}[31m"#)
  }
}
