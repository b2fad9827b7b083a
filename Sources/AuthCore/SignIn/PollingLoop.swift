import Foundation

/// The schedule the device and PIN flows share: poll every `interval` seconds, 5 more after
/// each "slow down" for the rest of the flow (RFC 8628 §3.5), or the new interval the "slow
/// down" answer names when that is longer, and stop at the local deadline whatever the provider
/// says.
///
/// A poll that gets no answer (a timeout, a dropped connection, an HTTP 500, a garbage body:
/// `PollTrouble`) does not end the flow: the next poll waits twice as long as the last after
/// each such failure in a row (RFC 8628 §3.5: back off on connection timeouts), at most
/// `maximumBackoff` (or the interval, if longer), and the first real answer goes back to the
/// interval. Only the provider's definite answers end it early.
struct PollingLoop {
  /// What one poll found out.
  enum Answer {
    /// Not approved yet (`authorization_pending`, Simkl's `KO`).
    case pending
    /// Poll less often (`slow_down`, Simkl's "Slow down"), at least 5 s more than before, or
    /// every `interval` seconds when the answer names a longer one (GitHub's `slow_down` carries
    /// the new interval it will hold the client to).
    case slowDown(interval: TimeInterval?)
    /// Approved.
    case tokens(TokenResponse)
  }

  /// The longest wait between two polls while the provider cannot be reached.
  static let maximumBackoff: TimeInterval = 60

  let clock: any WallClock
  /// `expires_in` after the code was issued.
  let deadline: Date
  /// Seconds between polls now.
  private(set) var interval: TimeInterval
  /// The trouble of the latest poll, while the polls in a row since the last answer failed.
  private(set) var trouble: PollTrouble?
  /// How many polls in a row failed with trouble.
  private(set) var failures = 0

  init(clock: any WallClock, deadline: Date, interval: TimeInterval) {
    self.clock = clock
    self.deadline = deadline
    self.interval = interval
  }

  /// Seconds until the next poll: the interval, doubled for each failure in a row, capped.
  var wait: TimeInterval {
    guard failures > 0 else { return interval }
    let cap = max(interval, Self.maximumBackoff)
    return min(cap, interval * pow(2, Double(min(failures, 16))))
  }

  /// Polls until tokens arrive, `poll` throws a definite answer, or the deadline passes
  /// (`AuthError.userCodeExpired`). `schedule` is told each next poll time (nil when the
  /// deadline comes first), the interval in force and the trouble being retried (nil once the
  /// provider answers). Runs on the caller's actor, so the closures may touch its state.
  mutating func run(
    isolation: isolated (any Actor)? = #isolation,
    poll: () async throws(AuthError) -> Answer,
    schedule: (_ nextPollAt: Date?, _ interval: TimeInterval, _ trouble: PollTrouble?) async ->
      Void
  ) async throws(AuthError) -> TokenResponse {
    while true {
      let next = await clock.now().addingTimeInterval(wait)
      guard next < deadline else {
        await schedule(nil, interval, trouble)
        try await sleep(until: deadline)
        throw .userCodeExpired
      }
      await schedule(next, interval, trouble)
      try await sleep(until: next)
      do {
        let answer = try await poll()
        (trouble, failures) = (nil, 0)
        switch answer {
        case .pending: continue
        case .slowDown(let named):
          let stated = named.map { min($0, DeviceAuthorizationResponse.longestWait) } ?? 0
          interval = max(interval + 5, stated.isNaN ? 0 : stated)
        case .tokens(let tokens): return tokens
        }
      } catch {
        guard let passing = PollTrouble(error) else { throw error }
        trouble = passing
        failures += 1
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
