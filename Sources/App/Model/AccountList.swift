import AccountFacts
import Vault

/// The vault's accounts as the UI receives them: a row for each readable account, and the
/// damaged ones as the vault reports them (by row id, with the parts of their name that open).
public struct AccountList: Sendable, Equatable {
  /// The readable accounts.
  public var accounts: [AccountSummary]
  /// Accounts whose cells did not open; only removing them (by `#ID`) is possible.
  public var damaged: [DamagedAccount]

  /// A list of `accounts` and `damaged` ones.
  public init(accounts: [AccountSummary], damaged: [DamagedAccount] = []) {
    self.accounts = accounts
    self.damaged = damaged
  }
}
