import Foundation

extension AppState {
  // MARK: Unlock

  mutating func performUnlock(_ command: Command, now: Date) -> [Effect] {
    guard case .locked(var form) = phase else {
      if command == .back { shouldExit = true }
      return []
    }
    switch command {
    case .back:
      shouldExit = true
      return []
    case .nextField, .previousField:
      if form.creating { form.focus = 1 - form.focus }
      phase = .locked(form)
      return []
    case .confirm:
      guard form.pending == nil else { return [] }
      if form.passphrase.isEmpty {
        form.problem = "type the passphrase, then press Enter"
        form.focus = 0
        phase = .locked(form)
        return []
      }
      if form.creating && form.focus == 0 {
        form.focus = 1
        phase = .locked(form)
        return []
      }
      if form.creating && form.passphrase.text != form.repeated.text {
        form = UnlockForm(creating: true, problem: "the two passphrases differ; type them again")
        phase = .locked(form)
        return []
      }
      let secret = SecretText(form.passphrase.text)
      let id = startBusy(
        form.creating ? "creating the vault" : "unlocking the vault", writesVault: form.creating)
      form.pending = id
      form.problem = nil
      phase = .locked(form)
      return [form.creating ? .createVault(id, secret) : .unlock(id, secret)]
    default:
      return []
    }
  }

  /// The vault is open: read the accounts and the providers.
  mutating func becomeReady() -> [Effect] {
    phase = .ready
    let accounts = startBusy("reading the accounts", writesVault: false)
    return [.loadAccounts(accounts), .loadProviders(newRequest())]
  }

  // MARK: Sign-out

  mutating func performSignOut(_ command: Command, now: Date) -> [Effect] {
    guard case .signOut(let dialog) = topPanel else { return [] }
    switch (dialog.step, command) {
    case (.confirm, .confirm), (.confirm, .yes):
      let id = startBusy(
        "signing out of \(dialog.account)", account: dialog.account, writesVault: true)
      updateSignOut { $0.step = .working(id) }
      return [.signOut(id, dialog.account)]
    case (.done(.success(let report)), .openBrowser):
      guard report.endSessionURL != nil else { return [] }
      return [.openSignOutPage(newRequest(), dialog.account)]
    case (_, .back), (_, .no), (.done, .confirm):
      // Leaving while the work runs lets it finish in the background; the list shows it.
      panels.removeLast()
    default:
      break
    }
    return []
  }

  // MARK: Export

  mutating func performExport(_ command: Command, now: Date) -> [Effect] {
    guard case .export(let form) = topPanel else { return [] }
    switch command {
    case .back:
      panels.removeLast()
    case .moveDown, .nextField, .moveUp, .previousField:
      let step = command == .moveDown || command == .nextField ? 1 : -1
      let next = form.fields.cycling(from: form.focus, by: step)
      updateExport { $0.focus = next }
    case .toggle:
      guard form.focus == .destination else { return [] }
      updateExport { $0.destination = $0.destination == .envFile ? .clipboard : .envFile }
    case .confirm:
      return submitExport(form, now: now)
    default:
      break
    }
    return []
  }

  private mutating func submitExport(_ form: ExportForm, now: Date) -> [Effect] {
    let name = form.account
    if form.destination == .clipboard {
      panels.removeLast()
      let id = startBusy("copying the token of \(name)", account: name, writesVault: true)
      return [.copyToken(id, name)]
    }
    let path = form.path.text.trimmingCharacters(in: .whitespaces)
    let variable = form.variable.text
    if path.isEmpty {
      updateExport {
        $0.problem =
          "type the file to write, for example ~/.config/authtui/env/\(name.provider).env"
        $0.focus = .path
      }
      return []
    }
    if !ExportForm.isValidVariableName(variable) {
      updateExport {
        $0.problem =
          "\"\(variable)\" is not a shell variable name: use letters, digits and _, "
          + "not starting with a digit"
        $0.focus = .variable
      }
      return []
    }
    panels.removeLast()
    let id = startBusy("exporting \(name)", account: name, writesVault: true)
    return [.exportEnvFile(id, name, path: path, variable: variable)]
  }
}
