import Accounts
import AuthCore
import Foundation
import Terminal
import Vault

/// Everything the UI shows, in one value. Only `Reducer.reduce` changes it; views read it.
///
/// Holds no token: accounts are `AccountSummary` facts, and the passphrase lives only in the
/// unlock form's secret field until it is handed to the vault.
public struct AppState: Sendable {
  /// Where the UI stands before the account list.
  public enum Phase: Sendable, Equatable {
    /// Asking the environment how the vault stands.
    case starting
    /// The passphrase prompt.
    case locked(UnlockForm)
    /// The vault cannot be used; the message says why and what to do.
    case unusable(String)
    /// The account list and everything over it.
    case ready

    /// True at the passphrase prompt, whose field takes every character typed.
    var isLocked: Bool {
      if case .locked = self { return true }
      return false
    }
  }

  /// Fixed facts of this run.
  public let configuration: AppConfiguration
  /// The keys in use.
  public let keys: KeyBindings
  /// Where the UI stands.
  public var phase: Phase = .starting
  /// Every account, sorted by provider name then label.
  public var accounts: [AccountSummary] = [] {
    didSet { accountsChanged() }
  }
  /// Accounts the vault holds but cannot read (the list does not draw them yet).
  public var damagedAccounts: [DamagedAccount] = []
  /// Every provider of the catalog, usable or not.
  public var providers: [ProviderSummary] = []
  /// True once the first account list arrived (before that the list says "loading").
  public var accountsLoaded = false
  /// The selected account.
  public var selection: AccountName?
  /// The first line of the list on screen.
  public var scrollTop = 0
  /// The filter text; empty means no filter.
  public var filter = TextField()
  /// True while the filter is being typed.
  public var isEditingFilter = false
  /// Screens over the list, bottom first.
  public var panels: [Panel] = []
  /// Problems found at start (key bindings, provider files, themes), `FILE:LINE: message`.
  public var notices: [String]
  /// The status line's message.
  public var message: StatusMessage?
  /// Background news that came while a graver message showed, oldest first: each shows, until
  /// a key, once the status line is free again.
  var heldNews: [StatusMessage] = []
  /// Work in progress.
  public var busy: [BusyTask] = []
  /// Background refreshes by account: running, or waiting to try again after a failure.
  public var refreshesAhead: [AccountName: RefreshAhead] = [:]
  /// The looks at the vault: the list follows what other processes write.
  var vaultWatch = RepeatedLook(every: AppState.vaultWatchInterval)
  /// The looks at the provider files: the provider list follows what other processes and
  /// editors write.
  var providerWatch = RepeatedLook(every: AppState.providerWatchInterval)
  /// The agent's held token request shown over every screen, if any.
  public var confirmation: ConfirmationState?
  /// The looks at the agent's held requests.
  var questionWatch = RepeatedLook(every: AppState.questionWatchInterval)
  /// The questions answered here: a look that started before the answer still lists them.
  var answeredQuestions: Set<Int> = []
  /// The terminal's size, as the loop last reported it.
  public var size = Size(rows: 24, columns: 80)
  /// True after the quit key was pressed while a sign-in was under way: the status line asks,
  /// and the quit key pressed again next quits.
  var quitAsked = false
  /// Set when the user asked to quit; the loop ends once `shouldExit` is true.
  public var quitRequestedAt: Date?
  /// True when the loop should end.
  public var shouldExit = false
  /// The next request number.
  var nextRequest = 1
  /// Accounts of the current filter, in list order (kept in step with `accounts` and `filter`).
  public private(set) var visibleAccounts: [AccountSummary] = []

  /// The state at start.
  public init(
    configuration: AppConfiguration, keys: KeyBindings = .defaults, notices: [String] = []
  ) {
    self.configuration = configuration
    self.keys = keys
    self.notices = keys.problems + notices
    if !self.notices.isEmpty { panels = [.notices(scroll: 0)] }
  }

  /// The panel on top, if any.
  public var topPanel: Panel? { panels.last }

  /// Where keys are looked up now.
  public var context: KeyContext {
    if confirmation != nil { return .confirmation }
    switch phase {
    case .starting, .locked, .unusable: return .unlock
    case .ready: break
    }
    switch topPanel {
    case nil: return isEditingFilter ? .filter : .list
    case .details: return .details
    case .dialog(let dialog): return dialog.current.context
    case .help: return .help
    case .notices: return .notices
    case .damaged: return .damaged
    case .signIn(let signIn):
      if signIn.labelField != nil { return .labelField }
      switch signIn.step {
      case .chooseProvider: return .providerChoice
      case .chooseMethod: return .flowChoice
      case .attempt(let attempt): return attempt.paste == nil ? .signIn : .pasteRedirect
      }
    }
  }

  /// The account called `name`.
  public func account(_ name: AccountName) -> AccountSummary? {
    accounts.first { $0.name == name }
  }

  /// The provider with `id`.
  public func provider(_ id: ProviderID) -> ProviderSummary? {
    providers.first { $0.id == id }
  }

  /// The selected account, if it is visible.
  public var selectedAccount: AccountSummary? {
    guard let selection else { return nil }
    return visibleAccounts.first { $0.name == selection }
  }

  /// True while `account` has work in progress (its row shows a spinner).
  public func isBusy(_ account: AccountName) -> Bool {
    busy.contains { $0.account == account }
  }

  /// A fresh request id.
  mutating func newRequest() -> RequestID {
    defer { nextRequest += 1 }
    return RequestID(nextRequest)
  }

  /// Recomputes the visible accounts after the accounts or the filter changed, and keeps a
  /// visible selection.
  mutating func accountsChanged() {
    let needle = filter.text.lowercased()
    visibleAccounts =
      needle.isEmpty
      ? accounts : accounts.filter { Self.matchRange(of: needle, in: $0) != nil }
    if let selection, visibleAccounts.contains(where: { $0.name == selection }) { return }
    selection = visibleAccounts.first?.name
  }

  /// Where the filter matches an account: in its label (for highlighting) or its provider.
  static func matchRange(of needle: String, in account: AccountSummary) -> Range<String.Index>? {
    if let range = account.name.label.range(of: needle, options: .caseInsensitive) {
      return range
    }
    let provider = account.name.provider.rawValue + " " + account.providerName
    if provider.range(of: needle, options: .caseInsensitive) != nil {
      return account.name.label.startIndex..<account.name.label.startIndex
    }
    return nil
  }
}
