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
    var wanted: [(Command, String)]
    switch context {
    case .unlock:
      if case .locked(let form) = state.phase {
        wanted = [(.confirm, form.creating ? "create" : "unlock")]
        if form.creating { wanted.append((.nextField, "next field")) }
        wanted.append((.back, "quit"))
      } else {
        wanted = [(.back, "quit")]
      }
    case .notices:
      wanted = [(.confirm, "continue"), (.help, "help"), (.quit, "quit")]
    case .list:
      wanted =
        state.visibleAccounts.isEmpty
        ? [(.add, "add"), (.filter, "filter"), (.help, "help"), (.quit, "quit")]
        : [
          (.details, "details"), (.add, "add"), (.refresh, "refresh"), (.copy, "copy"),
          (.export, "export"), (.signOut, "sign out"), (.signInAgain, "sign in again"),
          (.rename, "rename"), (.filter, "filter"), (.help, "help"), (.quit, "quit"),
        ]
      if state.selectedAccount?.needsSignIn == true {
        // Nothing else works on it: signing in again is what the row needs.
        wanted.removeAll { $0.0 == .signInAgain || $0.0 == .refresh || $0.0 == .copy }
        wanted.insert((.signInAgain, "sign in again"), at: 0)
      }
      if !state.damagedAccounts.isEmpty {
        wanted.insert((.showDamaged, "damaged (\(state.damagedAccounts.count))"), at: 0)
      }
      if !state.filter.isEmpty { wanted.insert((.back, "clear filter"), at: 0) }
    case .filter:
      wanted = [(.confirm, "keep filter"), (.back, "clear"), (.moveDown, "move")]
    case .details:
      wanted = [
        (.refresh, "refresh"), (.copy, "copy"), (.export, "export"), (.signOut, "sign out"),
        (.signInAgain, "sign in again"), (.rename, "rename"), (.back, "back"), (.help, "help"),
      ]
      if case .details(let name) = state.topPanel, state.account(name)?.needsSignIn == true {
        wanted.removeAll { $0.0 == .signInAgain || $0.0 == .refresh || $0.0 == .copy }
        wanted.insert((.signInAgain, "sign in again"), at: 0)
      }
    case .providerChoice, .flowChoice:
      wanted = [(.confirm, "choose"), (.editLabel, "label"), (.back, "back"), (.help, "help")]
      if state.configuration.demoApprover != nil {
        wanted.insert((.demoAnswer, "demo answer"), at: 2)
      }
    case .labelField:
      wanted = [(.confirm, "keep label"), (.back, "cancel")]
    case .providerSetup:
      wanted = [(.confirm, "save and sign in"), (.nextField, "next field"), (.back, "back")]
      if case .providerSetup(let form) = state.topPanel, form.redirectPort == nil {
        wanted.remove(at: 1)
      }
    case .otherProvider:
      wanted = otherProviderHints(state)
    case .rename:
      wanted = [(.confirm, "rename"), (.back, "cancel")]
      if case .rename(let form) = state.topPanel {
        if form.signedIn != nil { wanted = [(.confirm, "use this label"), (.back, "keep it")] }
        if form.pending != nil { wanted = [(.back, "close")] }
      }
    case .signIn:
      wanted = signInHints(state)
    case .pasteRedirect:
      wanted = [(.confirm, "submit"), (.back, "close")]
    case .signOut:
      wanted = signOutHints(state)
    case .export:
      wanted = [(.confirm, "export"), (.nextField, "next field")]
      if case .export(let form) = state.topPanel, form.focus == .destination {
        wanted.append((.toggle, "switch"))
      }
      wanted.append((.back, "cancel"))
    case .help:
      wanted = [(.back, "close"), (.moveDown, "scroll")]
    case .damaged:
      wanted = damagedHints(state)
    case .confirmation:
      wanted =
        state.confirmation?.answering == nil
        ? [(.allowOnce, "allow once"), (.allowFifteenMinutes, "allow 15 min"), (.deny, "deny")]
        : []
    }
    var keep: [Command] = [
      .allowOnce, .deny, .allowFifteenMinutes,
      .help, .quit, .back, .confirm, .yes, .no, .remove, .retry, .showDamaged, .add, .details,
      .refresh, .copy,
    ]
    if wanted.first?.0 == .signInAgain { keep.insert(.signInAgain, at: 0) }
    return wanted.compactMap { command, word in
      guard let key = state.keys.keys(for: command, in: context).first else { return nil }
      let priority = keep.firstIndex(of: command) ?? keep.count
      return Chrome.Hint(key: key.displayName, word: word, priority: priority)
    }
  }

  private static func signInHints(_ state: AppState) -> [(Command, String)] {
    guard case .signIn(let signIn) = state.topPanel, case .attempt(let attempt) = signIn.step
    else { return [] }
    if !attempt.isRunning { return [(.retry, "retry"), (.back, "back"), (.help, "help")] }
    var hints: [(Command, String)] = []
    if attempt.progress?.pageToOpen != nil {
      hints.append((.openBrowser, attempt.method == .pkce ? "open browser" : "open page"))
    }
    if attempt.progress?.userCode != nil { hints.append((.copyCode, "copy code")) }
    if attempt.progress?.pageToOpen != nil { hints.append((.copyURL, "copy URL")) }
    if attempt.method == .pkce && attempt.progress?.phase == .waitingForBrowser {
      hints.append((.pasteRedirect, "paste address"))
    }
    hints.append((.back, "cancel"))
    return hints
  }

  private static func otherProviderHints(_ state: AppState) -> [(Command, String)] {
    guard case .otherProvider(let form) = state.topPanel else { return [] }
    switch form.pending {
    case .discovering?: return [(.back, "stop")]
    case .adding?: return [(.back, "close")]
    case nil: break
    }
    let confirm =
      form.discovery == nil ? "discover" : form.registers ? "register and save" : "save"
    return [(.confirm, confirm), (.nextField, "next field"), (.back, "back")]
  }

  private static func damagedHints(_ state: AppState) -> [(Command, String)] {
    guard case .damaged(let screen) = state.topPanel else { return [] }
    if screen.confirming { return [(.yes, "remove"), (.no, "keep")] }
    return [(.remove, "remove"), (.moveDown, "next"), (.back, "close"), (.help, "help")]
  }

  private static func signOutHints(_ state: AppState) -> [(Command, String)] {
    guard case .signOut(let dialog) = state.topPanel else { return [] }
    switch dialog.step {
    case .confirm: return [(.confirm, "sign out"), (.back, "keep")]
    case .working: return [(.back, "close")]
    case .done(let result):
      let page = (try? result.get())?.endSessionURL
      return (page == nil ? [] : [(.openBrowser, "open sign-out page")])
        + [(.confirm, "close")]
    }
  }
}
