import Foundation

/// One device or PIN code: handed to a device, typed by a person on the verification page.
struct DeviceGrant: Sendable {
  /// What the person on the verification page decided.
  enum Decision: Sendable, Equatable {
    case pending
    case approved(username: String)
    case denied
    /// The tokens were handed out; the code is spent.
    case redeemed
  }

  let deviceCode: String
  let userCode: String
  let clientID: String
  let scopes: [String]
  /// The app name the device gave (Simkl's `app-name`), for the approval page.
  let appName: String?
  let expiresAt: Date
  /// Minimum seconds between polls; RFC 8628 `slow_down` raises it by 5.
  var interval: Int
  var lastPoll: Date?
  var decision: Decision = .pending
}

/// The device and PIN codes of one profile (RFC 8628 §3; Simkl's PIN flow).
struct DeviceGrants: Sendable {
  /// The outcome of one poll.
  enum PollOutcome: Sendable {
    case pending
    case slowDown
    case approved(DeviceGrant, username: String)
    case denied
    case expired
    case redeemed
    case unknown
  }

  /// Polls this much early are still on time: a client that sleeps `interval` seconds between
  /// answers never trips it, one that polls in a loop always does.
  static let pollTolerance: TimeInterval = 0.1

  private var grants: [String: DeviceGrant] = [:]
  private var userCodeByDeviceCode: [String: String] = [:]

  /// The key a user code is filed under: case, dashes and spaces do not matter to a person
  /// typing it (RFC 8628 §6.1).
  static func normalized(_ userCode: String) -> String {
    String(userCode.uppercased().filter { $0 != "-" && $0 != " " })
  }

  /// Files a new code.
  mutating func add(_ grant: DeviceGrant) {
    let key = Self.normalized(grant.userCode)
    grants[key] = grant
    userCodeByDeviceCode[grant.deviceCode] = key
  }

  /// The grant a person typed `userCode` for, if it is still waiting for a decision.
  func waiting(userCode: String, now: Date) -> DeviceGrant? {
    guard let grant = grants[Self.normalized(userCode)], grant.expiresAt > now,
      grant.decision == .pending
    else { return nil }
    return grant
  }

  /// Records the person's decision for a code still waiting; false when there is none.
  mutating func decide(userCode: String, _ decision: DeviceGrant.Decision, now: Date) -> Bool {
    let key = Self.normalized(userCode)
    guard waiting(userCode: key, now: now) != nil else { return false }
    grants[key]?.decision = decision
    return true
  }

  /// The interval the code `deviceCode` is held to now, after any `slow_down`.
  func interval(deviceCode: String) -> Int? {
    userCodeByDeviceCode[deviceCode].flatMap { grants[$0]?.interval }
  }

  /// A poll by device code (RFC 8628 §3.4); `growInterval` adds 5 s after a too-early poll
  /// (§3.5 `slow_down`).
  mutating func poll(deviceCode: String, clientID: String, now: Date, growInterval: Bool)
    -> PollOutcome
  {
    guard let key = userCodeByDeviceCode[deviceCode] else { return .unknown }
    return poll(key: key, clientID: clientID, now: now, growInterval: growInterval)
  }

  /// A poll by user code (Simkl's `GET /oauth/pin/{user_code}`).
  mutating func poll(userCode: String, clientID: String, now: Date, growInterval: Bool)
    -> PollOutcome
  {
    poll(key: Self.normalized(userCode), clientID: clientID, now: now, growInterval: growInterval)
  }

  private mutating func poll(key: String, clientID: String, now: Date, growInterval: Bool)
    -> PollOutcome
  {
    guard var grant = grants[key], grant.clientID == clientID else { return .unknown }
    defer { grants[key] = grant }
    if grant.decision == .redeemed { return .redeemed }
    if grant.expiresAt <= now { return .expired }
    let previous = grant.lastPoll
    grant.lastPoll = now
    if let previous,
      now.timeIntervalSince(previous) + Self.pollTolerance < TimeInterval(grant.interval)
    {
      if growInterval { grant.interval += 5 }
      return .slowDown
    }
    switch grant.decision {
    case .pending:
      return .pending
    case .denied:
      return .denied
    case .approved(let username):
      grant.decision = .redeemed
      return .approved(grant, username: username)
    case .redeemed:
      return .redeemed
    }
  }
}

extension DeviceGrant: CustomStringConvertible {
  /// Without the device code and the user code.
  var description: String { "DeviceGrant(client: \(clientID), decision: \(decision))" }
}

extension DeviceGrants: CustomStringConvertible {
  var description: String { "DeviceGrants(\(grants.count) codes)" }
}
