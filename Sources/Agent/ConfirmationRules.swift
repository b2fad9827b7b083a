import Foundation

/// Which token requests the agent holds for a person: `--confirm` for every account, and each
/// account's own mode from config.json (`agent.confirm`); the stricter of the two applies.
package struct ConfirmationRules: Sendable, Equatable {
  /// `agent start --confirm`, nil when not given.
  package var mode: ConfirmationMode?
  /// `"agent": {"confirm": {ACCOUNT: MODE}}` in config.json.
  package var accounts: [AccountName: ConfirmationMode]

  /// The rules of `mode` for all, and `accounts` for each.
  package init(mode: ConfirmationMode? = nil, accounts: [AccountName: ConfirmationMode] = [:]) {
    self.mode = mode
    self.accounts = accounts
  }

  /// True when no request is ever held.
  package var holdsNothing: Bool { mode == nil && accounts.isEmpty }

  /// True when a request for `account`, forwarded or not, waits for a person.
  package func holds(_ account: AccountName, forwarded: Bool) -> Bool {
    ConfirmationMode.stricter(mode, accounts[account])?.holds(forwarded: forwarded) ?? false
  }
}
