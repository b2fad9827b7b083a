internal import COpenSSL

/// Owns one `EVP_PKEY` and frees it in `deinit`.
final class OpenSSLKey {
  let pointer: OpaquePointer

  init(owning pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit {
    EVP_PKEY_free(pointer)
  }

  /// Parses a DER SubjectPublicKeyInfo.
  static func publicKey(subjectPublicKeyInfo der: [UInt8]) throws -> OpenSSLKey {
    let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
      var cursor = buffer.baseAddress
      return d2i_PUBKEY(nil, &cursor, buffer.count)
    }
    guard let key else {
      throw CryptoError.invalidPublicKey(openSSLFailure("the key does not parse").description)
    }
    return OpenSSLKey(owning: key)
  }

  /// Parses a DER private key (PKCS#8 or the type-specific form).
  static func privateKey(der: [UInt8]) throws -> OpenSSLKey {
    let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
      var cursor = buffer.baseAddress
      return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
    }
    guard let key else { throw openSSLFailure("private key does not parse") }
    return OpenSSLKey(owning: key)
  }
}

/// Owns one `EVP_MD_CTX` and frees it in `deinit`.
final class DigestContext {
  let pointer: OpaquePointer

  init() throws {
    guard let pointer = EVP_MD_CTX_new() else { throw openSSLFailure("EVP_MD_CTX_new") }
    self.pointer = pointer
  }

  deinit {
    EVP_MD_CTX_free(pointer)
  }
}

extension PublicKey {
  func checkLoads() throws {
    _ = try OpenSSLKey.publicKey(subjectPublicKeyInfo: subjectPublicKeyInfo)
  }

  func verifyWithOpenSSL(signature: [UInt8], message: [UInt8]) -> Bool {
    guard let key = try? OpenSSLKey.publicKey(subjectPublicKeyInfo: subjectPublicKeyInfo),
      let context = try? DigestContext()
    else { return false }
    guard EVP_DigestVerifyInit(context.pointer, nil, EVP_sha256(), nil, key.pointer) == 1 else {
      ERR_clear_error()
      return false
    }
    let status = signature.withUnsafeBufferPointer { signatureBytes in
      message.withUnsafeBufferPointer { messageBytes in
        EVP_DigestVerify(
          context.pointer, signatureBytes.baseAddress, signatureBytes.count,
          messageBytes.baseAddress, messageBytes.count)
      }
    }
    // A bad signature leaves a reason in the error queue; it is an answer, not a fault.
    ERR_clear_error()
    return status == 1
  }
}
