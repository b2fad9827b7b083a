import Accounts
import AuthCore
import Foundation
import Terminal

/// The one place the UI's state changes: state + action → state + effects.
///
/// Pure: time comes in as `now`, and everything that touches the world leaves as an `Effect`
/// whose result comes back later as another `Action`.
public enum Reducer {
  /// The effects to run when the UI starts: how the vault stands, and the wait for news.
  public static let initialEffects: [Effect] = [.start, .followNews]

  /// Applies `action` at `now`.
  public static func reduce(_ state: AppState, _ action: Action, now: Date) -> (AppState, [Effect])
  {
    var next = state
    let effects = next.apply(action, now: now)
    return (next, effects)
  }
}

extension AppState {
  /// Applies `action` in place and returns the effects it asks for.
  public mutating func apply(_ action: Action, now: Date) -> [Effect] {
    let effects: [Effect]
    switch action {
    case .key(let key):
      if message?.staysUntilKey == true { message = nil }
      // The question about a sign-in under way holds for the next key only.
      let quitWasAsked = quitAsked
      effects = handleKey(key, now: now)
      if quitWasAsked { quitAsked = false }
    case .command(let command): effects = perform(command, now: now)
    case .resized(let newSize):
      size = newSize
      keepSelectionVisible()
      effects = []
    case .tick: effects = tick(now: now) + upkeep(now: now) + lookForQuestions(now: now)
    case .signInProgress(let id, let progress):
      effects = signInProgressed(id, progress, now: now)
    case .response(let response):
      effects = respond(response, now: now)
    case .terminate:
      shouldExit = true
      effects = []
    }
    if let asked = quitRequestedAt,
      !busy.contains(where: \.writesVault) || now.timeIntervalSince(asked) >= 3
    {
      shouldExit = true
    }
    showHeldNews()
    return effects
  }

  // MARK: Keys

  /// True when typed characters go into a field now.
  var acceptsText: Bool {
    activeDialog?.acceptsText ?? context.takesText
  }

  mutating func handleKey(_ key: KeyEvent, now: Date) -> [Effect] {
    if case .resize = key { return [] }
    if isTooSmall { return handleKeyWhileTooSmall(key, now: now) }
    // While the vault opens (or cannot be), no field takes text: the quit key quits, as it
    // does everywhere but in text fields.
    if context == .unlock, !phase.isLocked, keys.command(for: key, in: .list) == .quit {
      shouldExit = true
      return []
    }
    if acceptsText {
      switch key {
      case .character(let character):
        typeText(String(character))
        return []
      case .paste(let text):
        typeText(text)
        return []
      case .backspace:
        editField { $0.deleteBackward() }
        return []
      case .control("u"):
        editField { $0.clear() }
        return []
      default:
        break
      }
    }
    if let command = keys.command(for: key, in: context) {
      return perform(command, now: now)
    }
    if case .paste(let text) = key, context == .signIn {
      // A redirect URL pasted straight onto the flow screen: open the field with it.
      _ = perform(.pasteRedirect, now: now)
      if context == .pasteRedirect { typeText(text) }
    }
    return []
  }

  /// True while the terminal is smaller than the screens fit in (`AppView.minimumSize`).
  var isTooSmall: Bool {
    size.columns < AppView.minimumSize.columns || size.rows < AppView.minimumSize.rows
  }

  /// The "terminal too small" notice hides every screen: a key pressed then must not act
  /// unseen. Only quitting does (the list's quit key anywhere, and Esc where it quits the
  /// unlock screen), as the notice says.
  mutating func handleKeyWhileTooSmall(_ key: KeyEvent, now: Date) -> [Effect] {
    if keys.command(for: key, in: .list) == .quit {
      return requestQuit(now: now, askingAboutSignIns: false)
    }
    if context == .unlock, keys.command(for: key, in: .unlock) == .back {
      shouldExit = true
    }
    return []
  }

  /// Types into the field that has the focus.
  mutating func typeText(_ text: String) {
    editField { $0.insert(text) }
  }

