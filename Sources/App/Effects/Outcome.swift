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
  /// The account list, or why it could not be read (`.loadAccounts`).
  case accounts(Result<AccountList, AccountsError>)
  /// The provider catalog (`.loadProviders`).
  case providers([ProviderSummary])
  /// The catalog read again after a provider's setup was saved, or why it was not saved
  /// (`.saveProviderSetup`).
  case providerSaved(Result<[ProviderSummary], ProviderSetupError>)
  /// The account as stored afterwards, or why there is none (`.startSignIn`, `.refresh`).
  case account(Result<AccountSummary, AccountsError>)
  /// The work was done (nil), or why not (`.submitRedirect`).
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
