import Accounts
import Foundation

extension AppState {
  /// The rename dialog's keys (and the label prompt's after a sign-in): Enter checks the label
  /// by the one rule and stores it through the vault; Esc leaves the label as it is.
  mutating func performRename(_ command: Command, now: Date) -> [Effect] {
    guard case .rename(let form) = topPanel else { return [] }
    switch command {
    case .back:
      // A rename in flight still finishes; the list then shows the account under its new name.
      panels.removeLast()
      if let signedIn = form.signedIn, form.pending == nil {
        joinList(signedIn, now: now)
        message = StatusMessage(
          .success,
          "signed in: \(signedIn.name); \(keyName(.rename, in: .list)) renames it later",
          now: now)
      }
      return []
    case .confirm:
      guard form.pending == nil else { return [] }
      let typed = form.label.text.trimmingCharacters(in: .whitespaces)
      if typed == form.account.label {
        panels.removeLast()
        if let signedIn = form.signedIn {
          joinList(signedIn, now: now)
          message = StatusMessage(.success, "signed in: \(signedIn.name)", now: now)
        }
        return []
      }
      if let problem = AccountLabel.problem(with: typed) {
        updateRename { $0.problem = AccountsError.invalidLabel(typed, problem: problem).message }
        return []
      }
      let id = startBusy("renaming \(form.account)", account: form.account, writesVault: true)
      updateRename {
        $0.pending = id
        $0.problem = nil
      }
      return [.rename(id, form.account, label: typed)]
    default:
      return []
    }
  }

  /// The rename `request` of `name` to `label` ended: on success the list as the vault now
  /// holds it, with the account selected under its new name (its details panel follows it);
  /// a refusal is said in the dialog, which keeps what was typed.
  mutating func renamed(
    _ request: RequestID, _ name: AccountName, to label: String,
    _ result: Result<AccountList, AccountsError>, now: Date
  ) {
    let formIndex = formIndex(waitingFor: request)
    switch result {
    case .failure(let failure):
      requestFailed(failure.message, inFormAt: formIndex, now: now)
    case .success(let list):
      let renamed = AccountName(provider: name.provider, label: label)
      var signedIn = false
      if let formIndex, case .rename(let form) = panels[formIndex] {
        signedIn = form.signedIn != nil
        panels.removeSubrange(formIndex...)
      }
      for index in panels.indices {
        if case .details(name) = panels[index] { panels[index] = .details(renamed) }
      }
      if selection == name || signedIn { selection = renamed }
      follow(list)
      if !visibleAccounts.contains(where: { $0.name == renamed }), account(renamed) != nil {
        filter.clear()
        accountsChanged()
        selection = renamed
      }
      keepSelectionVisible()
      message = StatusMessage(
        .success, signedIn ? "signed in: \(renamed)" : "renamed \(name) to \(renamed)", now: now)
    }
  }

  /// Shows an account a sign-in stored, selected (the filter cleared when it hides it).
  mutating func joinList(_ account: AccountSummary, now: Date) {
    upsert(account)
    if !visibleAccounts.contains(where: { $0.name == account.name }) {
      filter.clear()
      accountsChanged()
    }
    selection = account.name
    keepSelectionVisible()
  }

  /// Changes the rename dialog on top, if the top panel is one.
  mutating func updateRename(_ change: (inout RenameForm) -> Void) {
    guard case .rename(var form) = topPanel else { return }
    change(&form)
    panels[panels.count - 1] = .rename(form)
  }
}
