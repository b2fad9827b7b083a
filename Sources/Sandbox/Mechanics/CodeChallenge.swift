import AuthCore
import Crypto

/// The PKCE challenge a client sent at the authorization endpoint (RFC 7636 §4.3), and the
/// check of the verifier it sends later (§4.6).
struct CodeChallenge: Sendable, Equatable {
  /// `code_challenge_method`.
  enum Method: String, Sendable {
    case s256 = "S256"
    case plain
  }

  /// `code_challenge`.
  let value: String
  /// `code_challenge_method`.
  let method: Method

  /// True for what an S256 challenge must be: 43 base64url characters (32 bytes, no padding).
  static func isWellFormedS256(_ text: String) -> Bool {
    text.utf8.count == 43 && (try? Base64URL.decode(text))?.count == 32
  }

  /// True when `verifier` is well formed and transforms into this challenge, compared in
  /// constant time.
  func isSatisfied(by verifier: String) -> Bool {
    // RFC 7636 §4.1: 43–128 unreserved characters, the same rule the client side applies.
    guard PKCEPair.isValidVerifier(verifier) else { return false }
    let derived: String
    switch method {
    case .s256: derived = Base64URL.encode(SHA256.hash(verifier))
    case .plain: derived = verifier
    }
    return ConstantTime.equals(Array(derived.utf8), Array(value.utf8))
  }
}
