import Accounts
import AuthCore
import Terminal

/// Everything that can change the UI's state: what the user did, time passing, and the results
/// of background work coming back. `Reducer.reduce` takes one at a time.
public enum Action: Sendable {
  /// A key, a resize or a paste from the screen.
  case key(KeyEvent)
  /// An action of the table, as if its key was pressed in the current context.
  case command(Command)
  /// The terminal's size now (at start and after every resize).
  case resized(Size)
  /// Time passed: countdowns, spinners and message timeouts move on.
  case tick
  /// How the vault stands at start.
  case started(VaultAvailability)
  /// The vault was unlocked (or created), or the sentence that says why not (the command
  /// line's, which names where a rejected passphrase came from).
  case unlockFinished(RequestID, problem: String?)
  /// The account list, or why it could not be read.
  case accountsLoaded(RequestID, Result<AccountList, AccountsError>)
  /// The provider catalog.
  case providersLoaded(RequestID, [ProviderSummary])
  /// A sign-in attempt moved on.
  case signInProgress(RequestID, SignInProgress)
  /// A sign-in attempt ended: the account it stored, or why there is none.
  case signInFinished(RequestID, Result<AccountSummary, AccountsError>)
  /// A pasted redirect URL was taken (nil) or refused (the reason).
  case redirectSubmitted(RequestID, AccountsError?)
  /// A refresh ended: the account with its new token facts, or why not.
  case refreshFinished(RequestID, AccountName, Result<AccountSummary, AccountsError>)
  /// A sign-out of the account ended: what the provider did (the account is gone), or why the
  /// account could not be removed.
  case signOutFinished(RequestID, AccountName, Result<SignOutReport, AccountsError>)
  /// An export to an env file ended.
  case exportFinished(RequestID, Result<ExportReport, AccountsError>)
  /// A copy to the clipboard ended.
  case copyFinished(RequestID, Result<CopyReport, AccountsError>)
  /// The browser was started, or could not be.
  case browserOpened(RequestID, BrowserReport)
}
