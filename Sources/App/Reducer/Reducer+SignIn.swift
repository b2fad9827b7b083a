import Accounts
import AuthCore
import Foundation

extension AppState {
  /// Opens the sign-in screens at the provider choice, whose last row ("Other provider…")
  /// adds a provider from its issuer URL.
  mutating func beginSignIn(now: Date) -> [Effect] {
    let first = providers.firstIndex(where: \.isUsable) ?? 0
    panels.append(.signIn(SignInState(step: .chooseProvider(selected: first))))
    return []
  }

  /// Opens the sign-in to `account`'s provider again, to store the new tokens under the same
  /// label: straight to the flow screen when the provider has one flow.
  mutating func signInAgain(_ account: AccountSummary, now: Date) -> [Effect] {
    guard let provider = provider(account.name.provider) else {
      message = StatusMessage(
        .error,
        "\(account.name.provider) is no longer a configured provider: add its file to "
          + "\(configuration.configDirectory)/providers/ to sign in again", now: now)
      return []
    }
    guard provider.isUsable, let method = provider.methods.first else {
      let problem = provider.problems.first ?? "it offers no sign-in flow"
      message = StatusMessage(.error, "\(provider.name) cannot be used: \(problem)", now: now)
      return []
    }
    panels.append(
      .signIn(
        SignInState(
          step: .chooseMethod(provider: provider, selected: 0), label: account.name.label)))
    guard provider.methods.count == 1 else { return [] }
    return startAttempt(provider: provider, method: method, now: now)
  }

  mutating func performSignIn(_ command: Command, now: Date) -> [Effect] {
    guard case .signIn(let signIn) = topPanel else { return [] }
    if let field = signIn.labelField { return labelCommand(command, field, now: now) }
    if command == .demoAnswer {
      if configuration.demoApprover != nil { updateSignIn { $0.demoChoice = $0.demoChoice.next } }
      return []
    }
    if command == .editLabel {
      switch signIn.step {
      case .chooseProvider, .chooseMethod:
        updateSignIn { $0.labelField = TextField($0.label ?? "") }
      case .attempt:
        break
      }
      return []
    }
    switch signIn.step {
    case .chooseProvider(let selected):
      return chooseProvider(command, selected: selected, now: now)
    case .chooseMethod(let provider, let selected):
      switch command {
      case .moveUp, .moveDown:
        let next = min(
          max(0, selected + (command == .moveUp ? -1 : 1)), provider.methods.count - 1)
        updateSignIn { $0.step = .chooseMethod(provider: provider, selected: next) }
        return []
      case .confirm:
        return startAttempt(provider: provider, method: provider.methods[selected], now: now)
      case .back:
        let index = providers.firstIndex { $0.id == provider.id } ?? 0
        updateSignIn { $0.step = .chooseProvider(selected: index) }
        return []
      default:
        return []
      }
    case .attempt(let attempt):
      return attempt.paste == nil
        ? attemptCommand(command, attempt, now: now) : pasteCommand(command, attempt, now: now)
    }
  }

  private mutating func chooseProvider(_ command: Command, selected: Int, now: Date) -> [Effect] {
    // The row after the providers is "Other provider…".
    let last = providers.count
    var next = selected
    switch command {
    case .moveUp: next -= 1
    case .moveDown: next += 1
    case .pageUp: next -= listHeight
    case .pageDown: next += listHeight
    case .first: next = 0
    case .last: next = last
    case .back:
      panels.removeLast()
      return []
    case .confirm:
      if selected == providers.count { return openOtherProvider() }
      guard providers.indices.contains(selected) else { return [] }
      let provider = providers[selected]
      guard provider.isUsable, let method = provider.methods.first else {
        if let setup = provider.setup { return openProviderSetup(provider, setup: setup) }
        let problem = provider.problems.first ?? "it offers no sign-in flow"
        message = StatusMessage(.error, "\(provider.name) cannot be used: \(problem)", now: now)
        return []
      }
      if provider.methods.count == 1 {
        return startAttempt(provider: provider, method: method, now: now)
      }
      updateSignIn { $0.step = .chooseMethod(provider: provider, selected: 0) }
      return []
    default:
      return []
    }
    next = min(max(0, next), max(0, last))
    updateSignIn { $0.step = .chooseProvider(selected: next) }
    return []
  }

