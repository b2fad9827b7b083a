import Accounts
import Providers

/// What came of an effect: the value its work produced, or why there is none. The loop hands
/// it back to the reducer as `.finished(effect, outcome)`, with the effect as it was asked for,
/// so the reducer knows what the result answers without a result action per operation. Each
/// `Effect` case names the outcome it ends with; an operation whose result is of a kind below
/// needs no new case here.
public enum Outcome: Sendable {
  /// How the vault stands at start (`.start`).
  case vault(VaultAvailability)
  /// The vault was unlocked or created (nil), or the sentence that says why not: the command
  /// line's, which names where a rejected passphrase came from (`.unlock`, `.createVault`).
  case unlocked(problem: String?)
  /// The account list, or why it could not be read (`.loadAccounts`, and `.setDefault` and
  /// `.rename` after their change).
  case accounts(Result<AccountList, AccountsError>)
  /// The provider catalog (`.loadProviders`, and `.watchProviders` when a file changed).
  case providers([ProviderSummary])
  /// The catalog read again after a provider's setup was saved, or why it was not saved
  /// (`.saveProviderSetup`).
  case providerSaved(Result<[ProviderSummary], ProviderSetupError>)
  /// The account as stored afterwards, or why there is none (`.refresh`, `.refreshAhead`).
  case account(Result<AccountSummary, AccountsError>)
  /// The account a sign-in stored, and whether its label is only an opaque identifier, or why
  /// there is none (`.startSignIn`).
  case signedIn(Result<SignedInSummary, AccountsError>)
  /// What the server at an issuer offers, or why it could not be discovered or used
  /// (`.discoverIssuer`).
  case issuerDiscovered(Result<IssuerSummary, ProviderAdditionError>)
  /// The provider added (its file written, the catalog read again), or why not
  /// (`.addProvider`).
  case providerAdded(Result<ProviderAdded, ProviderAdditionError>)
  /// The work was done (nil), or why not (`.submitRedirect`); nothing changed
  /// (`.watchVault`, `.watchProviders`).
  case done(AccountsError?)
  /// What the provider did on sign-out (the account is gone), or why the account could not be
  /// removed (`.signOut`).
  case signedOut(Result<SignOutReport, AccountsError>)
  /// The env file written, or why not (`.exportEnvFile`).
  case exported(Result<ExportReport, AccountsError>)
  /// What was copied, or why not (`.copyText`, `.copyToken`).
  case copied(Result<CopyReport, AccountsError>)
  /// The browser was started, or could not be (`.openBrowser`).
  case browser(BrowserReport)
  /// What came of background work since the last look, for the status line (`.watchVault`):
  /// the agent `unlock_once` asks for could not be left running, or the provider sent the
  /// browser back after a sign-out, say.
  case backgroundNews(StatusMessage.Kind, String)
}
