import Accounts
import Foundation
import Spelling
import Terminal

extension AppState {
  /// What came of an effect. The work it was waiting for is over, whatever the answer; an
  /// answer for a form or an attempt that moved on changes nothing else.
  mutating func respond(_ response: Response, now: Date) -> [Effect] {
    // The work's account, for a failure that does not name it (a vault kept busy).
    let account = response.request.flatMap { id in busy.first { $0.id == id }?.account }
    if let id = response.request { endBusy(id) }
    switch response {
    case .vaultOpened(let access):
      switch access {
      case .unlocked:
        return becomeReady()
      case .locked(let problem):
        phase = .locked(UnlockForm(creating: false, problem: problem))
      case .missing:
        phase = .locked(UnlockForm(creating: true))
      case .unusable(let problem):
        phase = .unusable(problem)
      }
    case .unlocked(let id, let problem):
      guard case .locked(let form) = phase, form.pending == id else { return [] }
      if let problem {
        phase = .locked(UnlockForm(creating: form.creating, problem: problem))
        return []
      }
      return becomeReady()
    case .questionsWatched(_, let questions):
      questionsWatched(questions, now: now)
    case .questionAnswered(let id, let question, let decision, let problem):
      questionAnswered(id, question: question, decision, problem: problem, now: now)
    case .accountsLoaded(_, let result):
      switch result {
      case .success(let list):
        follow(list)
      case .failure(let failure):
        message = StatusMessage(.error, failure.message(failing: "read the accounts"), now: now)
      }
    case .providersLoaded(_, let list):
      useProviders(list)
    case .providerSetupSaved(let id, let provider, let result):
      return providerSetupSaved(id, provider: provider, result, now: now)
    case .signedIn(let id, let result):
      return signInFinished(id, result, now: now)
    case .vaultWritable(let id, let problem):
      return vaultChecked(id, problem)
    case .vaultPassphraseChanged(let id, let result):
      vaultPassphraseChanged(id, result, now: now)
    case .renamed(let id, let name, let label, let result):
      renamed(id, name, to: label, result, now: now)
    case .providersWatched(_, let list):
      providerWatch.running = nil
      if let list { useProviders(list) }
    case .issuerDiscovered(let id, let issuer, let result):
      issuerDiscovered(id, issuer: issuer, result)
    case .providerAdded(let id, let result):
      return providerAdded(id, result, now: now)
    case .redirectSubmitted(_, let failure):
      if let failure { message = StatusMessage(.error, failure.message, now: now) }
    case .refreshed(_, let name, let result):
      refreshFinished(name, result, now: now)
    case .refreshedAhead(_, let name, let result):
      refreshedAhead(name, result, now: now)
    case .damagedRemoved(_, let damaged, let failure):
      removedDamaged(damaged, failure, now: now)
    case .vaultWatched(_, let change):
      vaultWatched(change)
    case .news(let kind, let text):
      heard(kind, text, now: now)
      return [.followNews]
    case .signedOut(let id, let name, let result):
      signOutFinished(id, name, result, now: now)
    case .signOutFactsLearned(let id, _, let result):
      for index in panels.indices {
        updateDialog(SignOutState.self, at: index) { dialog in
          guard dialog.learning == id else { return }
          dialog.learning = nil
          switch result {
          case .success(let facts):
            dialog.canRevoke = facts.canRevoke
            dialog.hasSignOutPage = facts.hasSignOutPage
          case .failure(let failure):
            dialog.factsProblem = failure.message
          }
        }
      }
    case .defaultSet(_, let name, let isDefault, let result):
      switch result {
      case .success(let list):
        follow(list)
        let provider = name.provider.rawValue
        message = StatusMessage(
          .success,
          isDefault
            ? "\(name) is now \(provider)'s default account: `authtui token \(provider)` gives its "
              + "token"
            : "\(provider) has no default account now", now: now)
      case .failure(let failure):
        let provider = name.provider.rawValue
        let action =
          isDefault
          ? "make \(name) \(provider)'s default account"
          : "remove the default mark of \(name)"
        message = StatusMessage(.error, failure.message(failing: action), now: now)
      }
    case .exported(let id, let result):
      exported(id, result, account: account, now: now)
    case .copied(_, let result):
      switch result {
      case .success(let report):
        // What was done: sent to the terminal, copied with a tool, or dropped by tmux.
        let dropped = report.terminal != .sent && report.terminal != .sentThroughTmux
        message = StatusMessage(dropped ? .warning : .success, report.sentence, now: now)
      case .failure(let failure):
        let action = account.map { "copy the token of \($0)" } ?? "copy"
        message = StatusMessage(.error, failure.message(failing: action), now: now)
      }
    case .pageOpened(_, let report):
      switch report {
      case .opened(let command):
        // Only while the screen that opened it is up: a late answer must not cover newer news.
        switch topPanel {
        case .signIn, .dialog(.signOut):
          message = StatusMessage(.info, "opened the page with \(command)", now: now)
        default:
          break
        }
      case .handedToDemoApprover(let pause):
        // The flow screen counts down to the approver's answer; a sign-out page says it here.
        switch topPanel {
        case .signIn:
          updateAttempt(nil) { state in
            if state.isRunning { state.demoAnswersAt = now.addingTimeInterval(pause) }
            return []
          }
        case .dialog(.signOut):
          message = StatusMessage(
            .info, "the demo's approver opens the sign-out page, as a browser would", now: now)
        default:
          break
        }
      case .unavailable(let reason):
        updateAttempt(nil) { state in
          state.browserProblem = reason
          return []
        }
        message = StatusMessage(.warning, reason, now: now)
      }
    }
    return []
  }

  private mutating func refreshFinished(
    _ name: AccountName, _ result: Result<AccountSummary, AccountsError>, now: Date
  ) {
    switch result {
    case .success(let account):
      upsert(account)
      refreshesAhead[name] = nil
      message = StatusMessage(.success, "refreshed \(name)", now: now)
    case .failure(let failure):
      if failure.requiresSignIn { markSignInNeeded(name) }
      let text =
        failure.vaultIsBusy
        ? failure.message(failing: "refresh \(name)")
        : "\(name): " + failure.listMessage(signInAgainKey: keyName(.signInAgain, in: .list))
      message = StatusMessage(.error, text, now: now)
    }
  }

  private mutating func signOutFinished(
    _ id: RequestID, _ name: AccountName, _ result: Result<SignOutReport, AccountsError>, now: Date
  ) {
    if case .success = result {
      let index = visibleAccounts.firstIndex { $0.name == name }
      accounts.removeAll { $0.name == name }
      if let index, !visibleAccounts.isEmpty {
        selection = visibleAccounts[min(index, visibleAccounts.count - 1)].name
      }
      keepSelectionVisible()
      closeDetails(of: name)
    }
    for index in panels.indices {
      updateDialog(SignOutState.self, at: index) { dialog in
        if dialog.step == .working(id) { dialog.step = .done(result) }
      }
    }
    switch result {
    case .failure(let failure):
      message = StatusMessage(.error, failure.message(failing: "sign out of \(name)"), now: now)
    case .success(let report):
      switch report.revocation {
      case .revoked:
        message = StatusMessage(.success, "signed out of \(name); tokens revoked", now: now)
      case .unsupported, .skipped, .providerMissing:
        message = StatusMessage(
          .success, "signed out of \(name); the provider cannot revoke tokens", now: now)
      case .failed(_, let reason):
        message = StatusMessage(
          .warning, "signed out of \(name) here, but revocation failed: \(reason)",
          now: now)
      }
    }
  }
}
