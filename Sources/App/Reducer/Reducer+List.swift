import Accounts
import AuthCore
import Foundation

extension AppState {
  /// The number of list lines between the column headings and the status lines.
  var listHeight: Int { max(1, size.rows - 4) }

  mutating func performList(_ command: Command, now: Date) -> [Effect] {
    switch command {
    case .moveUp: moveSelection(by: -1)
    case .moveDown: moveSelection(by: 1)
    case .pageUp: moveSelection(by: -listHeight)
    case .pageDown: moveSelection(by: listHeight)
    case .first: moveSelection(to: 0)
    case .last: moveSelection(to: visibleAccounts.count - 1)
    case .details:
      if let account = selectedAccount { panels.append(.details(account.name)) }
    case .add:
      return beginSignIn(now: now)
    case .refresh, .copy, .export, .signOut, .signInAgain, .makeDefault, .rename:
      guard let account = selectedAccount else {
        let addKey = keys.keys(for: .add, in: .list).first?.displayName ?? "a"
        message = StatusMessage(.info, "no account selected; press \(addKey) to add one", now: now)
        return []
      }
      return accountCommand(command, account, now: now)
    case .showDamaged:
      guard !damagedAccounts.isEmpty else {
        message = StatusMessage(.info, "every account in the vault reads", now: now)
        return []
      }
      panels.append(.damaged(DamagedState()))
    case .changePassphrase:
      panels.append(PassphraseForm().panel)
    case .filter:
      isEditingFilter = true
    case .confirm:
      isEditingFilter = false
    case .back:
      isEditingFilter = false
      if !filter.isEmpty {
        filter.clear()
        accountsChanged()
        keepSelectionVisible()
      }
    default:
      break
    }
    return []
  }

  mutating func performDetails(_ command: Command, now: Date) -> [Effect] {
    guard case .details(let name) = topPanel else { return [] }
    switch command {
    case .back:
      panels.removeLast()
    case .refresh, .copy, .export, .signOut, .signInAgain, .makeDefault, .rename:
      guard let account = account(name) else { return [] }
      return accountCommand(command, account, now: now)
    default:
      break
    }
    return []
  }

  /// Refresh, copy, export or sign out of `account`.
  mutating func accountCommand(_ command: Command, _ account: AccountSummary, now: Date)
    -> [Effect]
  {
    let name = account.name
    switch command {
    case .signInAgain:
      return signInAgain(account, now: now)
    case .rename:
      panels.append(RenameForm(account: name).panel)
    case .makeDefault:
      let doing = account.isDefault ? "removing the default mark of" : "making default"
      let id = startBusy("\(doing) \(name)", account: name, writesVault: true)
      return [.setDefault(id, name, isDefault: !account.isDefault)]
    case .refresh:
      if account.needsSignIn || !account.refreshable {
        let why =
          account.needsSignIn
          ? "\(name) needs a new sign-in" : "\(name) has no refresh token"
        message = StatusMessage(
          .warning, "\(why): sign in again with \(keyName(.signInAgain, in: .list))", now: now)
        return []
      }
      if busy.contains(where: { $0.account == name && $0.kind == .refresh }) {
        message = StatusMessage(.info, "\(name) is being refreshed already", now: now)
        return []
      }
      return [.refresh(startRefresh(name), name)]
    case .copy:
      if account.needsSignIn || !account.hasAccessToken {
        message = StatusMessage(
          .error,
          "\(name) has no token to copy: sign in again with \(keyName(.signInAgain, in: .list))",
          now: now)
        return []
      }
      if refusesBoundToken(account, refusing: "copying", now: now) { return [] }
      let id = startBusy("copying the token of \(name)", account: name, writesVault: true)
      return [.copyToken(id, name)]
    case .export:
      if account.needsSignIn || !account.hasAccessToken {
        message = StatusMessage(
          .error,
          "\(name) has no token to export: sign in again with \(keyName(.signInAgain, in: .list))",
          now: now)
        return []
      }
      if refusesBoundToken(account, refusing: "exporting", now: now) { return [] }
      let siblings = accounts.filter { $0.name.provider == name.provider }.count
      panels.append(
        ExportForm(
          account: name, configDirectory: configuration.configDirectory,
          onlyAccountOfProvider: siblings == 1
        ).panel)
    case .signOut:
      let provider = provider(name.provider)
      var dialog = SignOutState(
        account: name, providerName: provider?.name ?? account.providerName,
        canRevoke: provider.map { $0.canRevoke } ?? false,
        accessSettingsURL: provider?.accessSettingsURL,
        hasSignOutPage: provider.map { $0.hasSignOutPage } ?? false)
      // What the provider's file leaves to discovery is read before the question is answered.
      let learning = dialog.canRevoke == nil || dialog.hasSignOutPage == nil
      if learning { dialog.learning = newRequest() }
      panels.append(dialog.panel)
      if let id = dialog.learning { return [.learnSignOutFacts(id, name.provider)] }
    default:
      break
    }
    return []
  }

  /// True, with the command line's reason in the status line, when `account`'s token is
  /// DPoP-bound: copied or exported it is useless without proofs (`TokenHandOut`, as
  /// `authtui export` refuses it; the environment asks again with the vault's record).
  mutating func refusesBoundToken(_ account: AccountSummary, refusing: String, now: Date) -> Bool {
    do throws(AccountsError) {
      try TokenHandOut.check(
        account: account.name, isDPoPBound: account.isDPoPBound, refusing: refusing)
      return false
    } catch {
      message = StatusMessage(.error, error.message, now: now)
      return true
    }
  }

  /// The first key of `command` in `context`, as the status line names it.
  func keyName(_ command: Command, in context: KeyContext) -> String {
    keys.keys(for: command, in: context).first?.displayName ?? command.rawValue
  }

  mutating func moveSelection(by offset: Int) {
    let current = visibleAccounts.firstIndex { $0.name == selection } ?? 0
    moveSelection(to: current + offset)
  }

  mutating func moveSelection(to index: Int) {
    guard !visibleAccounts.isEmpty else { return }
    selection = visibleAccounts[min(max(0, index), visibleAccounts.count - 1)].name
    keepSelectionVisible()
  }

  /// Scrolls the list so the selected account (and its group heading) shows.
  mutating func keepSelectionVisible() {
    guard let index = visibleAccounts.firstIndex(where: { $0.name == selection }) else {
      scrollTop = 0
      return
    }
    // The line of account `index`: one heading per provider up to and including its own.
    var groups = 0
    var previous: ProviderID?
    for account in visibleAccounts[...index] where account.name.provider != previous {
      groups += 1
      previous = account.name.provider
    }
    let line = index + groups
    let lineCount = visibleAccounts.count + Set(visibleAccounts.map(\.name.provider)).count
    scrollTop = ListLayout.scrollTop(
      keeping: line, visibleIn: listHeight, from: scrollTop, lineCount: lineCount)
  }

  /// Replaces (or adds) an account, keeping the list sorted; the summary is the account as the
  /// environment read it, default mark included.
  mutating func upsert(_ account: AccountSummary) {
    var updated = accounts.filter { $0.name != account.name }
    updated.append(account)
    accounts = Self.sorted(updated)
  }

  /// The list order: `AccountName`'s, as `authtui list` prints them (by provider id, then
  /// label, both in natural order); each provider's accounts are together.
  public static func sorted(_ accounts: [AccountSummary]) -> [AccountSummary] {
    accounts.sortedByName()
  }
}
