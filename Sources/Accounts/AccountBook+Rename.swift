import Vault

/// What `rename(named:to:)` changed.
public struct RenameChange: Sendable, Equatable {
  /// `PROVIDER/LABEL` before.
  public let previous: String
  /// `PROVIDER/LABEL` now.
  public let account: String

  /// A rename from `previous` to `account`.
  public init(previous: String, account: String) {
    self.previous = previous
    self.account = account
  }

  /// True when the account had that label already.
  public var unchanged: Bool { previous == account }
}

extension AccountBook {
  /// Gives the account `text` names the label `label` (`authtui rename`, the UI's rename
  /// key), checked by `AccountLabel`'s rules; its tokens, default mark and identity stay. A
  /// label another account of the provider has is refused (`VaultError.duplicateAccount`), and
  /// so is a damaged account, whose name cannot be confirmed.
  public func rename(named text: String, to label: String) async throws(AccountsError)
    -> RenameChange
  {
    let account = try await account(named: text)
    guard account.label != label else {
      return RenameChange(previous: account.name, account: account.name)
    }
    try AccountLabel.check(label)
    let renamed = try await vaulted { vault throws(VaultError) in
      try await vault.rename(account.id, to: label)
    }
    return RenameChange(previous: account.name, account: renamed.name)
  }
}
