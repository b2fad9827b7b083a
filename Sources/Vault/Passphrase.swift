import Crypto
import Foundation

/// A vault passphrase, kept out of every printout.
///
/// Text is normalised to Unicode NFC so the same passphrase typed through different input methods
/// (precomposed "é" or "e" + combining accent) opens the same vault.
public struct Passphrase: Sendable {
  /// The UTF-8 bytes scrypt derives the key-encryption key from.
  let bytes: [UInt8]

  /// A passphrase from text.
  public init(_ text: String) {
    bytes = Array(text.precomposedStringWithCanonicalMapping.utf8)
  }

  /// True when there is nothing to derive a key from.
  public var isEmpty: Bool { bytes.isEmpty }

  /// Compares two passphrases (for "type it again") without an early exit.
  public func matches(_ other: Passphrase) -> Bool {
    ConstantTime.equals(bytes, other.bytes)
  }
}

extension Passphrase: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String { "Passphrase(hidden)" }
  public var debugDescription: String { description }
  public var customMirror: Mirror { Mirror(self, children: []) }
}
