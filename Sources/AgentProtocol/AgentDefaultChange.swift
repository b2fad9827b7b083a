import JSON

/// What `authtui default` changed, as the agent answers it (`default`): the provider, the
/// account that is its default now (none after `--clear`), and the one that was before.
public struct AgentDefaultChange: Sendable, Equatable {
  /// The provider id (`provider`).
  public let provider: String
  /// `PROVIDER/LABEL` of its default account now, nil when the mark was cleared (`account`).
  public let account: String?
  /// `PROVIDER/LABEL` of the default before, nil when there was none (`previous`).
  public let previous: String?

  /// A change of `provider`'s default from `previous` to `account`.
  public init(provider: String, account: String?, previous: String?) {
    self.provider = provider
    self.account = account
    self.previous = previous
  }

  /// True when the account was the default already, so nothing changed.
  public var unchanged: Bool { account != nil && previous == account }

  var json: OrderedJSON {
    .object([
      ("provider", .string(provider)), ("account", account.map(OrderedJSON.string) ?? .null),
      ("previous", previous.map(OrderedJSON.string) ?? .null),
    ])
  }

  init?(json members: [String: JSONValue]) {
    guard let provider = members["provider"]?.stringValue, !provider.isEmpty,
      let account = OptionalMember.string(members["account"]),
      let previous = OptionalMember.string(members["previous"])
    else { return nil }
    self.init(provider: provider, account: account, previous: previous)
  }
}