  /// Changes the focused field of the current context.
  mutating func editField(_ change: (inout TextField) -> Void) {
    if let dialog = activeDialog {
      edit(dialog, change)
      return
    }
    switch context {
    case .unlock:
      guard case .locked(var form) = phase, form.pending == nil else { return }
      if form.focus == 0 { change(&form.passphrase) } else { change(&form.repeated) }
      form.problem = nil
      phase = .locked(form)
    case .filter:
      change(&filter)
      accountsChanged()
      keepSelectionVisible()
    case .labelField:
      updateSignIn { signIn in
        if var field = signIn.labelField {
          change(&field)
          signIn.labelField = field
        }
      }
    case .pasteRedirect:
      updateAttempt(nil) { attempt in
        if var field = attempt.paste {
          change(&field)
          attempt.paste = field
        }
        return []
      }
    default:
      break
    }
  }

  // MARK: Commands

  /// Runs `command` in the current context.
  mutating func perform(_ command: Command, now: Date) -> [Effect] {
    switch command {
    case .redraw:
      return [.redraw]
    case .quit:
      return requestQuit(now: now)
    case .help:
      if case .help = topPanel {
        panels.removeLast()
      } else if phase == .ready {
        panels.append(.help(context: context, scroll: 0))
      }
      return []
    default:
      break
    }
    // Where keys go, as `context` says.
    if confirmation != nil { return performConfirmation(command, now: now) }
    guard case .ready = phase else { return performUnlock(command, now: now) }
    switch topPanel {
    case nil: return performList(command, now: now)
    case .details: return performDetails(command, now: now)
    case .signIn: return performSignIn(command, now: now)
    case .dialog(let dialog): return dialog.current.perform(command, in: &self, now: now)
    case .help, .notices: return performScroll(command)
    case .damaged: return performDamaged(command, now: now)
    }
  }

  /// Quits, after cancelling sign-ins; vault writes in flight get a moment to finish. A
  /// sign-in under way is not lost to one key: the first press asks (unless
  /// `askingAboutSignIns` is false: the "terminal too small" notice says the key quits), the
  /// next quits.
  mutating func requestQuit(now: Date, askingAboutSignIns: Bool = true) -> [Effect] {
    if askingAboutSignIns, !quitAsked, !runningAttempts.isEmpty {
      quitAsked = true
      message = .untilKey(
        .warning,
        // One row at 80 columns: the sign-in's own lines stay in view.
        "sign-in under way: \(keyName(.quit, in: context)) again quits and abandons it, "
          + "\(keyName(.back, in: .signIn)) cancels only the sign-in", now: now)
      return []
    }
    quitRequestedAt = now
    let writes = busy.filter(\.writesVault).count
    if writes > 0 {
      message = StatusMessage(
        .info, "finishing \(writes) vault write(s) before quitting…", now: now)
    }
    return runningAttempts.map { .cancel($0) }
  }

  /// The ids of sign-in attempts still running.
  var runningAttempts: [RequestID] {
    panels.compactMap { panel in
      guard case .signIn(let signIn) = panel, case .attempt(let attempt) = signIn.step,
        attempt.isRunning
      else { return nil }
      return attempt.id
    }
  }

  /// Scrolls the help or notices panel.
  mutating func performScroll(_ command: Command) -> [Effect] {
    let page = max(1, size.rows - 4)
    func moved(_ scroll: Int) -> Int? {
      switch command {
      case .moveUp: return scroll - 1
      case .moveDown: return scroll + 1
      case .pageUp: return scroll - page
      case .pageDown: return scroll + page
      case .first: return 0
      case .last: return Int.max / 2
      default: return nil
      }
    }
    switch topPanel {
    case .help(let context, let scroll):
      if command == .back {
        panels.removeLast()
      } else if let next = moved(scroll) {
        let lines = HelpContent.lines(
          keys: keys, first: context, width: HelpContent.helpWidth(screenColumns: size.columns))
        let limit = max(0, lines.count - page)
        panels[panels.count - 1] = .help(context: context, scroll: min(max(0, next), limit))
      }
    case .notices(let scroll):
      if command == .back || command == .confirm {
        panels.removeLast()
      } else if let next = moved(scroll) {
        panels[panels.count - 1] = .notices(scroll: min(max(0, next), max(0, notices.count - 1)))
      }
    default:
      break
    }
    return []
  }

