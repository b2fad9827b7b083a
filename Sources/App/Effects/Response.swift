import AccountFacts
import Accounts
import AuthCore
import Providers
import Terminal
import Vault

/// What an effect came to: one case per operation, each carrying the typed handles it answers
/// (the request, the account, the issuer) and a `Result` of its own type. The reducer's switch
/// over them is exhaustive, so an answer that is not taken does not compile.
public enum Response: Sendable {
  /// How the vault stands at start (`.start`).
  case vaultOpened(VaultAvailability)
  /// The vault was unlocked or created (nil), or the sentence that says why not: the command
  /// line's, which names where a rejected passphrase came from (`.unlock`, `.createVault`).
  case unlocked(RequestID, problem: String?)
  /// The account list, or why it could not be read (`.loadAccounts`).
  case accountsLoaded(RequestID, Result<AccountList, AccountsError>)
  /// The provider catalog (`.loadProviders`).
  case providersLoaded(RequestID, [ProviderSummary])
  /// The catalog read again after the provider's setup was saved, or why it was not saved
  /// (`.saveProviderSetup`).
  case providerSetupSaved(RequestID, ProviderID, Result<[ProviderSummary], ProviderSetupError>)
  /// The catalog read again when a provider file was added, changed or removed; nil when none
  /// was (`.watchProviders`).
  case providersWatched(RequestID, [ProviderSummary]?)
  /// What the server at `issuer` offers, or why it could not be discovered or used
  /// (`.discoverIssuer`).
  case issuerDiscovered(
    RequestID, issuer: String, Result<IssuerSummary, ProviderAdditionError>)
  /// The provider added (its file written, the catalog read again), or why not
  /// (`.addProvider`).
  case providerAdded(RequestID, Result<ProviderAdded, ProviderAdditionError>)
  /// The vault's passphrase was changed, or why not (`.changePassphrase`).
  case vaultPassphraseChanged(RequestID, Result<PassphraseChange, PassphraseChangeFailure>)
  /// The list after the account got its new label, or why it did not (`.rename`).
  case renamed(RequestID, AccountName, label: String, Result<AccountList, AccountsError>)
  /// The account a sign-in stored, and whether its label is only an opaque identifier, or why
  /// there is none (`.startSignIn`).
  case signedIn(RequestID, Result<SignedInSummary, AccountsError>)
  /// The vault can be written (nil), or why not: `.vault(.readOnly)` with the read-only file,
  /// folder or file system and the fix (`.checkVaultWritable`).
  case vaultWritable(RequestID, AccountsError?)
  /// The pasted redirect was taken (nil), or why not (`.submitRedirect`).
  case redirectSubmitted(RequestID, AccountsError?)
  /// The browser was started, or could not be (`.openSignInPage`, `.openSignOutPage`).
  case pageOpened(RequestID, BrowserReport)
  /// What was copied, or why not (`.copyText`, `.copyToken`).
  case copied(RequestID, Result<CopyReport, AccountsError>)
  /// The account as stored after the refresh, or why there is none (`.refresh`).
  case refreshed(RequestID, AccountName, Result<AccountSummary, AccountsError>)
  /// The account as stored after a refresh ahead of its expiry, or why there is none
  /// (`.refreshAhead`).
  case refreshedAhead(RequestID, AccountName, Result<AccountSummary, AccountsError>)
  /// What another process changed in the vault since the last look (`.watchVault`).
  case vaultWatched(RequestID, VaultChange)
  /// The damaged account was removed (nil), or why not (`.removeDamaged`).
  case damagedRemoved(RequestID, DamagedAccount, AccountsError?)
  /// What the provider did on sign-out (the account is gone), or why the account could not be
  /// removed (`.signOut`).
  case signedOut(RequestID, AccountName, Result<SignOutReport, AccountsError>)
  /// What the provider offers a sign-out, or why its discovery document could not tell
  /// (`.learnSignOutFacts`).
  case signOutFactsLearned(RequestID, ProviderID, Result<SignOutFacts, AccountsError>)
  /// The list after the account's default mark changed, or why it did not (`.setDefault`).
  case defaultSet(RequestID, AccountName, isDefault: Bool, Result<AccountList, AccountsError>)
  /// The env file written, or why not (`.exportEnvFile`).
  case exported(RequestID, Result<ExportReport, AccountsError>)
  /// Background news for the status line (`.followNews`): the agent `unlock_once` asks for
  /// could not be left running, or the provider sent the browser back after a sign-out, say.
  case news(StatusMessage.Kind, String)
  /// The token requests the agent holds for a person now; empty with no agent, or one that
  /// holds none (`.watchQuestions`).
  case questionsWatched(RequestID, [ConfirmationQuestion])
  /// The agent took the answer to `question` (nil), or why not (`.answerQuestion`).
  case questionAnswered(RequestID, question: Int, ConfirmationDecision, problem: String?)

  /// The request this answers (nil for the ones asked without one).
  var request: RequestID? {
    switch self {
    case .vaultOpened, .news: return nil
    case .unlocked(let id, _), .accountsLoaded(let id, _), .providersLoaded(let id, _),
      .providerSetupSaved(let id, _, _), .providersWatched(let id, _),
      .issuerDiscovered(let id, _, _), .providerAdded(let id, _), .renamed(let id, _, _, _),
      .vaultPassphraseChanged(let id, _),
      .signedIn(let id, _), .vaultWritable(let id, _), .redirectSubmitted(let id, _),
      .pageOpened(let id, _),
      .copied(let id, _), .refreshed(let id, _, _), .refreshedAhead(let id, _, _),
      .vaultWatched(let id, _), .damagedRemoved(let id, _, _), .signedOut(let id, _, _),
      .signOutFactsLearned(let id, _, _), .defaultSet(let id, _, _, _), .exported(let id, _),
      .questionsWatched(let id, _), .questionAnswered(let id, _, _, _):
      return id
    }
  }
}

/// What another process changed in the vault since the last look.
public enum VaultChange: Sendable {
  /// Nothing.
  case unchanged
  /// The accounts: the list as it is now, or why it could not be read.
  case accounts(Result<AccountList, AccountsError>)
  /// Its passphrase: the keys in hand are the old one's; `problem` says what to do.
  case passphraseChanged(problem: String)
}
