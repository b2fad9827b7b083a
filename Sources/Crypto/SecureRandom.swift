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

/// Any random source as a concrete one: where a source is kept as an existential (a client's,
/// an attempt's kept for restarts) and passed on to a `some RandomSource` parameter, which an
/// existential does not satisfy.
public struct AnyRandomSource: RandomSource {
  /// The source every call goes to.
  public let base: any RandomSource

  /// `base` as a concrete source.
  public init(_ base: any RandomSource) {
    self.base = base
  }

  public func bytes(count: Int) -> [UInt8] { base.bytes(count: count) }
}

/// The production random source: the operating system's CSPRNG.
public struct SystemRandomSource: RandomSource {
  public init() {}

  public func bytes(count: Int) -> [UInt8] {
    SecureRandom.bytes(count: count)
  }
}
