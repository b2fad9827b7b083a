import Foundation
import Spelling

/// Time as AuthCore sees it: the current date, and sleeping until a date.
///
/// Every deadline in a sign-in (the login timeout, a device code's `expires_in`, the next poll)
/// and every token expiry comes from an injected clock, so tests run a five-minute silent
/// denial or a fifteen-minute device flow in milliseconds with `ManualClock` (TestSupport).
public protocol WallClock: Sendable {
  /// The current date.
  func now() async -> Date
  /// Returns at `deadline` (at once if it has passed), or throws when the task is cancelled.
  func sleep(until deadline: Date) async throws(CancellationError)
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemClock: WallClock {
  public init() {}

  public func now() async -> Date { Date() }

  public func sleep(until deadline: Date) async throws(CancellationError) {
    while true {
      let remaining = deadline.timeIntervalSinceNow
      if remaining <= 0 { return }
      do {
        // Sleep in slices of at most a minute, so a wall-clock change is noticed.
        try await Task.sleep(nanoseconds: UInt64(clamping: min(remaining, 60) * 1_000_000_000))
      } catch {
        throw CancellationError()
      }
    }
  }
}
