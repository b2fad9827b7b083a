import AccountFacts
import Accounts
import AuthCore
import Foundation
import Vault

/// Work the reducer asks for: everything that touches the vault, the network, the browser or
/// the clipboard. Plain data, so reducer tests compare it; `AppEnvironment.perform` does it and
/// answers with the `Response` case each effect names, and `EffectRunner` runs it in a task,
/// off the UI thread, and hands the answer back as `.response`. `redraw` stays with the loop,
/// `cancel` with the runner.
///
/// An effect names what it is about by typed handle (a request id, a sign-in attempt's id, an
/// `AccountName`), never by text to be matched back. A new operation is a case here, its
/// `Response` case, and one line in each environment's `perform` (docs/recipe-ui-operation.md).
public enum Effect: Sendable, Equatable {
  /// Find out how the vault stands (a passphrase variable may unlock it): `.vaultOpened`.
  case start
  /// Wait for the next piece of background news (an agent that could not be left running, a
  /// provider file that no longer reads, a sign-out page the provider answered): `.news`. The
  /// reducer asks again after each.
  case followNews
  /// Unlock the vault: `.unlocked`.
  case unlock(RequestID, SecretText)
  /// Create the vault with this passphrase: `.unlocked`.
  case createVault(RequestID, SecretText)
  /// Read the account list: `.accountsLoaded`.
  case loadAccounts(RequestID)
  /// Read the provider catalog: `.providersLoaded`.
  case loadProviders(RequestID)
  /// Write a provider's client id (and redirect port) into `providers/ID.json`, keeping the
  /// file's other fields, then read the catalog again: `.providerSetupSaved`.
  case saveProviderSetup(
    RequestID, provider: ProviderID, clientID: String, redirectPort: UInt16?,
    clientSecret: ClientSecret?)
  /// Look whether a provider file (or `config.json`) was added, changed or removed by any
  /// process or editor since the catalog was read (cheap: a listing and a `stat` per file):
  /// `.providersWatched`.
  case watchProviders(RequestID)
  /// Discover the server at `issuer` (its OpenID discovery and RFC 8414 metadata, as
  /// `providers add` does): `.issuerDiscovered`.
  case discoverIssuer(RequestID, issuer: String)
  /// Add the provider `provider` at `issuer` as `providers add` does: register authtui there
  /// when no `clientID` is given and the server allows it (RFC 7591), write
  /// `providers/ID.json`, read the catalog again: `.providerAdded`.
  case addProvider(RequestID, provider: ProviderID, issuer: String, clientID: String?)
  /// Check the current passphrase and give the vault the new one (`authtui vault passwd`'s
  /// work): `.vaultPassphraseChanged`.
  case changePassphrase(RequestID, current: SecretText, new: SecretText)
  /// Give the account the label `label` (`AccountBook.rename`): `.renamed`.
  case rename(RequestID, AccountName, label: String)
  /// Look whether the open vault can be written (`Vault.writeProblem`: cheap, no unlock), so
  /// that a sign-in whose tokens could not be kept is refused before any request is sent or
  /// code shown; asked under the attempt's id: `.vaultWritable`.
  case checkVaultWritable(RequestID)
  /// Start a sign-in attempt; its progress comes back as `.signInProgress` under the same id,
  /// and its end as `.signedIn`. The account is stored only when the attempt succeeds.
  case startSignIn(RequestID, provider: ProviderID, method: SignInFlow, label: String?)
  /// End the running sign-in attempt or issuer discovery asked for under this id: the runner
  /// cancels its task (a sign-in stores nothing, a discovery's request is abandoned) and the
  /// environment never sees it.
  case cancel(RequestID)
  /// Hand a pasted redirect URL to the running browser attempt `attempt`: `.redirectSubmitted`.
  case submitRedirect(RequestID, attempt: RequestID, SecretText)
  /// Open the page of the running attempt `attempt` in the browser (a browser sign-in's
  /// one-time address, fresh each time after the first; a device or PIN sign-in's verification
  /// page with its code); `demo` is what the demo's approver answers there (nil outside the
  /// demo): `.pageOpened`.
  case openSignInPage(RequestID, attempt: RequestID, demo: DemoAnswer?)
  /// Open the provider's sign-out page for the account signed out just before (through a
  /// one-time address: the page carries its id_token): `.pageOpened`.
  case openSignOutPage(RequestID, AccountName)
  /// Copy text that is not secret (a sign-in's URL, a user code) to the clipboard: `.copied`.
  case copyText(RequestID, String, what: String)
  /// Copy the account's access token (refreshed first when needed) to the clipboard:
  /// `.copied`.
  case copyToken(RequestID, AccountName)
  /// Refresh the account's access token now: `.refreshed`.
  case refresh(RequestID, AccountName)
  /// Refresh the account's access token if it is due (`RefreshSchedule`: a quarter of its
  /// lifetime left, at most five minutes), in the background and through the lease that every
  /// process shares: `.refreshedAhead`, the account as it stands afterwards.
  case refreshAhead(RequestID, AccountName)
  /// Look whether another process changed the vault (cheap: one pragma): `.vaultWatched`.
  case watchVault(RequestID)
  /// Delete an account the vault cannot read, as `logout '#ID' --local-only` does (its tokens
  /// cannot be read, so nothing is revoked): `.damagedRemoved`.
  case removeDamaged(RequestID, DamagedAccount)
  /// Learn whether the provider offers revocation and a sign-out page, from its discovery
  /// document (fetched once per run) where its file leaves them to it: `.signOutFactsLearned`.
  case learnSignOutFacts(RequestID, ProviderID)
  /// Revoke (where possible) and delete the account: `.signedOut`.
  case signOut(RequestID, AccountName)
  /// Make the account its provider's default (the one a bare PROVIDER names), or, with
  /// `isDefault` false, leave the provider without one: `.defaultSet`.
  case setDefault(RequestID, AccountName, isDefault: Bool)
  /// Write the account's access token to an env file: `.exported`.
  case exportEnvFile(RequestID, AccountName, path: String, variable: String)
  /// Ask the agent for this vault which token requests it holds for a person (`agent start
  /// --confirm`); asking tells it a UI is open to answer: `.questionsWatched`.
  case watchQuestions(RequestID)
  /// Give the agent a person's answer to its held request `question`:
  /// `.questionAnswered`.
  case answerQuestion(RequestID, question: Int, ConfirmationDecision)
  /// Repaint every cell (the loop does it).
  case redraw
}

extension Effect {
  /// The work that can be cancelled (a sign-in attempt, an issuer discovery) whose task this
  /// effect starts, or ends: the runner keeps the task under its id.
  var cancellable: (id: RequestID, starts: Bool)? {
    switch self {
    case .startSignIn(let id, _, _, _), .discoverIssuer(let id, _): return (id, true)
    case .cancel(let id): return (id, false)
    default: return nil
    }
  }
}
