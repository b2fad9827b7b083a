internal import COpenSSL

/// Comparison whose running time does not depend on where two secrets differ.
public enum ConstantTime {
  /// True when both byte strings are equal. Lengths are not secret: unequal lengths return false at once.
  public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    if lhs.isEmpty { return true }
    // CRYPTO_memcmp is written so that no compiler turns it into an early-exit loop.
    return lhs.withUnsafeBytes { left in
      rhs.withUnsafeBytes { right in
        CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
      }
    }
  }
}
