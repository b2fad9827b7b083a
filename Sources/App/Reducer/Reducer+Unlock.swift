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
}
