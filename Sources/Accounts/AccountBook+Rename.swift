import Vault

extension AccountBook {
  /// Gives the account `text` names the label `label` (`authtui rename`, the UI's rename
  /// key), checked by `AccountLabel`'s rules; its tokens, default mark and identity stay. A
  /// label another account of the provider has is refused (`VaultError.duplicateAccount`), and
  /// so is a damaged account, whose name cannot be confirmed.
  public func rename(named text: String, to label: String) async throws(AccountsError)
    -> RenameChange
  {
    try await rename(try AccountReference(parsing: text), to: label)
  }

  /// Gives the account `reference` points at the label `label`, as `rename(named:to:)` does.
  public func rename(_ reference: AccountReference, to label: String) async throws(AccountsError)
    -> RenameChange
  {
    let account = try await account(reference)
    let previous = try account.accountName
    guard account.label != label else { return RenameChange(previous: previous, account: previous) }
    try AccountLabel.check(label)
    let renamed = try await vaulted { vault throws(VaultError) in
      try await vault.rename(account.id, to: label)
    }
    return RenameChange(previous: previous, account: try renamed.accountName)
  }
}
