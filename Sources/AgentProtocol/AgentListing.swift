import Foundation
import JSON

/// Every account of the vault as `authtui list` shows it: what it needs to say each account's
/// status and expiry, and the damaged rows, never a token. The caller works out the status at
/// its own time, as when it reads the vault itself.
public struct AgentListing: Sendable, Equatable {
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

  /// The readable accounts (`accounts`, each as `AccountSummary.listingJSON` writes it).
  public let accounts: [AccountSummary]
  /// The damaged rows, by id.
  public let damaged: [Damaged]

  /// A listing of `accounts` and `damaged`.
  public init(accounts: [AccountSummary], damaged: [Damaged]) {
    self.accounts = accounts
    self.damaged = damaged
  }

  var json: OrderedJSON {
    .object([
      (
        "accounts",
        .array(
          accounts.map(\.listingJSON)
        )
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
    guard let accounts = members["accounts"]?.objectArrayValue(AccountSummary.init(listingJSON:)),
      let damaged = members["damaged"]?.objectArrayValue(Damaged.init(json:))
    else { return nil }
    self.init(accounts: accounts, damaged: damaged)
  }
}

extension AgentListing.Damaged {
  /// Reads a damaged row as `AgentListing.json` writes it; nil when a member is missing or of
  /// the wrong kind.
  init?(json row: [String: JSONValue]) {
    guard case .number(let number)? = row["id"], let id = Int64(exactly: number),
      let damage = row["damage"]?.stringValue, let name = OptionalMember.string(row["name"])
    else { return nil }
    self.init(id: id, name: name, damage: damage)
  }
}
