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
  }

  /// The agent's process id (`pid`).
  public var pid: Int32
  /// The canonical path of the vault it serves (`vault`).
  public var vault: String
  /// When it started answering (`since`).
  public var since: TimeInterval
  /// Its idle timeout in seconds (`idle_timeout`); nil when it never stops by itself.
  public var idleTimeout: Int?
  /// The accounts it serves, in the vault's order (`accounts`).
  public var accounts: [Account]

  /// A status with every field given.
  public init(
    pid: Int32, vault: String, since: TimeInterval, idleTimeout: Int?, accounts: [Account]
  ) {
    self.pid = pid
    self.vault = vault
    self.since = since
    self.idleTimeout = idleTimeout
    self.accounts = accounts
  }

  var json: OrderedJSON {
    let accounts = self.accounts.map { $0.account.statusJSON(nextRefresh: $0.nextRefresh) }
    return .object([
      ("ok", true), ("pid", .int(Int(pid))), ("vault", .string(vault)), ("since", .double(since)),
      ("idle_timeout", idleTimeout.map { .int($0) } ?? .null), ("accounts", .array(accounts)),
    ])
  }

  /// Reads the members of a status answer; nil when one is missing or of the wrong kind.
  init?(_ members: [String: JSONValue]) {
    guard case .number(let pid)? = members["pid"], let whole = Int32(exactly: pid),
      let vault = members["vault"]?.stringValue, case .number(let since)? = members["since"],
      case .array(let entries)? = members["accounts"],
      let idleTimeout = Self.optional(members["idle_timeout"], { Int(exactly: $0) })
    else { return nil }
    var accounts: [Account] = []
    for entry in entries {
      guard case .object(let fields) = entry,
        let (account, nextRefresh) = AccountSummary.read(statusJSON: fields)
      else { return nil }
      accounts.append(Account(account, nextRefresh: nextRefresh))
    }
    guard idleTimeout.map({ $0 >= 0 }) ?? true else { return nil }
    self.init(
      pid: whole, vault: vault, since: since, idleTimeout: idleTimeout, accounts: accounts)
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
