import Foundation

/// A look the UI takes again and again in the background (at the vault, at the provider files,
/// at the agent's held requests): one at a time, the next no sooner than `interval` seconds
/// after the last one started.
struct RepeatedLook: Sendable {
  /// How long after one look started the next may start.
  let interval: TimeInterval
  /// The look in flight.
  var running: RequestID?
  /// When the last look started.
  var startedAt: Date?

  /// A look taken at most every `interval` seconds.
  init(every interval: TimeInterval) {
    self.interval = interval
  }

  /// True when a look may start at `now`: none is in flight and `interval` has gone by.
  func isDue(at now: Date) -> Bool {
    running == nil && (startedAt.map { now.timeIntervalSince($0) >= interval } ?? true)
  }
}