  /// The label field's keys: Enter keeps what was typed (nothing typed: the provider's name
  /// for the user), Esc leaves the label as it was.
  private mutating func labelCommand(_ command: Command, _ field: TextField, now: Date)
    -> [Effect]
  {
    switch command {
    case .confirm:
      let typed = field.text.trimmingCharacters(in: .whitespaces)
      if !typed.isEmpty, let problem = AccountLabel.problem(with: typed) {
        // The rule every sign-in applies, said before anything starts; the field stays open.
        message = StatusMessage(
          .error, AccountsError.invalidLabel(typed, problem: problem).message, now: now)
        return []
      }
      updateSignIn { signIn in
        signIn.label = typed.isEmpty ? nil : typed
        signIn.labelField = nil
      }
    case .back:
      updateSignIn { $0.labelField = nil }
    default:
      break
    }
    return []
  }

  /// Starts a fresh attempt (new id, fresh secrets in the environment) on the sign-in screens,
  /// for the label the sign-in has: first the look whether the vault can keep its tokens
  /// (`vaultChecked` starts the sign-in itself), so that nothing is asked of the provider, and
  /// no address or code shown, for tokens a read-only vault would drop.
  mutating func startAttempt(provider: ProviderSummary, method: SignInFlow, now: Date)
    -> [Effect]
  {
    let id = newRequest()
    var attempt = SignInAttemptState(id: id, provider: provider, method: method, startedAt: now)
    let demo = configuration.demoApprover != nil
    updateSignIn { signIn in
      if demo { attempt.demoAnswer = DemoAnswer(signIn.demoChoice, label: signIn.label) }
      signIn.step = .attempt(attempt)
    }
    return [.checkVaultWritable(id)]
  }

  /// The vault's answer for attempt `id`: the sign-in starts when the vault can be written;
  /// when it cannot, the attempt ends before it began, its screen saying why and how to fix
  /// it (the retry key looks again). An answer for an attempt gone or replaced is dropped.
  mutating func vaultChecked(_ id: RequestID, _ problem: AccountsError?) -> [Effect] {
    guard let attempt = attempt(id), attempt.isRunning, attempt.progress == nil else { return [] }
    if let problem {
      updateAttempt(id) { state in
        state.failure = problem
        return []
      }
      return []
    }
    var label: String?
    for panel in panels {
      if case .signIn(let signIn) = panel, case .attempt(let shown) = signIn.step, shown.id == id {
        label = signIn.label
      }
    }
    return [.startSignIn(id, provider: attempt.provider.id, method: attempt.method, label: label)]
  }

  private mutating func attemptCommand(
    _ command: Command, _ attempt: SignInAttemptState, now: Date
  ) -> [Effect] {
    let progress = attempt.progress
    switch command {
    case .back:
      closeSignIn()
      guard attempt.isRunning else { return [] }
      message = StatusMessage(.info, "sign-in cancelled; nothing was stored", now: now)
      return [.cancel(attempt.id)]
    case .retry:
      guard !attempt.isRunning else { return [] }
      return startAttempt(provider: attempt.provider, method: attempt.method, now: now)
    case .openBrowser:
      guard attempt.isRunning, progress?.pageToOpen != nil else { return [] }
      updateAttempt(attempt.id) { state in
        state.browserOpened = true
        return []
      }
      return [.openSignInPage(newRequest(), attempt: attempt.id, demo: attempt.demoAnswer)]
    case .copyURL:
      guard let page = progress?.pageToCopy else { return [] }
      let what = attempt.method == .pkce ? "the sign-in URL" : "the verification URL"
      return [.copyText(startBusy("copying \(what)", writesVault: false), page, what: what)]
    case .copyCode:
      guard let code = progress?.userCode else {
        message = StatusMessage(.info, "this sign-in has no code; u copies the URL", now: now)
        return []
      }
      return [.copyText(startBusy("copying the code", writesVault: false), code, what: "the code")]
    case .pasteRedirect:
      guard attempt.isRunning, attempt.method == .pkce else { return [] }
      updateAttempt(attempt.id) { state in
        state.paste = TextField()
        return []
      }
      return []
    default:
      return []
    }
  }

