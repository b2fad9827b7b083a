import JSON

// The agent's answers to `rename` and `default`: the account book's own changes, written on the
// wire as names (`PROVIDER/LABEL`), read back only when every name is one.

extension RenameChange {
  /// `{"previous":"simkl/1029384","account":"simkl/alice"}`
  var json: OrderedJSON {
    .object([
      ("previous", .string(previous.description)), ("account", .string(account.description)),
    ])
  }

  init?(json members: [String: JSONValue]) {
    guard let previous = members["previous"]?.stringValue.flatMap(AccountName.init),
      let account = members["account"]?.stringValue.flatMap(AccountName.init)
    else { return nil }
    self.init(previous: previous, account: account)
  }
}

extension DefaultChange {
  /// `{"provider":"simkl","account":"simkl/alice","previous":null}`
  var json: OrderedJSON {
    .object([
      ("provider", .string(provider.rawValue)),
      ("account", account.map { .string($0.description) } ?? .null),
      ("previous", previous.map { .string($0.description) } ?? .null),
    ])
  }

  init?(json members: [String: JSONValue]) {
    guard let provider = members["provider"]?.stringValue.flatMap({ try? ProviderID($0) }),
      let account = Self.name(members["account"]), let previous = Self.name(members["previous"])
    else { return nil }
    self.init(provider: provider, account: account, previous: previous)
  }

  /// A member that is a name or null (or absent, as null): `.some(nil)` for null, nil when it
  /// is neither.
  private static func name(_ value: JSONValue?) -> AccountName?? {
    switch OptionalMember.string(value) {
    case .some(.some(let text)): return AccountName(text).map { .some($0) }
    case .some(nil): return .some(nil)
    case nil: return nil
    }
  }
}
