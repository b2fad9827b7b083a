internal import COpenSSL

/// SHA-256 (FIPS 180-4), as PKCE S256 (RFC 7636 §4.2) and `at_hash` (OIDC Core §3.1.3.6) use it.
public enum SHA256 {
  /// The digest length in bytes.
  public static let byteCount = 32

  /// Returns the 32-byte digest of `bytes`.
  public static func hash(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: byteCount)
    var length: UInt32 = 0
    let status = bytes.withUnsafeBytes { input in
      EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
    }
    // EVP_Digest over an in-memory buffer with the built-in SHA-256 cannot fail short of memory
    // exhaustion, where continuing would be wrong anyway.
    precondition(status == 1 && length == 32, "SHA-256 failed inside OpenSSL")
    return digest
  }

  /// Returns the digest of the UTF-8 bytes of `text`.
  public static func hash(_ text: String) -> [UInt8] {
    hash(Array(text.utf8))
  }
}

/// HMAC-SHA256 (RFC 2104, RFC 4231).
public enum HMACSHA256 {
  /// Returns the 32-byte authentication code of `message` under `key`.
  public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
    var code = [UInt8](repeating: 0, count: SHA256.byteCount)
    var length: UInt32 = 0
    // OpenSSL reads a NULL key as "keep the previous key", so the empty key is passed as a real
    // buffer with a length of zero.
    let keyStorage = key.isEmpty ? [0] : key
    let result = keyStorage.withUnsafeBytes { keyBytes in
      message.withUnsafeBytes { messageBytes in
        HMAC(
          EVP_sha256(), keyBytes.baseAddress, Int32(key.count),
          messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count,
          &code, &length)
      }
    }
    precondition(result != nil && length == 32, "HMAC-SHA256 failed inside OpenSSL")
    return code
  }

  /// Verifies `code` in constant time.
  public static func isValid(_ code: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
    ConstantTime.equals(authenticationCode(for: message, key: key), code)
  }
}
