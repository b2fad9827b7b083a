/// AES-256 in Galois/Counter Mode (NIST SP 800-38D) with a 96-bit nonce and a 128-bit tag.
public enum AESGCM {
  /// Nonce length in bytes (96 bits, the length SP 800-38D recommends).
  public static let nonceByteCount = 12
  /// Authentication tag length in bytes.
  public static let tagByteCount = 16

  /// The output of `seal`: nonce, ciphertext and tag.
  public struct SealedBox: Sendable, Equatable {
    /// The 12-byte nonce the plaintext was sealed under.
    public let nonce: [UInt8]
    /// The ciphertext, as long as the plaintext.
    public let ciphertext: [UInt8]
    /// The 16-byte authentication tag over the ciphertext and the associated data.
    public let tag: [UInt8]

    /// Assembles a box from its parts, checking their lengths.
    public init(nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8]) throws {
      guard nonce.count == AESGCM.nonceByteCount else {
        throw CryptoError.invalidParameter("an AES-GCM nonce is 12 bytes, not \(nonce.count)")
      }
      guard tag.count == AESGCM.tagByteCount else {
        throw CryptoError.invalidParameter("an AES-GCM tag is 16 bytes, not \(tag.count)")
      }
      self.nonce = nonce
      self.ciphertext = ciphertext
      self.tag = tag
    }

    /// Reads the `nonce ‖ ciphertext ‖ tag` layout that `combined` writes.
    public init(combined: [UInt8]) throws {
      guard combined.count >= AESGCM.nonceByteCount + AESGCM.tagByteCount else {
        throw CryptoError.invalidParameter(
          "a sealed box is at least 28 bytes, not \(combined.count)")
      }
      let tagStart = combined.count - AESGCM.tagByteCount
      try self.init(
        nonce: Array(combined[..<AESGCM.nonceByteCount]),
        ciphertext: Array(combined[AESGCM.nonceByteCount..<tagStart]),
        tag: Array(combined[tagStart...]))
    }

    /// `nonce ‖ ciphertext ‖ tag`, the form stored on disk.
    public var combined: [UInt8] { nonce + ciphertext + tag }
  }

  /// Encrypts and authenticates `plaintext`, also authenticating `associatedData`.
  ///
  /// Leave `nonce` nil (the default) to draw a fresh random one; pass one only to reproduce a test
  /// vector. Reusing a nonce under the same key destroys GCM's security.
  public static func seal(
    _ plaintext: [UInt8], using key: SymmetricKey, nonce: [UInt8]? = nil,
    authenticating associatedData: [UInt8] = []
  ) throws -> SealedBox {
    let nonce = nonce ?? SecureRandom.bytes(count: nonceByteCount)
    guard nonce.count == nonceByteCount else {
      throw CryptoError.invalidParameter("an AES-GCM nonce is 12 bytes, not \(nonce.count)")
    }
    let (ciphertext, tag) = try GCMCipherContext.seal(
      plaintext, key: key.bytes, nonce: nonce, associatedData: associatedData)
    return try SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
  }

  /// Decrypts `box` and checks its tag over the ciphertext and `associatedData`.
  ///
  /// Throws `CryptoError.authenticationFailed` when anything was altered or the key is wrong; no
  /// partial plaintext is ever returned.
  public static func open(
    _ box: SealedBox, using key: SymmetricKey, authenticating associatedData: [UInt8] = []
  ) throws -> [UInt8] {
    try GCMCipherContext.open(
      box.ciphertext, tag: box.tag, key: key.bytes, nonce: box.nonce,
      associatedData: associatedData)
  }
}
