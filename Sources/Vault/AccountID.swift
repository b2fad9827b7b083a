/// The row id of an account: stable for the account's life, never reused after it is deleted.
///
/// Row ids are plaintext bookkeeping; they say nothing about the provider or the person.
public struct AccountID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The SQLite row id.
  public let rawValue: Int64

  /// Wraps a row id (as printed by `description`, or stored by a caller).
  public init(_ rawValue: Int64) {
    self.rawValue = rawValue
  }

  public var description: String { "#\(rawValue)" }

  public static func < (lhs: AccountID, rhs: AccountID) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
