import Crypto
import Loopback

/// A Proof Key for Code Exchange pair (RFC 7636), S256 only.
///
/// `plain` is not offered: RFC 7636 §4.2 allows it only where S256 is impossible, and the
/// native-app checklist this project follows forbids it.
public struct PKCEPair: Sendable, Equatable {
  /// The secret kept by the client (`code_verifier`, RFC 7636 §4.1): 43–128 unreserved characters.
  public let verifier: String
  /// `BASE64URL(SHA256(ASCII(code_verifier)))` (`code_challenge`, RFC 7636 §4.2).
  public let challenge: String
  /// Always `S256` (`code_challenge_method`, RFC 7636 §4.3).
  public var method: String { "S256" }

  /// Derives the challenge from an existing verifier, checking the verifier's alphabet and length.
  public init(verifier: String) throws {
    guard Self.isValidVerifier(verifier) else {
      throw CryptoError.invalidParameter(
        "a PKCE verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)")
    }
    self.init(checkedVerifier: verifier)
  }

  private init(checkedVerifier verifier: String) {
    self.verifier = verifier
    self.challenge = Base64URL.encode(SHA256.hash(verifier))
  }

  /// A fresh pair: the verifier is 32 random bytes as base64url (43 characters, 256 bits).
  public static func generate(using random: some RandomSource = SystemRandomSource()) -> PKCEPair {
    // 32 random bytes always encode to 43 valid characters, so the check cannot fail here.
    let verifier = Base64URL.encode(random.bytes(count: 32))
    return PKCEPair(checkedVerifier: verifier)
  }

  /// True for 43–128 characters from the unreserved set of RFC 3986 §2.3.
  public static func isValidVerifier(_ verifier: String) -> Bool {
    let bytes = Array(verifier.utf8)
    guard (43...128).contains(bytes.count) else { return false }
    return bytes.allSatisfy(FormEncoding.isUnreserved)
  }
}
