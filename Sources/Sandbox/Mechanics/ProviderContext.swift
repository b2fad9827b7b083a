import Foundation

/// What a profile needs to answer one request: the sandbox's time (the real clock plus the
/// offset set through `/_sandbox/clock`), absolute URLs, its settings, and the counters the
/// request moved, which the engine adds to the stats afterwards.
struct ProviderContext: Sendable {
  /// Now, as the sandbox sees it.
  let now: Date
  /// `http://127.0.0.1:PORT`.
  let baseURL: String
  /// The profile's current settings.
  let settings: ProfileSettings
  /// Counters to add once the request is answered.
  private(set) var events: [SandboxCounter] = []

  init(now: Date, baseURL: String, settings: ProfileSettings) {
    self.now = now
    self.baseURL = baseURL
    self.settings = settings
  }

  mutating func count(_ counter: SandboxCounter) {
    events.append(counter)
  }

  /// `baseURL` + `path`.
  func absolute(_ path: String) -> String { baseURL + path }

  /// Seconds since the Unix epoch, whole.
  var unixTime: Int { Int(now.timeIntervalSince1970.rounded(.down)) }
}
