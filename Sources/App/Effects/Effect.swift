import Accounts
import AuthCore
import Foundation
import Vault

/// Work the reducer asks for: everything that touches the vault, the network, the browser or
/// the clipboard. Plain data, so reducer tests compare it; `AppEnvironment.perform` does it and
/// answers with the `Outcome` each case names, and `EffectRunner` runs it in a task, off the
/// UI thread, and hands back `.finished(effect, outcome)`. `redraw` stays with the loop,
/// `cancelSignIn` with the runner.
///
/// A new operation is a case here (with the outcome it ends with), the reducer's cases that
/// ask for it and take its outcome, and its line in the real environment's `perform`.
public enum Effect: Sendable, Equatable {
  /// Find out how the vault stands (a passphrase variable may unlock it): `.vault`.
  case start
  /// Unlock the vault: `.unlocked`.
  case unlock(RequestID, SecretText)
  /// Create the vault with this passphrase: `.unlocked`.
  case createVault(RequestID, SecretText)
  /// Read the account list: `.accounts`.
  case loadAccounts(RequestID)
  /// Read the provider catalog: `.providers`.
  case loadProviders(RequestID)
  /// Write a provider's client id (and redirect port) into `providers/ID.json`, keeping the
  /// file's other fields, then read the catalog again: `.providerSaved`.
  case saveProviderSetup(
    RequestID, provider: ProviderID, clientID: String, redirectPort: UInt16?,
    clientSecret: ClientSecret?)
  /// Look whether a provider file (or `config.json`) was added, changed or removed by any
  /// process or editor since the catalog was read (cheap: a listing and a `stat` per file):
  /// `.providers` with the catalog read again when one was, `.done(nil)` when not.
  case watchProviders(RequestID)
  /// Discover the server at `issuer` (its OpenID discovery and RFC 8414 metadata, as
  /// `providers add` does): `.issuerDiscovered`.
  case discoverIssuer(RequestID, issuer: String)
  /// Add the provider `provider` at `issuer` as `providers add` does: register authtui there
  /// when no `clientID` is given and the server allows it (RFC 7591), write
  /// `providers/ID.json`, read the catalog again: `.providerAdded`.
  case addProvider(RequestID, provider: ProviderID, issuer: String, clientID: String?)
  /// Give the account the label `label` (`AccountBook.rename`): `.accounts`, the list
  /// afterwards.
  case rename(RequestID, AccountName, label: String)
  /// Start a sign-in attempt; its progress comes back as `.signInProgress` under the same id,
  /// and its end as `.signedIn`. The account is stored only when the attempt succeeds.
  case startSignIn(RequestID, provider: ProviderID, method: SignInFlow, label: String?)
  /// End a running attempt; it stores nothing (the runner cancels its task).
  case cancelSignIn(RequestID)
  /// Hand a pasted redirect URL to a running browser attempt: `.done`.
  case submitRedirect(RequestID, SecretText)
  /// Open a page in the browser; `userCode` is the code the page asks for, if any, and `demo`
  /// what the demo's approver answers there (nil outside the demo): `.browser`.
  case openBrowser(RequestID, url: String, userCode: String?, demo: DemoAnswer?)
  /// Copy text that is not secret (a URL, a user code) to the clipboard: `.copied`.
  case copyText(RequestID, String, what: String)
  /// Copy the account's access token (refreshed first when needed) to the clipboard:
  /// `.copied`.
  case copyToken(RequestID, AccountName)
  /// Refresh the account's access token now: `.account`.
  case refresh(RequestID, AccountName)
  /// Refresh the account's access token if it is due (`RefreshSchedule`: a quarter of its
  /// lifetime left, at most five minutes), in the background and through the lease that every
  /// process shares: `.account`, the account as it stands afterwards.
  case refreshAhead(RequestID, AccountName)
  /// Look whether another process changed the vault (cheap: one pragma): `.accounts` with the
  /// list when it did, `.done(nil)` when not, `.vault(.locked)` when another process changed
  /// its passphrase.
  case watchVault(RequestID)
  /// Delete an account the vault cannot read, as `logout '#ID' --local-only` does (its tokens
  /// cannot be read, so nothing is revoked): `.done`.
  case removeDamaged(RequestID, DamagedAccount)
  /// Revoke (where possible) and delete the account: `.signedOut`.
  case signOut(RequestID, AccountName)
  /// Make the account its provider's default (the one a bare PROVIDER names), or, with
  /// `isDefault` false, leave the provider without one: `.accounts`, the list afterwards.
  case setDefault(RequestID, AccountName, isDefault: Bool)
  /// Write the account's access token to an env file: `.exported`.
  case exportEnvFile(RequestID, AccountName, path: String, variable: String)
  /// Repaint every cell (the loop does it).
  case redraw
}

extension Effect {
  /// The request this effect answers under (nil for the ones that have none: `.start`,
  /// `.redraw`).
  public var request: RequestID? {
    switch self {
    case .start, .redraw: return nil
    case .unlock(let id, _), .createVault(let id, _), .loadAccounts(let id),
      .loadProviders(let id), .startSignIn(let id, _, _, _), .cancelSignIn(let id),
      .submitRedirect(let id, _), .openBrowser(let id, _, _, _), .copyText(let id, _, _),
      .copyToken(let id, _), .refresh(let id, _), .refreshAhead(let id, _), .watchVault(let id),
      .signOut(let id, _), .removeDamaged(let id, _), .saveProviderSetup(let id, _, _, _, _),
      .exportEnvFile(let id, _, _, _), .setDefault(let id, _, _), .watchProviders(let id),
      .discoverIssuer(let id, _), .addProvider(let id, _, _, _), .rename(let id, _, _):
      return id
    }
  }

  /// The sign-in attempt whose task this effect starts (so it can be cancelled), or ends.
  var attempt: (id: RequestID, starts: Bool)? {
    switch self {
    case .startSignIn(let id, _, _, _): return (id, true)
    case .cancelSignIn(let id): return (id, false)
    default: return nil
    }
  }
}