  private mutating func pasteCommand(_ command: Command, _ attempt: SignInAttemptState, now: Date)
    -> [Effect]
  {
    switch command {
    case .back:
      updateAttempt(attempt.id) { state in
        state.paste = nil
        return []
      }
      return []
    case .confirm:
      let text = attempt.paste?.text.trimmingCharacters(in: .whitespaces) ?? ""
      updateAttempt(attempt.id) { state in
        state.paste = nil
        return []
      }
      guard !text.isEmpty else { return [] }
      message = StatusMessage(.info, "checking the pasted address…", now: now)
      return [.submitRedirect(newRequest(), attempt: attempt.id, SecretText(text))]
    default:
      return []
    }
  }

  /// A report from a running attempt; opens the browser the first time there is a page, and
  /// again when the attempt restarted with a fresh link.
  mutating func signInProgressed(_ id: RequestID, _ progress: SignInProgress, now: Date)
    -> [Effect]
  {
    // The final `failed` step is left to the attempt's error, which follows it.
    if case .failed = progress.phase { return [] }
    guard let attempt = attempt(id), attempt.isRunning else { return [] }
    let restarted = progress.restarts > (attempt.progress?.restarts ?? 0)
    let shouldOpen =
      configuration.browserAvailable && (!attempt.browserOpened || restarted)
      && progress.pageToOpen != nil
    let request = shouldOpen ? newRequest() : nil
    updateAttempt(id) { state in
      state.progress = progress
      if shouldOpen { state.browserOpened = true }
      return []
    }
    guard let request else { return [] }
    return [.openSignInPage(request, attempt: id, demo: attempt.demoAnswer)]
  }

  /// The end of an attempt. Results for an attempt that was cancelled, timed out or replaced
  /// by a retry are dropped.
  ///
  /// A new account whose label is only the provider's opaque identifier for the user (and no
  /// label was typed) is named first: the label prompt takes the sign-in's place, and the
  /// account joins the list once named. It is stored already (the spent code's tokens are
  /// never held back for a person to type), so quitting at the prompt keeps it.
  mutating func signInFinished(
    _ id: RequestID, _ result: Result<SignedInSummary, AccountsError>, now: Date
  ) -> [Effect] {
    guard let attempt = attempt(id), attempt.isRunning else { return [] }
    switch result {
    case .success(let signedIn):
      let account = signedIn.account
      let isNew = self.account(account.name) == nil
      closeSignIn()
      if signedIn.labelIsSubject && isNew {
        panels.append(RenameForm(naming: account).panel)
        return []
      }
      joinList(account, now: now)
      message = StatusMessage(.success, "signed in: \(account.name)", now: now)
    case .failure(let failure):
      if failure == .auth(.cancelled) {
        closeSignIn()
        return []
      }
      updateAttempt(id) { state in
        state.failure = failure
        state.paste = nil
        return []
      }
    }
    return []
  }

  /// Goes on with the sign-in on the provider choice after `provider` (row `index`) was
  /// saved to `file`: straight to its flow screen when it has one flow, to the flow choice when
  /// it has more, to its setup form when it still lacks a client id.
  mutating func continueSignIn(
    _ provider: ProviderSummary, at index: Int, file: String, now: Date
  ) -> [Effect] {
    updateSignIn { $0.step = .chooseProvider(selected: index) }
    guard provider.isUsable, let method = provider.methods.first else {
      if let setup = provider.setup { return openProviderSetup(provider, setup: setup) }
      let problem = provider.problems.first ?? "it offers no sign-in flow"
      message = StatusMessage(
        .error, "saved \(file), but \(provider.name) cannot be used yet: \(problem)", now: now)
      return []
    }
    if provider.methods.count == 1 {
      return startAttempt(provider: provider, method: method, now: now)
    }
    updateSignIn { $0.step = .chooseMethod(provider: provider, selected: 0) }
    return []
  }
}
