import Foundation
import JSON

/// Every account of the vault as `authtui list` shows it: what it needs to say each account's
/// status and expiry, and the damaged rows, never a token. The caller works out the status at
/// its own time, as when it reads the vault itself.
public struct AgentListing: Sendable, Equatable {
  /// One readable account (`accounts`).
  public struct Account: Sendable, Equatable {
    /// `PROVIDER/LABEL` (`account`).
    public let name: String
    /// The provider id (`provider`).
    public let provider: String
    /// The label (`label`).
    public let label: String
    /// Whether it holds an access token it may hand out: it has one and needs no new sign-in
    /// (`usable`).
    public let usable: Bool
    /// When the access token expires, if it says (`expires_at`, seconds since 1970).
    public let expiresAt: Date?
    /// The granted scopes (`scopes`).
    public let scopes: [String]
    /// Whether it holds a refresh token (`refreshable`).
    public let refreshable: Bool
    /// When its tokens were obtained (`obtained_at`, seconds since 1970; absent from an older
    /// agent): `authtui status` says from when one that cannot be refreshed needs a new
    /// sign-in, as the UI does (`RefreshSchedule.signInNoticeAt`).
    public let obtainedAt: Date?
    /// Whether it is its provider's default account, the one a bare `PROVIDER` names
    /// (`default`, sent only when true: an older agent sends none).
    public let isDefault: Bool
    /// From when to when its refresh token works, when that is known (`refresh_issued_at` and
    /// `refresh_expires_at`, seconds since 1970, sent only when known): `authtui status` and
    /// `list` say by when to sign in again (`RefreshSchedule.signInDeadline`).
    public let refreshValidity: DateInterval?
    /// The tenant it signed in through (Microsoft's `tid`), when the provider names one
    /// (`tenant`, sent only when known).
    public let tenant: String?

    /// An account named `name` with these facts.
    public init(
      name: String, provider: String, label: String, usable: Bool, expiresAt: Date?,
      scopes: [String], refreshable: Bool, obtainedAt: Date? = nil, isDefault: Bool = false,
      refreshValidity: DateInterval? = nil, tenant: String? = nil
    ) {
      self.tenant = tenant
      self.obtainedAt = obtainedAt
      self.refreshValidity = refreshValidity
      self.isDefault = isDefault
      self.name = name
      self.provider = provider
      self.label = label
      self.usable = usable
      self.expiresAt = expiresAt
      self.scopes = scopes
      self.refreshable = refreshable
    }
  }

  /// A row that cannot be read (`damaged`).
  public struct Damaged: Sendable, Equatable {
    /// The row id (`id`).
    public let id: Int64
    /// `PROVIDER/LABEL` when those cells still open (`name`).
    public let name: String?
    /// What is wrong with it, as a sentence (`damage`).
    public let damage: String

    /// Row `id`, named `name` if it still reads, damaged by `damage`.
    public init(id: Int64, name: String?, damage: String) {
      self.id = id
      self.name = name
      self.damage = damage
    }
  }

  /// The readable accounts.
  public let accounts: [Account]
  /// The damaged rows, by id.
  public let damaged: [Damaged]

  /// A listing of `accounts` and `damaged`.
  public init(accounts: [Account], damaged: [Damaged]) {
    self.accounts = accounts
    self.damaged = damaged
  }

  var json: OrderedJSON {
    .object([
      (
        "accounts",
        .array(
          accounts.map { account in
            // `obtained_at` only when known, so the line reads as before without it.
            .object(
              [
                ("account", .string(account.name)), ("provider", .string(account.provider)),
                ("label", .string(account.label)), ("usable", .bool(account.usable)),
                (
                  "expires_at",
                  account.expiresAt.map { .double($0.timeIntervalSince1970) } ?? .null
                ),
                ("scopes", .array(account.scopes.map(OrderedJSON.string))),
                ("refreshable", .bool(account.refreshable)),
              ]
                + (account.obtainedAt.map { [("obtained_at", .double($0.timeIntervalSince1970))] }
                  ?? [])
                + (account.isDefault ? [("default", .bool(true))] : [])
                + (account.refreshValidity.map {
                  [
                    ("refresh_issued_at", .double($0.start.timeIntervalSince1970)),
                    ("refresh_expires_at", .double($0.end.timeIntervalSince1970)),
                  ]
                } ?? [])
                + (account.tenant.map { [("tenant", .string($0))] } ?? []))
          })
      ),
      (
        "damaged",
        .array(
          damaged.map { row in
            .object([
              ("id", .int(Int(row.id))), ("name", row.name.map(OrderedJSON.string) ?? .null),
              ("damage", .string(row.damage)),
            ])
          })
      ),
    ])
  }

  init?(json members: [String: JSONValue]) {
    guard let accounts = members["accounts"]?.arrayValue,
      let damaged = members["damaged"]?.arrayValue
    else { return nil }
    var readable: [Account] = []
    for element in accounts {
      guard let account = element.objectValue, let name = account["account"]?.stringValue,
        let provider = account["provider"]?.stringValue, let label = account["label"]?.stringValue,
        case .bool(let usable)? = account["usable"],
        let expiresAt = AgentOptionalMember.date(account["expires_at"]),
        let scopes = account["scopes"]?.stringArrayValue,
        case .bool(let refreshable)? = account["refreshable"],
        let obtainedAt = AgentOptionalMember.date(account["obtained_at"]),
        let isDefault = AgentOptionalMember.bool(account["default"])
      else { return nil }
      guard let refreshIssuedAt = AgentOptionalMember.date(account["refresh_issued_at"]),
        let refreshExpiresAt = AgentOptionalMember.date(account["refresh_expires_at"]),
        (refreshIssuedAt == nil) == (refreshExpiresAt == nil)
      else { return nil }
      var refreshValidity: DateInterval?
      if let start = refreshIssuedAt, let end = refreshExpiresAt {
        guard start <= end else { return nil }
        refreshValidity = DateInterval(start: start, end: end)
      }
      guard let tenant = AgentOptionalMember.string(account["tenant"]) else { return nil }
      readable.append(
        Account(
          name: name, provider: provider, label: label, usable: usable, expiresAt: expiresAt,
          scopes: scopes, refreshable: refreshable, obtainedAt: obtainedAt,
          isDefault: isDefault ?? false,
          refreshValidity: refreshValidity, tenant: tenant))
    }
    var unreadable: [Damaged] = []
    for element in damaged {
      guard let row = element.objectValue, case .number(let number)? = row["id"],
        let id = Int64(exactly: number), let damage = row["damage"]?.stringValue
      else { return nil }
      guard let name = AgentOptionalMember.string(row["name"]) else { return nil }
      unreadable.append(Damaged(id: id, name: name, damage: damage))
    }
    self.init(accounts: readable, damaged: unreadable)
  }
}
