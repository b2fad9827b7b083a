import Foundation
import Testing

@testable import AuthCore

/// Every OpenID Connect and identity failure reads as one sentence that names the problem and
/// the fix, has a distinct code, and maps to the exit code of its kind.
@Suite struct OpenIDErrorTests {
  static let errors: [AuthError] =
    [
      IDTokenError.missing, .malformed("it does not have three dot-separated parts"), .unsigned,
      .symmetricAlgorithm("HS256"), .unsupportedAlgorithm("PS256"), .criticalHeader(["b64"]),
      .unknownKey(kid: "k1"), .unknownKey(kid: nil), .ambiguousKey,
      .unusableKey(kid: "k1", reason: "its use is enc, not sig"), .invalidSignature,
      .issuerMismatch(expected: "https://a", received: "https://b"),
      .audienceMismatch(clientID: "c"), .authorizedPartyMismatch(clientID: "c"),
      .expired(at: Date(timeIntervalSince1970: 0)), .issuedInFuture(at: Date()),
      .notYetValid(until: Date()), .nonceMismatch, .accessTokenHashMismatch,
      .missingClaim("sub"), .issuerNotConfigured,
    ].map(AuthError.idTokenRejected)
    + [
      DiscoveryError.invalidIssuer("http://a"),
      .unreachableIssuer("http://127.0.0.1:99999", problem: "its port 99999 is too big"),
      .documentNotFound(url: "https://a/.well-known/openid-configuration", status: 404),
      .issuerMismatch(expected: "https://a", received: nil), .missingMember("jwks_uri"),
      .invalidEndpoint("token_endpoint"), .insecureEndpoint("token_endpoint"),
    ].map(AuthError.discoveryFailed)
    + [IssuerCredentials(issuer: "https://u:p@a")].compactMap {
      $0.map { AuthError.discoveryFailed(.credentialsInIssuer($0)) }
    }
    + [
      IdentityError.tokenUnusable, .insufficientScope(scopeHint: "openid"),
      .insufficientScope(scopeHint: nil), .subjectMismatch, .userinfoWithoutSubject, .noIDToken,
      .labelNotFound(paths: ["user.name"]),
    ].map(AuthError.identityFailed)

  @Test(arguments: errors)
  func saysWhatWentWrongAndWhatToDoInOneSentence(error: AuthError) {
    let message = error.message
    #expect(message.hasSuffix("."))
    #expect(message.contains("; "))
    #expect(!message.contains("\n"))
    #expect(message.first?.isUppercase == true)
    #expect(error.description == message)
  }

  @Test func givesEachKindOfFailureItsOwnCode() {
    // Two kinds are listed twice: an unknown key with and without a kid, and a missing scope
    // with and without a hint.
    #expect(Set(Self.errors.map(\.code)).count == Self.errors.count - 2)
  }

  @Test func mapsConfigurationMistakesToOneAndProviderAnswersToSeven() {
    let configuration: Set<String> = [
      "issuer_not_configured", "invalid_issuer", "credentials_in_issuer", "invalid_issuer_address",
    ]
    for error in Self.errors {
      #expect(error.exitCode == (configuration.contains(error.code) ? 1 : 7), "\(error.code)")
    }
  }
}
