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
    guard let accounts = members["accounts"]?.arrayValue,
      let damaged = members["damaged"]?.arrayValue
    else { return nil }
    var readable: [AccountSummary] = []
    for element in accounts {
      guard let account = element.objectValue.flatMap(AccountSummary.init(listingJSON:)) else {
        return nil
      }
      readable.append(account)
    }
    var unreadable: [Damaged] = []
    for element in damaged {
      guard let row = element.objectValue, case .number(let number)? = row["id"],
        let id = Int64(exactly: number), let damage = row["damage"]?.stringValue
      else { return nil }
      guard let name = OptionalMember.string(row["name"]) else { return nil }
      unreadable.append(Damaged(id: id, name: name, damage: damage))
    }
    self.init(accounts: readable, damaged: unreadable)
  }
}
