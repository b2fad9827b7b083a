import Foundation
import JSON

/// What a running agent reports about itself (`authtui agent status`). Times are seconds since
/// 1970, as on the wire, so that an answer read back is the same value.
public struct AgentStatus: Sendable, Equatable {
  /// One account of the vault, as the agent sees it (`accounts[]`, as
  /// `AccountSummary.statusJSON` writes it).
  public struct Account: Sendable, Equatable {
    /// Its facts: the name, expiry, whether it needs a new sign-in, whether it is refreshable.
    public var account: AccountSummary
    /// When the agent refreshes it next (`next_refresh`): `RefreshSchedule`'s time, nil when it
    /// is not refreshed ahead (no refresh token, a new sign-in needed, no expiry).
    public var nextRefresh: Date?

    /// `account`, refreshed next at `nextRefresh`.
    public init(_ account: AccountSummary, nextRefresh: Date?) {
      self.account = account
      self.nextRefresh = nextRefresh
    }

    /// Reads an account as a status answer lists it (`AccountSummary.statusJSON`).
    init?(json fields: [String: JSONValue]) {
      guard let (account, nextRefresh) = AccountSummary.read(statusJSON: fields) else {
        return nil
      }
      self.init(account, nextRefresh: nextRefresh)
    }
  }

  /// The agent's process id (`pid`).
  public var pid: Int32
  /// The canonical path of the vault it serves (`vault`).
  public var vault: String
  /// When it started answering (`since`).
  public var since: TimeInterval
  /// Its idle timeout in seconds (`idle_timeout`); nil when it never stops by itself.
  public var idleTimeout: Int?
  /// When its lifetime ends and it stops, whatever its activity (`ends_at`, seconds since
  /// 1970); nil when it has none (`agent start --lifetime`).
  public var endsAt: TimeInterval?
  /// The accounts it serves, in the vault's order (`accounts`).
  public var accounts: [Account]
  /// The requests it answered or refused lately, oldest first (`requests`): at most
  /// `AgentStatus.maximumRecords`, fewer when the answer would be too long.
  public var requests: [AgentRequestRecord]

  /// How many recent requests the agent remembers.
  public static let maximumRecords = 100

  /// A status with every field given.
  public init(
    pid: Int32, vault: String, since: TimeInterval, idleTimeout: Int?,
    endsAt: TimeInterval? = nil, accounts: [Account], requests: [AgentRequestRecord] = []
  ) {
    self.pid = pid
    self.vault = vault
    self.since = since
    self.idleTimeout = idleTimeout
    self.endsAt = endsAt
    self.accounts = accounts
    self.requests = requests
  }

  var json: OrderedJSON {
    let accounts = self.accounts.map { $0.account.statusJSON(nextRefresh: $0.nextRefresh) }
    return .object([
      ("ok", true), ("pid", .int(Int(pid))), ("vault", .string(vault)), ("since", .double(since)),
      ("idle_timeout", idleTimeout.map { .int($0) } ?? .null),
      ("ends_at", endsAt.map { .double($0) } ?? .null), ("accounts", .array(accounts)),
      ("requests", .array(requests.map(\.json))),
    ])
  }

  /// Reads the members of a status answer; nil when one is missing or of the wrong kind.
  init?(_ members: [String: JSONValue]) {
    guard case .number(let pid)? = members["pid"], let whole = Int32(exactly: pid),
      let vault = members["vault"]?.stringValue, case .number(let since)? = members["since"],
      let accounts = members["accounts"]?.objectArrayValue(Account.init(json:)),
      let idleTimeout = Self.optional(members["idle_timeout"], { Int(exactly: $0) }),
      // Absent from the answers of agents before `--lifetime` and the request log.
      let endsAt: TimeInterval? =
        members["ends_at"] == nil
        ? .some(nil) : Self.optional(members["ends_at"], { $0.isFinite ? $0 : nil })
    else { return nil }
    var requests: [AgentRequestRecord] = []
    if let value = members["requests"] {
      guard let records = value.objectArrayValue(AgentRequestRecord.init(json:)) else {
        return nil
      }
      requests = records
    }
    guard idleTimeout.map({ $0 >= 0 }) ?? true else { return nil }
    self.init(
      pid: whole, vault: vault, since: since, idleTimeout: idleTimeout, endsAt: endsAt,
      accounts: accounts, requests: requests)
  }

  /// A number or null: `.some(nil)` for null, nil when the member is missing or neither.
  private static func optional<Value>(_ value: JSONValue?, _ convert: (Double) -> Value?)
    -> Value??
  {
    switch value {
    case .null?: return .some(nil)
    case .number(let number)?: return convert(number).map { .some($0) }
    default: return nil
    }
  }
}
