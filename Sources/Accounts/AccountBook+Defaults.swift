import Vault

extension AccountBook {
  /// Makes the account `text` names its provider's default: the one a bare `PROVIDER` names
  /// when the provider has several (`authtui default`). A damaged account cannot be one.
  public func makeDefault(named text: String) async throws(AccountsError) -> DefaultChange {
    try await makeDefault(try AccountReference(parsing: text))
  }

  /// Makes the account `reference` points at its provider's default, as `makeDefault(named:)`
  /// does.
  public func makeDefault(_ reference: AccountReference) async throws(AccountsError)
    -> DefaultChange
  {
    let account = try await account(reference)
    let name = try account.accountName
    let previous = try await defaultAccountName(provider: name.provider)
    try await vaulted { vault throws(VaultError) in try await vault.makeDefault(account.id) }
    return DefaultChange(provider: name.provider, account: name, previous: previous)
  }

  /// Removes provider `text`'s default mark; the change names the account that had it, none
  /// when none did. The provider is checked as every command checks one, so a typo is not
  /// taken for "no default".
  public func clearDefault(provider text: String) async throws(AccountsError) -> DefaultChange {
    let id = try providerID(named: text)
    let previous = try await defaultAccountName(provider: id)
    guard previous != nil else {
      // Not a provider at all: say so, with the closest ids, rather than "no default".
      if catalog.entry(id) == nil { _ = try providerEntry(id) }
      return DefaultChange(provider: id, account: nil, previous: nil)
    }
    // Whether a row went away does not matter: `previous` says there was a default.
    _ = try await vaulted { vault throws(VaultError) in
      try await vault.clearDefault(providerID: id.rawValue)
    }
    return DefaultChange(provider: id, account: nil, previous: previous)
  }

  /// The name of provider `provider`'s default account, nil when it has none.
  public func defaultAccountName(provider: ProviderID) async throws(AccountsError)
    -> AccountName?
  {
    let id = try await vaulted { vault throws(VaultError) in
      try await vault.defaultAccountID(providerID: provider.rawValue)
    }
    guard let id else { return nil }
    return try? await account(id).accountName
  }
}
