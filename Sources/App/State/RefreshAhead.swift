import Foundation

/// How the background refresh of one account stands, for the reducer's schedule and the row
/// that says "refresh failed, retrying in 30 s".
public struct RefreshAhead: Sendable, Equatable {
  /// The refresh in flight, if one is.
  public var running: RequestID?
  /// Attempts that failed in a row (the network or the provider); the wait doubles with each.
  public var failures = 0
  /// When the next attempt is due after a failure.
  public var retryAt: Date?
  /// Why the last attempt failed.
  public var problem: String?

  /// Nothing running, nothing failed.
  public init() {}
}
