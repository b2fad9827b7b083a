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
    try Cipher(key: key).seal(plaintext, nonce: nonce, authenticating: associatedData)
  }

  /// Decrypts `box` and checks its tag over the ciphertext and `associatedData`.
  ///
  /// Throws `CryptoError.authenticationFailed` when anything was altered or the key is wrong; no
  /// partial plaintext is ever returned.
  public static func open(
    _ box: SealedBox, using key: SymmetricKey, authenticating associatedData: [UInt8] = []
  ) throws -> [UInt8] {
    try Cipher(key: key).open(box, authenticating: associatedData)
  }

  /// AES-256-GCM under one key, for sealing or opening many small values: the key is set up
  /// once (AES's key schedule and GHASH's key), where `AESGCM.seal` and `AESGCM.open` set it up
  /// for every call. The construction is the same: every seal draws a fresh random nonce unless
  /// one is given, and every open checks the whole tag.
  ///
  /// Not `Sendable`: each operation changes the OpenSSL state inside, so one owner (an actor, or
  /// a value only that actor holds) uses it at a time. Dropping the last reference frees that
  /// state and wipes the key schedule.
  public final class Cipher {
    private let key: SymmetricKey
    private var sealing: GCMCipherContext?
    private var opening: GCMCipherContext?

    /// A cipher under `key`; the OpenSSL state for each direction is made on its first use.
    public init(key: SymmetricKey) {
      self.key = key
    }

    private func sealingContext() throws -> GCMCipherContext {
      if let sealing { return sealing }
      let made = try GCMCipherContext(key: key.bytes, encrypting: true)
      sealing = made
      return made
    }

    private func openingContext() throws -> GCMCipherContext {
      if let opening { return opening }
      let made = try GCMCipherContext(key: key.bytes, encrypting: false)
      opening = made
      return made
    }

    /// Encrypts and authenticates `plaintext`, also authenticating `associatedData`, as
    /// `AESGCM.seal` does.
    public func seal(
      _ plaintext: [UInt8], nonce: [UInt8]? = nil, authenticating associatedData: [UInt8] = []
    ) throws -> SealedBox {
      let nonce = nonce ?? SecureRandom.bytes(count: nonceByteCount)
      guard nonce.count == nonceByteCount else {
        throw CryptoError.invalidParameter("an AES-GCM nonce is 12 bytes, not \(nonce.count)")
      }
      let context = try sealingContext()
      let (ciphertext, tag) = try plaintext.withUnsafeBytes { plaintext in
        try nonce.withUnsafeBytes { nonce in
          try associatedData.withUnsafeBytes { associatedData in
            try context.seal(plaintext, nonce: nonce, associatedData: associatedData)
          }
        }
      }
      return try SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
    }

    /// Decrypts `box` and checks its tag, as `AESGCM.open` does.
    public func open(_ box: SealedBox, authenticating associatedData: [UInt8] = []) throws
      -> [UInt8]
    {
      try open(combined: box.combined, authenticating: associatedData)
    }

    /// Decrypts the `nonce ‖ ciphertext ‖ tag` layout that `SealedBox.combined` writes and
    /// checks its tag, without taking it apart into a `SealedBox` first.
    ///
    /// Throws `CryptoError.invalidParameter` when `combined` is shorter than a nonce and a tag,
    /// and `CryptoError.authenticationFailed` when anything was altered or the key is wrong.
    public func open(combined: [UInt8], authenticating associatedData: [UInt8] = []) throws
      -> [UInt8]
    {
      try open(combined: combined[...], authenticating: associatedData)
    }

    /// `open(combined:authenticating:)` of bytes within a larger array (a row's cells, kept
    /// one after another).
    public func open(combined: ArraySlice<UInt8>, authenticating associatedData: [UInt8] = [])
      throws -> [UInt8]
    {
      var plaintext: [UInt8] = []
      try open(combined: combined, authenticating: associatedData, into: &plaintext)
      return plaintext
    }

    /// `open(combined:authenticating:)` into `plaintext`, whose contents it replaces and whose
    /// storage it reuses: for a caller that opens many small values one after another and
    /// reads each before the next (a listing of thousands of cells), one buffer instead of
    /// an array for each. When it throws, `plaintext` is left empty, and what was written
    /// of it wiped first.
    public func open(
      combined: ArraySlice<UInt8>, authenticating associatedData: [UInt8] = [],
      into plaintext: inout [UInt8]
    ) throws {
      plaintext.removeAll(keepingCapacity: true)
      guard combined.count >= nonceByteCount + tagByteCount else {
        throw CryptoError.invalidParameter(
          "a sealed box is at least 28 bytes, not \(combined.count)")
      }
      let context = try openingContext()
      plaintext.append(
        contentsOf: repeatElement(0, count: combined.count - nonceByteCount - tagByteCount))
      do {
        try combined.withUnsafeBytes { sealed in
          let tagStart = sealed.count - tagByteCount
          try associatedData.withUnsafeBytes { associatedData in
            try plaintext.withUnsafeMutableBytes { output in
              try context.open(
                UnsafeRawBufferPointer(rebasing: sealed[nonceByteCount..<tagStart]),
                tag: UnsafeRawBufferPointer(rebasing: sealed[tagStart...]),
                nonce: UnsafeRawBufferPointer(rebasing: sealed[..<nonceByteCount]),
                associatedData: associatedData, into: output)
            }
          }
        }
      } catch {
        plaintext.removeAll(keepingCapacity: true)
        throw error
      }
    }
  }
}
