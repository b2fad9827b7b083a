/// Ties the result of background work to the request that started it (a sign-in attempt, a
/// refresh, an export), so a late answer to a cancelled request is recognised and dropped.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
  /// The number, unique within one run of the UI.
  public let value: Int

  /// The request numbered `value`.
  public init(_ value: Int) {
    self.value = value
  }

  public var description: String { "#\(value)" }
}
