internal import COpenSSL

/// Owns one `EVP_CIPHER_CTX` for a single AES-256-GCM operation and frees it in `deinit`.
final class GCMCipherContext {
  private let context: OpaquePointer

  private init() throws {
    guard let context = EVP_CIPHER_CTX_new() else {
      throw openSSLFailure("EVP_CIPHER_CTX_new")
    }
    self.context = context
  }

  /// A context keyed for one operation, with the associated data already fed in.
  private convenience init(
    encrypting: Bool, key: [UInt8], nonce: [UInt8], associatedData: [UInt8]
  ) throws {
    try self.init()
    try initialise(encrypting: encrypting, key: key, nonce: nonce)
    try addAssociatedData(associatedData)
  }

  deinit {
    EVP_CIPHER_CTX_free(context)
  }

  static func seal(
    _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]
  ) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
    let cipher = try GCMCipherContext(
      encrypting: true, key: key, nonce: nonce, associatedData: associatedData)
    let ciphertext = try cipher.update(plaintext, encrypting: true)
    var finalBytes = [UInt8](repeating: 0, count: 16)
    var finalLength: Int32 = 0
    guard EVP_EncryptFinal_ex(cipher.context, &finalBytes, &finalLength) == 1 else {
      throw openSSLFailure("AES-GCM encrypt final")
    }
    var tag = [UInt8](repeating: 0, count: AESGCM.tagByteCount)
    guard EVP_CIPHER_CTX_ctrl(cipher.context, EVP_CTRL_GCM_GET_TAG, Int32(tag.count), &tag) == 1
    else { throw openSSLFailure("AES-GCM get tag") }
    return (ciphertext, tag)
  }

  static func open(
    _ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]
  ) throws -> [UInt8] {
    let cipher = try GCMCipherContext(
      encrypting: false, key: key, nonce: nonce, associatedData: associatedData)
    var plaintext = try cipher.update(ciphertext, encrypting: false)
    var expectedTag = tag
    guard
      EVP_CIPHER_CTX_ctrl(
        cipher.context, EVP_CTRL_GCM_SET_TAG, Int32(expectedTag.count), &expectedTag) == 1
    else { throw openSSLFailure("AES-GCM set tag") }
    var finalBytes = [UInt8](repeating: 0, count: 16)
    var finalLength: Int32 = 0
    guard EVP_DecryptFinal_ex(cipher.context, &finalBytes, &finalLength) == 1 else {
      // A tag mismatch is the expected failure here; drop OpenSSL's queue entry for it.
      ERR_clear_error()
      plaintext.withUnsafeMutableBytes { buffer in
        if let base = buffer.baseAddress { OPENSSL_cleanse(base, buffer.count) }
      }
      throw CryptoError.authenticationFailed
    }
    return plaintext
  }

  private func initialise(encrypting: Bool, key: [UInt8], nonce: [UInt8]) throws {
    let initialiseCipher = encrypting ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
    guard initialiseCipher(context, EVP_aes_256_gcm(), nil, nil, nil) == 1 else {
      throw openSSLFailure("AES-GCM init")
    }
    guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1 else {
      throw openSSLFailure("AES-GCM nonce length")
    }
    guard initialiseCipher(context, nil, nil, key, nonce) == 1 else {
      throw openSSLFailure("AES-GCM key")
    }
  }

  /// Runs `input` through the cipher; GCM is a stream mode, so the output is as long as the
  /// input, and OpenSSL holds nothing back for the final call.
  private func update(_ input: [UInt8], encrypting: Bool) throws -> [UInt8] {
    var output = [UInt8](repeating: 0, count: input.count)
    guard !input.isEmpty else { return output }
    let updateCipher = encrypting ? EVP_EncryptUpdate : EVP_DecryptUpdate
    var written: Int32 = 0
    let status = input.withUnsafeBufferPointer { input in
      updateCipher(context, &output, &written, input.baseAddress, Int32(input.count))
    }
    guard status == 1 else {
      throw openSSLFailure(encrypting ? "AES-GCM encrypt" : "AES-GCM decrypt")
    }
    return output
  }

  private func addAssociatedData(_ associatedData: [UInt8]) throws {
    guard !associatedData.isEmpty else { return }
    var ignored: Int32 = 0
    let status = associatedData.withUnsafeBufferPointer { input in
      EVP_CipherUpdate(context, nil, &ignored, input.baseAddress, Int32(input.count))
    }
    guard status == 1 else { throw openSSLFailure("AES-GCM associated data") }
  }
}