  // MARK: Time

  mutating func tick(now: Date) -> [Effect] {
    if let message, message.expiresAt <= now { self.message = nil }
    var effects: [Effect] = []
    for index in panels.indices {
      guard case .signIn(var signIn) = panels[index], case .attempt(var attempt) = signIn.step,
        attempt.isRunning, let progress = attempt.progress, let deadline = progress.deadline,
        deadline <= now
      else { continue }
      switch progress.phase {
      case .waitingForBrowser, .waitingForApproval:
        // The countdown ran out: the attempt ends here, whatever the background says later.
        attempt.failure =
          attempt.method == .pkce
          ? .auth(.noAnswer(waited: deadline.timeIntervalSince(attempt.startedAt)))
          : .auth(.userCodeExpired)
        attempt.paste = nil
        signIn.step = .attempt(attempt)
        panels[index] = .signIn(signIn)
        effects.append(.cancel(attempt.id))
      case .exchangingCode, .signedIn, .failed:
        break
      }
    }
    return effects
  }

  // MARK: Panels

  /// Changes the sign-in screens on top, if the top panel is one.
  mutating func updateSignIn(_ change: (inout SignInState) -> Void) {
    guard case .signIn(var signIn) = topPanel else { return }
    change(&signIn)
    panels[panels.count - 1] = .signIn(signIn)
  }

  /// Changes the sign-in attempt `id` wherever it is in the stack (the top one for nil), if it
  /// is still there; returns what `change` returns.
  @discardableResult
  mutating func updateAttempt(
    _ id: RequestID?, _ change: (inout SignInAttemptState) -> [Effect]
  ) -> [Effect] {
    for index in panels.indices.reversed() {
      guard case .signIn(var signIn) = panels[index], case .attempt(var attempt) = signIn.step,
        id == nil || attempt.id == id
      else { continue }
      let effects = change(&attempt)
      signIn.step = .attempt(attempt)
      panels[index] = .signIn(signIn)
      return effects
    }
    return []
  }

  /// The running attempt `id`, if the sign-in screens still show it.
  func attempt(_ id: RequestID) -> SignInAttemptState? {
    for panel in panels {
      if case .signIn(let signIn) = panel, case .attempt(let attempt) = signIn.step,
        attempt.id == id
      {
        return attempt
      }
    }
    return nil
  }

  /// Removes the sign-in screens (and anything over them).
  mutating func closeSignIn() {
    guard
      let index = panels.firstIndex(where: {
        if case .signIn = $0 { return true }
        return false
      })
    else { return }
    panels.removeSubrange(index...)
  }

  /// Removes the details of `name`, an account that is gone, and what was opened over them,
  /// except its sign-out dialog: that one says what came of the sign-out, whichever came
  /// first, its answer or the list without the account.
  mutating func closeDetails(of name: AccountName) {
    guard
      let index = panels.firstIndex(where: { panel in
        if case .details(name) = panel { return true }
        return false
      })
    else { return }
    let kept = panels[(index + 1)...].filter { SignOutState($0)?.account == name }
    panels.removeSubrange(index...)
    panels += kept
  }

  /// Removes the first panel matching `isMatch` and everything over it.
  mutating func close(where isMatch: (Panel) -> Bool) {
    guard let index = panels.firstIndex(where: isMatch) else { return }
    panels.removeSubrange(index...)
  }

  /// Registers background work for the spinner.
  mutating func startBusy(
    _ label: String, account: AccountName? = nil, writesVault: Bool,
    kind: BusyTask.Kind = .other
  ) -> RequestID {
    let id = newRequest()
    busy.append(
      BusyTask(id: id, label: label, account: account, writesVault: writesVault, kind: kind))
    return id
  }

  /// Starts a refresh of `name` (asked for, or ahead of its expiry).
  mutating func startRefresh(_ name: AccountName) -> RequestID {
    startBusy("refreshing \(name)", account: name, writesVault: true, kind: .refresh)
  }

  /// Forgets finished background work.
  mutating func endBusy(_ id: RequestID) {
    busy.removeAll { $0.id == id }
  }
}
