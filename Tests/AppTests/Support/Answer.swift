import Accounts
import AuthCore
import Providers
import Terminal
import Testing

@testable import App

/// The tests' shorthand for an effect's answer: the value alone, without the handles the
/// effect was asked under. `Action.finished(effect, answer)` adds them from the effect and
/// makes the typed `Response` the environment would give; a pair that does not go together is
/// a failed test, not a dropped answer.
enum Answer {
  case vault(VaultAvailability)
  case unlocked(problem: String?)
  case accounts(Result<AccountList, AccountsError>)
  case providers([ProviderSummary])
  case providerSaved(Result<[ProviderSummary], ProviderSetupError>)
  case account(Result<AccountSummary, AccountsError>)
  case signedIn(Result<SignedInSummary, AccountsError>)
  case issuerDiscovered(Result<IssuerSummary, ProviderAdditionError>)
  case providerAdded(Result<ProviderAdded, ProviderAdditionError>)
  case done(AccountsError?)
  case signedOut(Result<SignOutReport, AccountsError>)
  case exported(Result<ExportReport, AccountsError>)
  case copied(Result<CopyReport, AccountsError>)
  case browser(BrowserReport)
  case signOutFacts(Result<SignOutFacts, AccountsError>)
  case questions([ConfirmationQuestion])
  case passphraseChanged(Result<PassphraseChange, PassphraseChangeFailure>)
}

extension Action {
  /// `effect` answered with `answer`, as the environment would answer it.
  static func finished(_ effect: Effect, _ answer: Answer) -> Action {
    guard let response = Response.answering(effect, with: answer) else {
      Issue.record("\(answer) does not answer \(effect)")
      return .tick
    }
    return .response(response)
  }
}

extension Response {
  /// The typed answer to `effect` that `answer` stands for, or nil when it answers another.
  static func answering(_ effect: Effect, with answer: Answer) -> Response? {
    switch (effect, answer) {
    case (.start, .vault(let access)): return .vaultOpened(access)
    case (.unlock(let id, _), .unlocked(let problem)),
      (.createVault(let id, _), .unlocked(let problem)):
      return .unlocked(id, problem: problem)
    case (.loadAccounts(let id), .accounts(let result)): return .accountsLoaded(id, result)
    case (.changePassphrase(let id, _, _), .passphraseChanged(let result)):
      return .vaultPassphraseChanged(id, result)
    case (.rename(let id, let name, let label), .accounts(let result)):
      return .renamed(id, name, label: label, result)
    case (.setDefault(let id, let name, let isDefault), .accounts(let result)):
      return .defaultSet(id, name, isDefault: isDefault, result)
    case (.watchVault(let id), .accounts(let result)): return .vaultWatched(id, .accounts(result))
    case (.watchVault(let id), .done(nil)): return .vaultWatched(id, .unchanged)
    case (.watchVault(let id), .vault(.locked(let problem?))):
      return .vaultWatched(id, .passphraseChanged(problem: problem))
    case (.loadProviders(let id), .providers(let list)): return .providersLoaded(id, list)
    case (.watchProviders(let id), .providers(let list)): return .providersWatched(id, list)
    case (.watchProviders(let id), .done(nil)): return .providersWatched(id, nil)
    case (.saveProviderSetup(let id, let provider, _, _, _), .providerSaved(let result)):
      return .providerSetupSaved(id, provider, result)
    case (.refresh(let id, let name), .account(let result)): return .refreshed(id, name, result)
    case (.refreshAhead(let id, let name), .account(let result)):
      return .refreshedAhead(id, name, result)
    case (.startSignIn(let id, _, _, _), .signedIn(let result)): return .signedIn(id, result)
    case (.checkVaultWritable(let id), .done(let problem)): return .vaultWritable(id, problem)
    case (.discoverIssuer(let id, let issuer), .issuerDiscovered(let result)):
      return .issuerDiscovered(id, issuer: issuer, result)
    case (.addProvider(let id, _, _, _), .providerAdded(let result)):
      return .providerAdded(id, result)
    case (.submitRedirect(let id, _, _), .done(let failure)):
      return .redirectSubmitted(id, failure)
    case (.removeDamaged(let id, let damaged), .done(let failure)):
      return .damagedRemoved(id, damaged, failure)
    case (.signOut(let id, let name), .signedOut(let result)): return .signedOut(id, name, result)
    case (.learnSignOutFacts(let id, let provider), .signOutFacts(let result)):
      return .signOutFactsLearned(id, provider, result)
    case (.exportEnvFile(let id, _, _, _), .exported(let result)): return .exported(id, result)
    case (.copyText(let id, _, _), .copied(let result)),
      (.copyToken(let id, _), .copied(let result)):
      return .copied(id, result)
    case (.watchQuestions(let id), .questions(let questions)):
      return .questionsWatched(id, questions)
    case (.answerQuestion(let id, let question, let decision), .done(let failure)):
      return .questionAnswered(id, question: question, decision, problem: failure?.message)
    case (.openSignInPage(let id, _, _), .browser(let report)),
      (.openSignOutPage(let id, _), .browser(let report)):
      return .pageOpened(id, report)
    default: return nil
    }
  }
}

extension Effect {
  /// The request this effect is asked under (nil for the ones that have none).
  var request: RequestID? {
    switch self {
    case .start, .followNews, .redraw: return nil
    case .unlock(let id, _), .createVault(let id, _), .loadAccounts(let id),
      .loadProviders(let id), .startSignIn(let id, _, _, _), .checkVaultWritable(let id),
      .cancel(let id),
      .submitRedirect(let id, _, _), .openSignInPage(let id, _, _), .openSignOutPage(let id, _),
      .copyText(let id, _, _), .copyToken(let id, _), .refresh(let id, _),
      .refreshAhead(let id, _), .watchVault(let id), .signOut(let id, _),
      .removeDamaged(let id, _), .saveProviderSetup(let id, _, _, _, _),
      .exportEnvFile(let id, _, _, _), .setDefault(let id, _, _), .watchProviders(let id),
      .discoverIssuer(let id, _), .addProvider(let id, _, _, _), .rename(let id, _, _),
      .changePassphrase(let id, _, _),
      .learnSignOutFacts(let id, _), .watchQuestions(let id), .answerQuestion(let id, _, _):
      return id
    }
  }
}
