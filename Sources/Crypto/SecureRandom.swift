/// Random bytes straight from the operating system's CSPRNG.
///
/// Swift's `SystemRandomNumberGenerator` is the documented CSPRNG of the platform: on Linux it
/// reads `getrandom(2)` (falling back to `/dev/urandom`), and it traps rather than hand back
/// predictable bytes, so there is no error path to forget to check.
public enum SecureRandom {
  /// Returns `count` bytes from the kernel's cryptographically secure generator.
  public static func bytes(count: Int) -> [UInt8] {
    precondition(count >= 0, "a negative byte count is a programming error")
    var generator = SystemRandomNumberGenerator()
    var output = [UInt8]()
    output.reserveCapacity(count + 8)
    while output.count < count {
      withUnsafeBytes(of: generator.next() as UInt64) { output.append(contentsOf: $0) }
    }
    output.removeLast(output.count - count)
    return output
  }
}

/// A source of random bytes, injected wherever a test needs repeatable "randomness".
public protocol RandomSource: Sendable {
  /// Returns `count` unpredictable bytes.
  func bytes(count: Int) -> [UInt8]
}

/// The production random source: the operating system's CSPRNG.
public struct SystemRandomSource: RandomSource {
  public init() {}

  public func bytes(count: Int) -> [UInt8] {
    SecureRandom.bytes(count: count)
  }
}
