import Accounts
import AuthCore
import Foundation

/// Work the reducer asks for: everything that touches the vault, the network, the browser or
/// the clipboard. `EffectRunner` runs each off the UI thread with an `AppEnvironment` and sends
/// the result back as an `Action`; `redraw` and `quit`-related work stay with the loop.
public enum Effect: Sendable, Equatable, CustomStringConvertible {
  /// Find out how the vault stands (a passphrase variable may unlock it).
  case start
  /// Unlock the vault.
  case unlock(RequestID, SecretText)
  /// Create the vault with this passphrase.
  case createVault(RequestID, SecretText)
  /// Read the account list.
  case loadAccounts(RequestID)
  /// Read the provider catalog.
  case loadProviders(RequestID)
  /// Start a sign-in attempt; its progress and end come back under the same id. The account is
  /// stored only when the attempt succeeds.
  case startSignIn(RequestID, provider: String, method: SignInFlow)
  /// End a running attempt; it stores nothing.
  case cancelSignIn(RequestID)
  /// Hand a pasted redirect URL to a running browser attempt.
  case submitRedirect(RequestID, SecretText)
  /// Open a page in the browser; `userCode` is the code the page asks for, if any.
  case openBrowser(RequestID, url: String, userCode: String?)
  /// Copy text that is not secret (a URL, a user code) to the clipboard.
  case copyText(RequestID, String, what: String)
  /// Copy the account's access token (refreshed first when needed) to the clipboard.
  case copyToken(RequestID, AccountName)
  /// Refresh the account's access token now.
  case refresh(RequestID, AccountName)
  /// Revoke (where possible) and delete the account.
  case signOut(RequestID, AccountName)
  /// Write the account's access token to an env file.
  case exportEnvFile(RequestID, AccountName, path: String, variable: String)
  /// Repaint every cell (the loop does it).
  case redraw

  public var description: String {
    switch self {
    case .start: return "start"
    case .unlock(let id, _): return "unlock \(id)"
    case .createVault(let id, _): return "createVault \(id)"
    case .loadAccounts(let id): return "loadAccounts \(id)"
    case .loadProviders(let id): return "loadProviders \(id)"
    case .startSignIn(let id, let provider, let method):
      return "startSignIn \(id) \(provider) \(method.rawValue)"
    case .cancelSignIn(let id): return "cancelSignIn \(id)"
    case .submitRedirect(let id, _): return "submitRedirect \(id)"
    case .openBrowser(let id, let url, _): return "openBrowser \(id) \(url)"
    case .copyText(let id, _, let what): return "copyText \(id) \(what)"
    case .copyToken(let id, let account): return "copyToken \(id) \(account)"
    case .refresh(let id, let account): return "refresh \(id) \(account)"
    case .signOut(let id, let account): return "signOut \(id) \(account)"
    case .exportEnvFile(let id, let account, let path, let variable):
      return "exportEnvFile \(id) \(account) \(path) \(variable)"
    case .redraw: return "redraw"
    }
  }
}
