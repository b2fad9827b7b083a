internal import COpenSSL

/// Owns one `EVP_CIPHER_CTX` keyed for AES-256-GCM in one direction, and frees it in `deinit`
/// (which also wipes the key schedule).
///
/// The key is set once, at `init`; each operation then gives OpenSSL only the nonce, so the AES
/// key schedule and GHASH's key are computed once per context, not once per cell. Not
/// thread-safe: every operation changes the context, so one owner uses it at a time.
final class GCMCipherContext {
  private let context: OpaquePointer
  private let encrypting: Bool

  /// A context keyed with `key` (32 bytes) for sealing (`encrypting`) or for opening.
  init(key: [UInt8], encrypting: Bool) throws {
    guard let context = EVP_CIPHER_CTX_new() else {
      throw openSSLFailure("EVP_CIPHER_CTX_new")
    }
    self.context = context
    self.encrypting = encrypting
    let initialiseCipher = encrypting ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
    guard initialiseCipher(context, EVP_aes_256_gcm(), nil, nil, nil) == 1 else {
      throw openSSLFailure("AES-GCM init")
    }
    guard
      EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(AESGCM.nonceByteCount), nil) == 1
    else { throw openSSLFailure("AES-GCM nonce length") }
    // The key alone: OpenSSL keeps it (and its schedule) when a later init passes only a nonce.
    guard initialiseCipher(context, nil, nil, key, nil) == 1 else {
      throw openSSLFailure("AES-GCM key")
    }
  }

  deinit {
    EVP_CIPHER_CTX_free(context)
  }

  /// Encrypts `plaintext` under `nonce`, authenticating `associatedData` too.
  func seal(
    _ plaintext: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
    associatedData: UnsafeRawBufferPointer
  ) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
    precondition(encrypting, "a context keyed for opening cannot seal")
    try start(nonce: nonce, associatedData: associatedData)
    var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
    try ciphertext.withUnsafeMutableBytes { try update(plaintext, into: $0) }
    var finalLength: Int32 = 0
    let finished = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { final in
      EVP_EncryptFinal_ex(context, final.baseAddress, &finalLength)
    }
    guard finished == 1 else { throw openSSLFailure("AES-GCM encrypt final") }
    var tag = [UInt8](repeating: 0, count: AESGCM.tagByteCount)
    guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tag.count), &tag) == 1
    else { throw openSSLFailure("AES-GCM get tag") }
    return (ciphertext, tag)
  }

  /// Decrypts `ciphertext` sealed under `nonce` into `output` (exactly as long as it) and
  /// checks `tag` over it and `associatedData`; throws `authenticationFailed` when the tag does
  /// not match, with `output` zeroed first, so no unauthenticated plaintext is kept.
  func open(
    _ ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer,
    nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer,
    into output: UnsafeMutableRawBufferPointer
  ) throws {
    precondition(!encrypting, "a context keyed for sealing cannot open")
    precondition(tag.count == AESGCM.tagByteCount, "an AES-GCM tag is 16 bytes")
    precondition(output.count == ciphertext.count, "the plaintext is as long as the ciphertext")
    try start(nonce: nonce, associatedData: associatedData)
    do {
      try update(ciphertext, into: output)
    } catch {
      if let base = output.baseAddress { OPENSSL_cleanse(base, output.count) }
      throw error
    }
    let (tagSet, finished) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) {
      buffer -> (Int32, Int32) in
      // The control call takes a mutable pointer: give it a copy of the tag.
      UnsafeMutableRawBufferPointer(buffer).copyMemory(from: tag)
      let tagSet = EVP_CIPHER_CTX_ctrl(
        context, EVP_CTRL_GCM_SET_TAG, Int32(tag.count), buffer.baseAddress)
      guard tagSet == 1 else { return (tagSet, 0) }
      var finalLength: Int32 = 0
      return (tagSet, EVP_DecryptFinal_ex(context, buffer.baseAddress, &finalLength))
    }
    guard tagSet == 1 else {
      if let base = output.baseAddress { OPENSSL_cleanse(base, output.count) }
      throw openSSLFailure("AES-GCM set tag")
    }
    guard finished == 1 else {
      // A tag mismatch is the expected failure here; drop OpenSSL's queue entry for it.
      ERR_clear_error()
      if let base = output.baseAddress { OPENSSL_cleanse(base, output.count) }
      throw CryptoError.authenticationFailed
    }
  }

  /// Gives the keyed context a fresh nonce (which restarts GCM's counter and hash) and feeds
  /// it the associated data.
  private func start(nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer)
    throws
  {
    let initialiseCipher = encrypting ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
    let nonceBytes = nonce.baseAddress?.assumingMemoryBound(to: UInt8.self)
    guard nonce.count == AESGCM.nonceByteCount,
      initialiseCipher(context, nil, nil, nil, nonceBytes) == 1
    else { throw openSSLFailure("AES-GCM nonce") }
    guard let associatedBytes = associatedData.baseAddress, !associatedData.isEmpty else { return }
    var ignored: Int32 = 0
    guard
      EVP_CipherUpdate(
        context, nil, &ignored, associatedBytes.assumingMemoryBound(to: UInt8.self),
        Int32(associatedData.count)) == 1
    else { throw openSSLFailure("AES-GCM associated data") }
  }

  /// Runs `input` through the cipher into `output`; GCM is a stream mode, so the output is as
  /// long as the input, and OpenSSL holds nothing back for the final call.
  private func update(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
    throws
  {
    guard let inputBytes = input.baseAddress, !input.isEmpty else { return }
    let updateCipher = encrypting ? EVP_EncryptUpdate : EVP_DecryptUpdate
    var written: Int32 = 0
    let status = updateCipher(
      context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
      inputBytes.assumingMemoryBound(to: UInt8.self), Int32(input.count))
    guard status == 1, Int(written) == input.count else {
      throw openSSLFailure(encrypting ? "AES-GCM encrypt" : "AES-GCM decrypt")
    }
  }
}
