import AuthCore
import Terminal
import Theme

/// The key hints of the status line: the actions that make sense now, with the keys the user
/// has for them.
enum Hints {
  /// The hints for `state`, in display order; when they do not all fit, the ones named
  /// earlier in `keep` win (help and quit first, so they are always there).
  static func current(_ state: AppState) -> [Chrome.Hint] {
    let context = state.context
    let wanted = self.wanted(state)
    var keep: [Command] = [
      .allowOnce, .deny, .allowFifteenMinutes,
      .help, .quit, .back, .confirm, .yes, .no, .remove, .retry, .showDamaged, .add, .details,
      .refresh, .copy,
    ]
    if wanted.first?.0 == .signInAgain { keep.insert(.signInAgain, at: 0) }
    // Shown only where everything else fits too (a wide terminal): the help screen lists them.
    let last: [Command] = [.makeDefault, .changePassphrase]
    return wanted.compactMap { command, word in
      guard let key = state.keys.keys(for: command, in: context).first else { return nil }
      let priority =
        keep.firstIndex(of: command) ?? last.firstIndex(of: command).map { keep.count + 1 + $0 }
        ?? keep.count
      return Chrome.Hint(key: key.displayName, word: word, priority: priority)
    }
  }

  /// The hints of the screen keys go to now (`AppState.context` as the panels say it).
  private static func wanted(_ state: AppState) -> [(Command, String)] {
    if let confirmation = state.confirmation {
      return confirmation.answering == nil ? words(.allowOnce, .allowFifteenMinutes, .deny) : []
    }
    guard case .ready = state.phase else {
      guard case .locked(let form) = state.phase else { return [(.back, "quit")] }
      return [(.confirm, form.creating ? "create" : "unlock")]
        + (form.creating ? words(.nextField) : []) + [(.back, "quit")]
    }
    switch state.topPanel {
    case nil:
      return state.isEditingFilter
        ? [(.confirm, "keep filter"), (.back, "clear"), (.moveDown, "move")] : listHints(state)
    case .details(let name):
      var wanted = words(
        .refresh, .copy, .export, .signOut, .signInAgain, .rename, .makeDefault, .back, .help)
      if state.account(name)?.needsSignIn == true {
        wanted.removeAll { [.signInAgain, .refresh, .copy, .export].contains($0.0) }
        wanted.insert(contentsOf: words(.signInAgain), at: 0)
      }
      return wanted
    case .signIn(let signIn):
      if signIn.labelField != nil { return [(.confirm, "keep label"), (.back, "cancel")] }
      switch signIn.step {
      case .chooseProvider, .chooseMethod:
        let demo = state.configuration.demoApprover == nil ? [] : words(.demoAnswer)
        return [(.confirm, "choose")] + words(.editLabel) + demo + words(.back, .help)
      case .attempt(let attempt):
        return attempt.paste == nil
          ? signInHints(attempt) : [(.confirm, "submit"), (.back, "close")]
      }
    case .dialog(let dialog):
      return dialog.current.hints(state)
    case .help:
      return [(.back, "close"), (.moveDown, "scroll")]
    case .notices:
      return [(.confirm, "continue")] + words(.help, .quit)
    case .damaged(let screen):
      if screen.confirming { return [(.yes, "remove"), (.no, "keep")] }
      return words(.remove) + [(.moveDown, "next"), (.back, "close")] + words(.help)
    }
  }

  /// The list's hints: the account commands while an account is shown.
  private static func listHints(_ state: AppState) -> [(Command, String)] {
    var wanted =
      state.visibleAccounts.isEmpty
      ? words(.add, .filter, .help, .quit)
      : words(
        .details, .add, .refresh, .copy, .export, .signOut, .signInAgain, .rename, .makeDefault,
        .filter, .changePassphrase, .help, .quit)
    if state.selectedAccount?.needsSignIn == true {
      // Nothing else works on it: signing in again is what the row needs.
      wanted.removeAll { [.signInAgain, .refresh, .copy, .export].contains($0.0) }
      wanted.insert(contentsOf: words(.signInAgain), at: 0)
    }
    if !state.damagedAccounts.isEmpty {
      wanted.insert((.showDamaged, "damaged (\(state.damagedAccounts.count))"), at: 0)
    }
    if !state.filter.isEmpty { wanted.insert((.back, "clear filter"), at: 0) }
    return wanted
  }

  private static func signInHints(_ attempt: SignInAttemptState) -> [(Command, String)] {
    if !attempt.isRunning { return words(.retry, .back, .help) }
    var hints: [(Command, String)] = []
    if attempt.progress?.pageToOpen != nil {
      hints.append((.openBrowser, attempt.method == .pkce ? "open browser" : "open page"))
    }
    if attempt.progress?.userCode != nil { hints += words(.copyCode) }
    if attempt.progress?.pageToOpen != nil { hints += words(.copyURL) }
    if attempt.method == .pkce && attempt.progress?.phase == .waitingForBrowser {
      hints += words(.pasteRedirect)
    }
    hints.append((.back, "cancel"))
    return hints
  }

  /// `commands` with their words from the one table (`ActionTable.Row.hint`); a screen whose
  /// word for a key differs (Enter's "rename" in the rename dialog) pairs it by hand.
  static func words(_ commands: Command...) -> [(Command, String)] {
    commands.map { ($0, ActionTable.hintWord($0) ?? $0.rawValue) }
  }
}
