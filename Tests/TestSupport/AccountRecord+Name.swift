import Vault

extension AccountRecord {
  /// `PROVIDER/LABEL` as the row's cells hold it, for a test to compare with a literal or to
  /// name the account to a command. The sources name accounts by `AccountName` alone
  /// (Accounts' `accountName`, which checks the provider id).
  public var name: String { providerID + "/" + label }
}
