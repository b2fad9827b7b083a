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

  /// HMAC-SHA256 under one key, for many messages: the one-shot `authenticationCode(for:key:)`
  /// looks HMAC and SHA-256 up in OpenSSL's provider tables and hashes the key's pads for
  /// every call, which costs several times the hashing of a short message; this does both
  /// once, and starts each message from the keyed state.
  ///
  /// Not `Sendable`: it owns OpenSSL state, so one owner (an actor, or a value only that actor
  /// holds) uses it. Dropping the last reference frees that state and wipes the key in it.
  public final class Key {
    private let mac: OpaquePointer
    private let keyed: OpaquePointer

    /// Keys HMAC-SHA256 with `key` (any length, as HMAC allows).
    public init(_ key: [UInt8]) throws {
      guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else {
        throw openSSLFailure("EVP_MAC_fetch HMAC")
      }
      guard let keyed = EVP_MAC_CTX_new(mac) else {
        EVP_MAC_free(mac)
        throw openSSLFailure("EVP_MAC_CTX_new")
      }
      self.mac = mac
      self.keyed = keyed
      // As in the one-shot: the empty key is passed as a real buffer with a length of zero.
      let keyStorage = key.isEmpty ? [0] : key
      var digestName = Array("SHA256".utf8CString)
      let status = keyStorage.withUnsafeBufferPointer { keyBytes in
        "digest".withCString { parameter in
          digestName.withUnsafeMutableBufferPointer { digest in
            var parameters = [
              OSSL_PARAM_construct_utf8_string(parameter, digest.baseAddress, 0),
              OSSL_PARAM_construct_end(),
            ]
            return EVP_MAC_init(keyed, keyBytes.baseAddress, key.count, &parameters)
          }
        }
      }
      guard status == 1 else { throw openSSLFailure("HMAC-SHA256 key") }
    }

    deinit {
      EVP_MAC_CTX_free(keyed)
      EVP_MAC_free(mac)
    }

    /// The 32-byte authentication code of `message`, equal to
    /// `HMACSHA256.authenticationCode(for: message, key: key)`.
    public func authenticationCode(for message: [UInt8]) -> [UInt8] {
      var code = [UInt8](repeating: 0, count: SHA256.byteCount)
      var length = 0
      // Initialised again without a key, HMAC starts over from the key set at `init`.
      let status = message.withUnsafeBufferPointer { bytes in
        EVP_MAC_init(keyed, nil, 0, nil) == 1
          && EVP_MAC_update(keyed, bytes.baseAddress, bytes.count) == 1
          && EVP_MAC_final(keyed, &code, &length, code.count) == 1
      }
      // As the one-shot: with the built-in HMAC and SHA-256 over memory, only memory
      // exhaustion fails here, where continuing would be wrong anyway.
      precondition(status && length == 32, "HMAC-SHA256 failed inside OpenSSL")
      return code
    }
  }
}
