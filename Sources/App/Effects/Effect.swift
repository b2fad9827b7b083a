import Accounts
import AuthCore
import Foundation

/// Work the reducer asks for: everything that touches the vault, the network, the browser or
/// the clipboard. Plain data, so reducer tests compare it; `AppEnvironment.perform` does it and
/// answers with the action each case names, and `EffectRunner` runs it in a task, off the UI
/// thread. `redraw` stays with the loop, `cancelSignIn` with the runner.
///
/// A new operation is a case here naming its result action, that case in `Action`, the
/// reducer's cases for both, and its line in the real environment's `perform`.
public enum Effect: Sendable, Equatable {
  /// Find out how the vault stands (a passphrase variable may unlock it): `.started`.
  case start
  /// Unlock the vault: `.unlockFinished`.
  case unlock(RequestID, SecretText)
  /// Create the vault with this passphrase: `.unlockFinished`.
  case createVault(RequestID, SecretText)
  /// Read the account list: `.accountsLoaded`.
  case loadAccounts(RequestID)
  /// Read the provider catalog: `.providersLoaded`.
  case loadProviders(RequestID)
  /// Start a sign-in attempt; its progress (`.signInProgress`) and end (`.signInFinished`)
  /// come back under the same id. The account is stored only when the attempt succeeds.
  case startSignIn(RequestID, provider: ProviderID, method: SignInFlow)
  /// End a running attempt; it stores nothing (the runner cancels its task).
  case cancelSignIn(RequestID)
  /// Hand a pasted redirect URL to a running browser attempt: `.redirectSubmitted`.
  case submitRedirect(RequestID, SecretText)
  /// Open a page in the browser; `userCode` is the code the page asks for, if any:
  /// `.browserOpened`.
  case openBrowser(RequestID, url: String, userCode: String?)
  /// Copy text that is not secret (a URL, a user code) to the clipboard: `.copyFinished`.
  case copyText(RequestID, String, what: String)
  /// Copy the account's access token (refreshed first when needed) to the clipboard:
  /// `.copyFinished`.
  case copyToken(RequestID, AccountName)
  /// Refresh the account's access token now: `.refreshFinished`.
  case refresh(RequestID, AccountName)
  /// Revoke (where possible) and delete the account: `.signOutFinished`.
  case signOut(RequestID, AccountName)
  /// Write the account's access token to an env file: `.exportFinished`.
  case exportEnvFile(RequestID, AccountName, path: String, variable: String)
  /// Repaint every cell (the loop does it).
  case redraw
}

extension Effect {
  /// The sign-in attempt whose task this effect starts (so it can be cancelled), or ends.
  var attempt: (id: RequestID, starts: Bool)? {
    switch self {
    case .startSignIn(let id, _, _): return (id, true)
    case .cancelSignIn(let id): return (id, false)
    default: return nil
    }
  }
}
