import JSON

/// What `authtui rename` changed, as the agent answers it (`renamed`): the account's name
/// before and now (the same when it had the label already).
public struct AgentRename: Sendable, Equatable {
  /// `PROVIDER/LABEL` before (`previous`).
  public let previous: String
  /// `PROVIDER/LABEL` now (`account`).
  public let account: String

  /// A rename from `previous` to `account`.
  public init(previous: String, account: String) {
    self.previous = previous
    self.account = account
  }

  var json: OrderedJSON {
    .object([("previous", .string(previous)), ("account", .string(account))])
  }

  init?(json members: [String: JSONValue]) {
    guard let previous = members["previous"]?.stringValue, !previous.isEmpty,
      let account = members["account"]?.stringValue, !account.isEmpty
    else { return nil }
    self.init(previous: previous, account: account)
  }
}
