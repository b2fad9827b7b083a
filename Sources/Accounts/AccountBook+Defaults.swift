import Vault

/// What `makeDefault(named:)` changed.
public struct DefaultChange: Sendable, Equatable {
  /// The provider id.
  public let provider: String
  /// The account that is now its provider's default.
  public let account: String
  /// The account that was the default before, when another one was.
  public let previous: String?
}

extension AccountBook {
  /// Makes the account `text` names its provider's default: the one a bare `PROVIDER` names
  /// when the provider has several (`authtui default`). A damaged account cannot be one.
  public func makeDefault(named text: String) async throws(AccountsError) -> DefaultChange {
    let account = try await account(named: text)
    let previous = try await defaultAccountName(provider: account.providerID)
    try await vaulted { vault throws(VaultError) in try await vault.makeDefault(account.id) }
    return DefaultChange(provider: account.providerID, account: account.name, previous: previous)
  }

  /// Removes provider `text`'s default mark; returns the account that had it, nil when none
  /// did. The provider is checked as every command checks one, so a typo is not taken for "no
  /// default".
  public func clearDefault(provider text: String) async throws(AccountsError) -> String? {
    let id = try providerID(named: text)
    let previous = try await defaultAccountName(provider: id.rawValue)
    guard previous != nil else {
      // Not a provider at all: say so, with the closest ids, rather than "no default".
      if catalog.entry(id) == nil { _ = try providerEntry(id) }
      return nil
    }
    // Whether a row went away does not matter: `previous` says there was a default.
    _ = try await vaulted { vault throws(VaultError) in
      try await vault.clearDefault(providerID: id.rawValue)
    }
    return previous
  }

  /// The name of provider `provider`'s default account, nil when it has none.
  public func defaultAccountName(provider: String) async throws(AccountsError) -> String? {
    let id = try await vaulted { vault throws(VaultError) in
      try await vault.defaultAccountID(providerID: provider)
    }
    guard let id else { return nil }
    return try? await account(id).name
  }
}
