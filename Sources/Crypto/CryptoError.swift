/// Why a cryptographic operation failed.
///
/// The cases never carry key material or plaintext, so they are safe to show and to log.
public enum CryptoError: Error, Equatable, Sendable {
  /// A key, nonce or parameter has the wrong size or shape; the text names which.
  case invalidParameter(String)
  /// Input that should be base64url (RFC 4648 §5, unpadded) is not.
  case malformedBase64URL
  /// An authenticated ciphertext, its tag or its associated data was altered, or the key is wrong.
  case authenticationFailed
  /// A public key could not be built from the given JWK parameters; the text says which part.
  case invalidPublicKey(String)
  /// The OpenSSL library reported an error; the text is OpenSSL's reason string.
  case backend(String)
}

extension CryptoError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .invalidParameter(let what):
      return "invalid cryptographic parameter: \(what)"
    case .malformedBase64URL:
      return "the value is not unpadded base64url (RFC 4648 §5)"
    case .authenticationFailed:
      return "the data failed authentication: it was altered or the key is wrong"
    case .invalidPublicKey(let what):
      return "the public key is unusable: \(what)"
    case .backend(let reason):
      return "OpenSSL failed: \(reason)"
    }
  }
}
