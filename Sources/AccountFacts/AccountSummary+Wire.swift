import Foundation
import JSON

// The JSON forms of an account's facts, each written here once: the agent's `list` answer
// (times in seconds since 1970, read back by the commands), the agent's `status` answer, and
// what `authtui list --json` prints. A member's name appears in no other file.

extension AccountSummary {
  // MARK: The agent's `list` answer

  /// The account as the agent's listing carries it: `account`, `provider`, `label`, `usable`,
  /// `expires_at`, `scopes`, `refreshable`, then `obtained_at`, `default`,
  /// `refresh_issued_at`/`refresh_expires_at`, `tenant` and `dpop_bound`/`dpop_jkt` only when
  /// known (an older agent sends none of them, and the line reads as it did without them).
  public var listingJSON: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("account", .string(name.description)), ("provider", .string(name.provider.rawValue)),
      ("label", .string(name.label)), ("usable", .bool(usable)),
      ("expires_at", Self.seconds(expiresAt)),
      ("scopes", .array(scopes.map(OrderedJSON.string))), ("refreshable", .bool(refreshable)),
    ]
    if let obtainedAt { members.append(("obtained_at", Self.seconds(obtainedAt))) }
    if isDefault { members.append(("default", .bool(true))) }
    if let refreshValidity {
      members += [
        ("refresh_issued_at", Self.seconds(refreshValidity.start)),
        ("refresh_expires_at", Self.seconds(refreshValidity.end)),
      ]
    }
    if let tenant { members.append(("tenant", .string(tenant))) }
    members += dpopMembers
    return .object(members)
  }

  /// `dpop_bound` and `dpop_jkt` for a DPoP-bound account (the thumbprint when known), none
  /// for a Bearer one: the agent's answers leave them out, as an agent of the release before.
  private var dpopMembers: [(String, OrderedJSON)] {
    guard isDPoPBound else { return [] }
    return [("dpop_bound", .bool(true))]
      + (dpopThumbprint.map { [("dpop_jkt", .string($0))] } ?? [])
  }

  /// Reads `dpop_bound` and `dpop_jkt` (absent: a Bearer account); nil when either is of the
  /// wrong kind.
  private static func dpop(_ members: [String: JSONValue]) -> (bound: Bool, jkt: String?)? {
    guard let bound = OptionalMember.bool(members["dpop_bound"]),
      let jkt = OptionalMember.string(members["dpop_jkt"])
    else { return nil }
    return (bound ?? false, jkt)
  }

  /// Reads `listingJSON` back; nil when a member is missing or of the wrong kind, or the
  /// provider is no provider id. The provider's display name is its id, and `usable` becomes
  /// `hasAccessToken` (the status and deadlines read the same).
  public init?(listingJSON account: [String: JSONValue]) {
    guard account["account"]?.stringValue != nil,
      let provider = account["provider"]?.stringValue.flatMap({ try? ProviderID($0) }),
      let label = account["label"]?.stringValue,
      case .bool(let usable)? = account["usable"],
      let expiresAt = OptionalMember.date(account["expires_at"]),
      let scopes = account["scopes"]?.stringArrayValue,
      case .bool(let refreshable)? = account["refreshable"],
      let obtainedAt = OptionalMember.date(account["obtained_at"]),
      let isDefault = OptionalMember.bool(account["default"]),
      let refreshIssuedAt = OptionalMember.date(account["refresh_issued_at"]),
      let refreshExpiresAt = OptionalMember.date(account["refresh_expires_at"]),
      (refreshIssuedAt == nil) == (refreshExpiresAt == nil),
      let tenant = OptionalMember.string(account["tenant"]),
      let dpop = Self.dpop(account)
    else { return nil }
    var refreshValidity: DateInterval?
    if let start = refreshIssuedAt, let end = refreshExpiresAt {
      guard start <= end else { return nil }
      refreshValidity = DateInterval(start: start, end: end)
    }
    self.init(
      name: AccountName(provider: provider, label: label), hasAccessToken: usable,
      expiresAt: expiresAt, obtainedAt: obtainedAt, scopes: scopes, tokenType: nil,
      refreshable: refreshable, isDefault: isDefault ?? false, tenant: tenant,
      refreshValidity: refreshValidity, isDPoPBound: dpop.bound, dpopThumbprint: dpop.jkt)
  }

  // MARK: The agent's `status` answer

  /// The account as the agent's status carries it: `account`, `expires_at`, `sign_in_needed`,
  /// `refreshable`, and `next_refresh`, when the agent refreshes it next; then `dpop_bound`
  /// and `dpop_jkt` for a DPoP-bound account.
  public func statusJSON(nextRefresh: Date?) -> OrderedJSON {
    .object(
      [
        ("account", .string(name.description)), ("expires_at", Self.seconds(expiresAt)),
        ("sign_in_needed", .bool(!usable)), ("refreshable", .bool(refreshable)),
        ("next_refresh", Self.seconds(nextRefresh)),
      ] + dpopMembers)
  }

  /// Reads `statusJSON` back: the account and its next refresh; nil when a member is missing
  /// or of the wrong kind, or `account` is no `PROVIDER/LABEL`.
  public static func read(statusJSON fields: [String: JSONValue])
    -> (account: AccountSummary, nextRefresh: Date?)?
  {
    guard let name = fields["account"]?.stringValue.flatMap(AccountName.init),
      case .bool(let signInNeeded)? = fields["sign_in_needed"],
      case .bool(let refreshable)? = fields["refreshable"],
      fields["expires_at"] != nil, fields["next_refresh"] != nil,
      let expiresAt = OptionalMember.date(fields["expires_at"]),
      let nextRefresh = OptionalMember.date(fields["next_refresh"]),
      let dpop = Self.dpop(fields)
    else { return nil }
    let account = AccountSummary(
      name: name, hasAccessToken: !signInNeeded, expiresAt: expiresAt, tokenType: nil,
      refreshable: refreshable, isDPoPBound: dpop.bound, dpopThumbprint: dpop.jkt)
    return (account, nextRefresh)
  }

  // MARK: `authtui list --json`

  /// The account as `authtui list --json` prints it at `now`: `account`, `provider`, `label`,
  /// `status`, `expires_at`, `scopes`, `refreshable`, `default`, `refresh_expires_at`,
  /// `tenant`, `dpop_bound` and `dpop_jkt` (null for a Bearer token), every one always there;
  /// times as `time` writes them (ISO 8601).
  public func listCommandJSON(at now: Date, time: (Date) -> String) -> OrderedJSON {
    .object([
      ("account", .string(name.description)), ("provider", .string(name.provider.rawValue)),
      ("label", .string(name.label)), ("status", .string(status(at: now).rawValue)),
      ("expires_at", expiresAt.map { .string(time($0)) } ?? .null),
      ("scopes", .array(scopes.map(OrderedJSON.string))), ("refreshable", .bool(refreshable)),
      ("default", .bool(isDefault)),
      ("refresh_expires_at", refreshEnd.map { .string(time($0)) } ?? .null),
      ("tenant", tenant.map { .string($0) } ?? .null),
      ("dpop_bound", .bool(isDPoPBound)),
      ("dpop_jkt", dpopThumbprint.map { .string($0) } ?? .null),
    ])
  }

  /// When its refresh token stops working, when it has one and that is known.
  public var refreshEnd: Date? { refreshable ? refreshValidity?.end : nil }

  /// A time in seconds since 1970, or null.
  private static func seconds(_ date: Date?) -> OrderedJSON {
    date.map { .double($0.timeIntervalSince1970) } ?? .null
  }
}
