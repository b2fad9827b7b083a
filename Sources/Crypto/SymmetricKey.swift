/// A 256-bit secret key for AES-256-GCM.
///
/// A distinct type rather than bare bytes so a salt, a nonce or a token cannot be passed where a key
/// belongs, and so the key never prints: `description` hides it.
public struct SymmetricKey: Sendable, Equatable {
  /// The key length in bytes.
  public static let byteCount = 32

  /// The raw key bytes. Keep them inside the type that owns the key.
  public let bytes: [UInt8]

  /// Wraps exactly 32 bytes as a key.
  public init(bytes: [UInt8]) throws {
    guard bytes.count == Self.byteCount else {
      throw CryptoError.invalidParameter("an AES-256 key is 32 bytes, not \(bytes.count)")
    }
    self.bytes = bytes
  }

  /// A fresh random key from the operating system's CSPRNG.
  public static func random() throws -> SymmetricKey {
    try SymmetricKey(bytes: SecureRandom.bytes(count: byteCount))
  }

  public static func == (lhs: SymmetricKey, rhs: SymmetricKey) -> Bool {
    ConstantTime.equals(lhs.bytes, rhs.bytes)
  }
}

extension SymmetricKey: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { "SymmetricKey(256 bits, hidden)" }
  public var debugDescription: String { description }
}
