extension FixedWidthInteger {
  /// `value` rounded toward zero as `Int(_:)` rounds it, but never a crash: a value beyond
  /// this type's range is its nearest end, and NaN is 0.
  ///
  /// For seconds on their way into words, a file or a system call: a provider's expiry or
  /// interval, a deadline, a configured wait. `Int(1e300)` stops the process (SIGILL, no
  /// message), and such a number can come from a provider's answer or an older vault.
  public init<Source: BinaryFloatingPoint>(clamping value: Source) {
    if value.isNaN {
      self = 0
    } else if value <= Source(Self.min) {
      self = .min
    } else if value >= Source(Self.max) {
      // Source(Self.max) may round up (Double(Int.max) is 2^63): `>=` keeps that out.
      self = .max
    } else {
      self = Self(value)
    }
  }
}
