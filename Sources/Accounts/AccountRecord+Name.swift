import AuthCore
import Vault

extension AccountRecord {
  /// The account's `PROVIDER/LABEL`, its stored provider id checked. Vault keeps the id as the
  /// text it was given; one that is no id (written by something other than authtui) makes the
  /// row damaged, as `AccountBook.listing()` reports it, rather than an account of no provider.
  public var accountName: AccountName {
    get throws(AccountsError) {
      guard let provider = try? ProviderID(providerID) else {
        throw .vault(.accountDamaged(id, Self.malformedProviderID))
      }
      return AccountName(provider: provider, label: label)
    }
  }

  /// The damage of a row whose provider id cell opens but holds no provider id. The column is
  /// Vault's name for it (`AccountColumn.providerID`), as its own damage reports say.
  static let malformedProviderID = AccountDamage.cellMalformed(column: "provider_id")
}
