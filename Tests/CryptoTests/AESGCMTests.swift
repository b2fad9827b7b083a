import Crypto
import Testing

/// The AES-256 cases (13–16) of the GCM specification's test vectors (McGrew & Viega, as
/// reproduced in NIST's GCM validation suite `gcmEncryptExtIV256`).
@Suite struct AESGCMTests {
  struct Vector: Sendable, CustomTestStringConvertible {
    let name: String
    let key: String
    let nonce: String
    let plaintext: String
    let associatedData: String
    let ciphertext: String
    let tag: String
    var testDescription: String { name }
  }

  static let key15 = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
  static let plaintext64 =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
  static let ciphertext64 =
    "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
    + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"

  static let vectors: [Vector] = [
    Vector(
      name: "case 13: empty plaintext", key: String(repeating: "0", count: 64),
      nonce: String(repeating: "0", count: 24), plaintext: "", associatedData: "",
      ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"),
    Vector(
      name: "case 14: one zero block", key: String(repeating: "0", count: 64),
      nonce: String(repeating: "0", count: 24), plaintext: String(repeating: "0", count: 32),
      associatedData: "", ciphertext: "cea7403d4d606b6e074ec5d3baf39d18",
      tag: "d0d1c8a799996bf0265b98b5d48ab919"),
    Vector(
      name: "case 15: four blocks", key: key15, nonce: "cafebabefacedbaddecaf888",
      plaintext: plaintext64, associatedData: "", ciphertext: ciphertext64,
      tag: "b094dac5d93471bdec1a502270e3cc6c"),
    Vector(
      name: "case 16: 60 bytes with associated data", key: key15,
      nonce: "cafebabefacedbaddecaf888", plaintext: String(plaintext64.prefix(120)),
      associatedData: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
      ciphertext: String(ciphertext64.prefix(120)), tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
  ]

  @Test(arguments: vectors)
  func sealsTheVector(vector: Vector) throws {
    let box = try AESGCM.seal(
      hex(vector.plaintext), using: SymmetricKey(bytes: hex(vector.key)), nonce: hex(vector.nonce),
      authenticating: hex(vector.associatedData))
    #expect(hexString(box.ciphertext) == vector.ciphertext)
    #expect(hexString(box.tag) == vector.tag)
  }

  @Test(arguments: vectors)
  func opensTheVector(vector: Vector) throws {
    let box = try AESGCM.SealedBox(
      nonce: hex(vector.nonce), ciphertext: hex(vector.ciphertext), tag: hex(vector.tag))
    let opened = try AESGCM.open(
      box, using: SymmetricKey(bytes: hex(vector.key)), authenticating: hex(vector.associatedData))
    #expect(hexString(opened) == vector.plaintext)
  }

  static let vector16 = vectors[3]

  @Test func refusesTheVectorWithOneBitFlippedInTheTag() throws {
    var tag = hex(Self.vector16.tag)
    tag[0] ^= 0x01
    try expectRefused(ciphertext: hex(Self.vector16.ciphertext), tag: tag)
  }

  @Test func refusesTheVectorWithOneBitFlippedInTheCiphertext() throws {
    var ciphertext = hex(Self.vector16.ciphertext)
    ciphertext[17] ^= 0x80
    try expectRefused(ciphertext: ciphertext, tag: hex(Self.vector16.tag))
  }

  @Test func refusesTheVectorWithOneBitFlippedInTheAssociatedData() throws {
    var associatedData = hex(Self.vector16.associatedData)
    associatedData[associatedData.count - 1] ^= 0x01
    try expectRefused(
      ciphertext: hex(Self.vector16.ciphertext), tag: hex(Self.vector16.tag),
      associatedData: associatedData)
  }

  @Test func refusesTheVectorUnderAnotherKey() throws {
    var key = hex(Self.vector16.key)
    key[31] ^= 0x01
    try expectRefused(
      ciphertext: hex(Self.vector16.ciphertext), tag: hex(Self.vector16.tag), key: key)
  }

  /// One cipher for many cells (`AESGCM.Cipher`, what the vault's cells use): each vector
  /// seals and opens as with the one-shot functions, and a refused box leaves the cipher as
  /// good as new.
  @Test(arguments: vectors)
  func oneCipherSealsAndOpensTheVectorAgainAndAgain(vector: Vector) throws {
    let cipher = AESGCM.Cipher(key: try SymmetricKey(bytes: hex(vector.key)))
    for _ in 0..<3 {
      let box = try cipher.seal(
        hex(vector.plaintext), nonce: hex(vector.nonce),
        authenticating: hex(vector.associatedData))
      #expect(hexString(box.ciphertext) == vector.ciphertext)
      #expect(hexString(box.tag) == vector.tag)
      #expect(
        hexString(try cipher.open(box, authenticating: hex(vector.associatedData)))
          == vector.plaintext)
      var altered = box.combined
      altered[altered.count - 1] ^= 0x01
      #expect(throws: CryptoError.authenticationFailed) {
        try cipher.open(combined: altered, authenticating: hex(vector.associatedData))
      }
      #expect(
        hexString(
          try cipher.open(combined: box.combined, authenticating: hex(vector.associatedData)))
          == vector.plaintext)
      #expect(try AESGCM.SealedBox(combined: box.combined) == box)
    }
  }

  /// Opening into one buffer again and again gives each vector's plaintext, longer or
  /// shorter than the last; a refused box leaves the buffer empty, and the next opens.
  @Test func opensEachVectorIntoOneReusedBuffer() throws {
    let cipher = AESGCM.Cipher(key: try SymmetricKey(bytes: hex(Self.key15)))
    var plaintext: [UInt8] = [9, 9, 9]
    for vector in Self.vectors.dropFirst(2) + Self.vectors.dropFirst(2).reversed() {
      let sealed = hex(vector.nonce) + hex(vector.ciphertext) + hex(vector.tag)
      try cipher.open(
        combined: sealed[...], authenticating: hex(vector.associatedData), into: &plaintext)
      #expect(hexString(plaintext) == vector.plaintext)
      var altered = sealed
      altered[AESGCM.nonceByteCount] ^= 0x01
      #expect(throws: CryptoError.authenticationFailed) {
        try cipher.open(
          combined: altered[...], authenticating: hex(vector.associatedData), into: &plaintext)
      }
      #expect(plaintext.isEmpty)
    }
    #expect(throws: CryptoError.invalidParameter("a sealed box is at least 28 bytes, not 27")) {
      try cipher.open(combined: [UInt8](repeating: 0, count: 27)[...], into: &plaintext)
    }
    #expect(plaintext.isEmpty)
  }

  @Test func oneCipherDrawsAFreshNonceForEachSealAndRefusesAShortBox() throws {
    let key = try SymmetricKey.random()
    let cipher = AESGCM.Cipher(key: key)
    let boxes = try (0..<4).map { _ in try cipher.seal(bytes("same"), authenticating: [1]) }
    #expect(Set(boxes.map(\.nonce)).count == 4)
    for box in boxes {
      #expect(try AESGCM.open(box, using: key, authenticating: [1]) == bytes("same"))
      #expect(try cipher.open(combined: box.combined, authenticating: [1]) == bytes("same"))
      #expect(throws: CryptoError.authenticationFailed) {
        try cipher.open(combined: box.combined, authenticating: [2])
      }
    }
    #expect(throws: CryptoError.invalidParameter("a sealed box is at least 28 bytes, not 27")) {
      try cipher.open(combined: [UInt8](repeating: 0, count: 27))
    }
    #expect(throws: CryptoError.self) { try cipher.seal([1], nonce: [0, 1, 2]) }
  }

  @Test func sealsWithAFreshRandomNonceEachTime() throws {
    let key = try SymmetricKey.random()
    let first = try AESGCM.seal(bytes("same"), using: key)
    let second = try AESGCM.seal(bytes("same"), using: key)
    #expect(first.nonce != second.nonce)
    #expect(first.ciphertext != second.ciphertext)
    #expect(
      try AESGCM.open(AESGCM.SealedBox(combined: first.combined), using: key) == bytes("same"))
  }

  @Test func refusesKeysNoncesAndBoxesOfTheWrongSize() throws {
    #expect(throws: CryptoError.self) { try SymmetricKey(bytes: [UInt8](repeating: 0, count: 16)) }
    let key = try SymmetricKey.random()
    #expect(throws: CryptoError.self) { try AESGCM.seal([1], using: key, nonce: [0, 1, 2]) }
    #expect(throws: CryptoError.self) {
      try AESGCM.SealedBox(combined: [UInt8](repeating: 0, count: 27))
    }
  }

  @Test func keepsKeysOutOfDescriptions() throws {
    let key = try SymmetricKey(bytes: [UInt8](repeating: 0xAB, count: 32))
    #expect(!"\(key)".lowercased().contains("ab"))
    #expect(!String(reflecting: key).contains("171"))
  }

  private func expectRefused(
    ciphertext: [UInt8], tag: [UInt8], associatedData: [UInt8] = hex(vector16.associatedData),
    key: [UInt8] = hex(vector16.key)
  ) throws {
    let box = try AESGCM.SealedBox(
      nonce: hex(Self.vector16.nonce), ciphertext: ciphertext, tag: tag)
    let symmetricKey = try SymmetricKey(bytes: key)
    #expect(throws: CryptoError.authenticationFailed) {
      try AESGCM.open(box, using: symmetricKey, authenticating: associatedData)
    }
  }
}
