import Accounts
import Foundation
import Vault

/// The damaged-accounts screen: the accounts the vault holds but cannot read, each removable
/// the way `authtui logout '#ID' --local-only` removes it.
extension AppState {
  mutating func performDamaged(_ command: Command, now: Date) -> [Effect] {
    guard case .damaged(var screen) = topPanel else { return [] }
    defer { if case .damaged = topPanel { panels[panels.count - 1] = .damaged(screen) } }
    let last = damagedAccounts.count - 1
    switch command {
    case .moveUp, .moveDown:
      guard screen.working == nil, !screen.confirming else { return [] }
      screen.selected = min(max(0, screen.selected + (command == .moveUp ? -1 : 1)), max(0, last))
    case .remove:
      guard screen.working == nil, damagedAccounts.indices.contains(screen.selected) else {
        return []
      }
      screen.confirming = true
    case .yes, .confirm:
      guard screen.confirming, damagedAccounts.indices.contains(screen.selected) else {
        return []
      }
      let damaged = damagedAccounts[screen.selected]
      let id = startBusy("removing \(damaged.reference)", writesVault: true)
      screen.confirming = false
      screen.working = id
      return [.removeDamaged(id, damaged)]
    case .no:
      screen.confirming = false
    case .back:
      if screen.confirming {
        screen.confirming = false
      } else {
        panels.removeLast()
      }
    default:
      break
    }
    return []
  }

  /// A removal ended: the account is gone (the screen closes with the last one), or why not.
  mutating func removedDamaged(_ damaged: DamagedAccount, _ failure: AccountsError?, now: Date) {
    for index in panels.indices {
      if case .damaged(var screen) = panels[index] {
        screen.working = nil
        panels[index] = .damaged(screen)
      }
    }
    if let failure {
      message = StatusMessage(
        .error, failure.message(failing: "remove \(damaged.reference)"), now: now)
      return
    }
    damagedAccounts.removeAll { $0.id == damaged.id }
    for index in panels.indices {
      if case .damaged(var screen) = panels[index] {
        screen.selected = min(screen.selected, max(0, damagedAccounts.count - 1))
        panels[index] = .damaged(screen)
      }
    }
    if damagedAccounts.isEmpty {
      close { panel in
        if case .damaged = panel { return true }
        return false
      }
    }
    message = StatusMessage(
      .success,
      "removed \(damaged.reference) from this vault; its tokens could not be read, so they "
        + "were not revoked: withdraw authtui's access "
        + Revocation.accessSettingsPlace(nil),
      now: now)
  }
}
