import Foundation

/// The schedule the device and PIN flows share: poll every `interval` seconds, 5 more after
/// each "slow down" for the rest of the flow (RFC 8628 §3.5), twice as long after a request
/// timed out (RFC 8628 §3.5: back off on connection timeouts), and stop at the local deadline
/// whatever the provider says.
struct PollingLoop {
  /// What one poll found out.
  enum Answer {
    /// Not approved yet (`authorization_pending`, Simkl's `KO`).
    case pending
    /// Poll less often (`slow_down`, Simkl's "Slow down").
    case slowDown
    /// Approved.
    case tokens(TokenResponse)
  }

  let clock: any WallClock
  /// `expires_in` after the code was issued.
  let deadline: Date
  /// Seconds between polls now.
  private(set) var interval: TimeInterval

  init(clock: any WallClock, deadline: Date, interval: TimeInterval) {
    self.clock = clock
    self.deadline = deadline
    self.interval = interval
  }

  /// Polls until tokens arrive, `poll` throws, or the deadline passes
  /// (`AuthError.userCodeExpired`). `schedule` is told each next poll time (nil when the
  /// deadline comes first) and the interval in force. Runs on the caller's actor, so the
  /// closures may touch its state.
  mutating func run(
    isolation: isolated (any Actor)? = #isolation,
    poll: () async throws(AuthError) -> Answer,
    schedule: (_ nextPollAt: Date?, _ interval: TimeInterval) async -> Void
  ) async throws(AuthError) -> TokenResponse {
    while true {
      let next = await clock.now().addingTimeInterval(interval)
      guard next < deadline else {
        await schedule(nil, interval)
        try await sleep(until: deadline)
        throw .userCodeExpired
      }
      await schedule(next, interval)
      try await sleep(until: next)
      do {
        switch try await poll() {
        case .pending: continue
        case .slowDown: interval += 5
        case .tokens(let tokens): return tokens
        }
      } catch .transport(.timedOut) {
        interval *= 2
      }
    }
  }

  private func sleep(until date: Date) async throws(AuthError) {
    do {
      try await clock.sleep(until: date)
    } catch {
      throw .cancelled
    }
  }
}
