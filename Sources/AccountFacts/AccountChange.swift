/// What `authtui rename` (and the UI's rename key) changed: the account's name before and
/// now, the same when it had the label already. The account book makes it; the agent sends it
/// as it is (`renamed`), and the command prints it either way.
public struct RenameChange: Sendable, Equatable {
  /// The name before.
  public let previous: AccountName
  /// The name now.
  public let account: AccountName

  /// A rename from `previous` to `account`.
  public init(previous: AccountName, account: AccountName) {
    self.previous = previous
    self.account = account
  }

  /// True when the account had that label already.
  public var unchanged: Bool { previous == account }
}

/// What `authtui default` (and the UI's default key) changed: a provider's default account
/// now (none after `--clear`) and the one before. The account book makes it; the agent sends
/// it as it is (`default`), and the command prints it either way.
public struct DefaultChange: Sendable, Equatable {
  /// The provider whose default it is.
  public let provider: ProviderID
  /// Its default account now, nil when the mark was cleared.
  public let account: AccountName?
  /// Its default before, nil when there was none.
  public let previous: AccountName?

  /// A change of `provider`'s default from `previous` to `account`.
  public init(provider: ProviderID, account: AccountName?, previous: AccountName?) {
    self.provider = provider
    self.account = account
    self.previous = previous
  }

  /// True when the account was the default already, so nothing changed.
  public var unchanged: Bool { account != nil && previous == account }
}
