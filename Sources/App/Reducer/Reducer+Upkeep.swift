import Accounts
import Foundation

/// The background work that keeps the list true and its tokens fresh while the UI runs: a
/// look at the vault twice a second (other processes sign in, out and refresh), a look at the
/// provider files twice a second too (other processes and editors add, change and remove them), and
/// each refreshable account's refresh ahead of its expiry.
extension AppState {
  /// How often the vault is looked at: a change by another process shows within a second.
  static let vaultWatchInterval: TimeInterval = 0.5
  /// How often the provider files are looked at (a listing and a `stat` per file): a file
  /// saved by any process or editor shows in the provider list well within two seconds, the
  /// look and the catalog read again included, on a busy machine too.
  static let providerWatchInterval: TimeInterval = 0.5
  /// How often the agent is asked for the token requests it holds for a person: well within
  /// the time it counts a UI that asked as open (`ConfirmationDesk.openUIGrace`, 10 s).
  static let questionWatchInterval: TimeInterval = 1

  /// The background work due at `now`.
  mutating func upkeep(now: Date) -> [Effect] {
    guard phase == .ready, accountsLoaded else { return [] }
    var effects: [Effect] = []
    if let id = start(\.vaultWatch, now: now) { effects.append(.watchVault(id)) }
    if let id = start(\.providerWatch, now: now) { effects.append(.watchProviders(id)) }
    for account in accounts {
      guard let due = refreshDue(account), due <= now, !isBusy(account.name) else { continue }
      let id = startRefresh(account.name)
      refreshesAhead[account.name, default: RefreshAhead()].running = id
      effects.append(.refreshAhead(id, account.name))
    }
    return effects
  }

  /// The look at the agent's held token requests, when one is due: on the unlock screen too
  /// (the agent holds the vault's key whatever this UI's state), not before the vault was
  /// looked at, nor when it cannot be used.
  mutating func lookForQuestions(now: Date) -> [Effect] {
    switch phase {
    case .ready, .locked: break
    case .starting, .unusable: return []
    }
    guard let id = start(\.questionWatch, now: now) else { return [] }
    return [.watchQuestions(id)]
  }

  /// Starts the look `look` when one is due at `now`: its request, nil when none is due.
  private mutating func start(_ look: WritableKeyPath<AppState, RepeatedLook>, now: Date)
    -> RequestID?
  {
    guard self[keyPath: look].isDue(at: now) else { return nil }
    let id = newRequest()
    self[keyPath: look].running = id
    self[keyPath: look].startedAt = now
    return id
  }

  /// When `account` is next refreshed in the background: after a failure, its retry time;
  /// otherwise the schedule's (nil when it cannot be refreshed, or its token does not expire).
  func refreshDue(_ account: AccountSummary) -> Date? {
    guard account.refreshable, !account.needsSignIn, let expiresAt = account.expiresAt else {
      return nil
    }
    if let retryAt = refreshesAhead[account.name]?.retryAt { return retryAt }
    // A token of unknown lifetime counts as a long one: five minutes ahead.
    return RefreshSchedule.refreshAt(
      obtainedAt: account.obtainedAt ?? .distantPast, expiresAt: expiresAt)
  }

  /// What the look at the vault found.
  mutating func vaultWatched(_ change: VaultChange) {
    vaultWatch.running = nil
    switch change {
    case .unchanged, .accounts(.failure):
      break
    case .accounts(.success(let list)):
      follow(list)
    case .passphraseChanged(let problem):
      // Another process changed the passphrase: the keys in hand are the old one's.
      phase = .locked(UnlockForm(creating: false, problem: problem))
      accountsLoaded = false
    }
  }

  /// Background news for the status line; never over a graver message still showing (a
  /// failed refresh under a late "the provider did not send the browser back"): it waits
  /// until that message is gone (`showHeldNews`).
  mutating func heard(_ kind: StatusMessage.Kind, _ text: String, now: Date) {
    let news = StatusMessage.untilKey(kind, text, now: now)
    if let shown = message, shown.expiresAt > now, shown.kind.severity > kind.severity {
      if shown.text != text, !heldNews.contains(where: { $0.text == text }) {
        heldNews.append(news)
      }
      return
    }
    message = news
  }

  /// Shows the oldest news held back, once the status line has nothing to say.
  mutating func showHeldNews() {
    guard message == nil, !heldNews.isEmpty else { return }
    message = heldNews.removeFirst()
  }

  /// The providers in the order the provider choice shows them: by the name shown, whatever
  /// its case, then by id (the catalog's own order is by id).
  static func inChoiceOrder(_ list: [ProviderSummary]) -> [ProviderSummary] {
    list.sorted { first, second in
      let order = first.name.localizedLowercase.compare(second.name.localizedLowercase)
      return order == .orderedSame
        ? first.id.rawValue < second.id.rawValue : order == .orderedAscending
    }
  }

  /// Takes `list` as the catalog, keeping the provider choice on the provider it was on (or
  /// on the row where it was, when that provider is gone).
  mutating func useProviders(_ list: [ProviderSummary]) {
    let list = Self.inChoiceOrder(list)
    for index in panels.indices {
      guard case .signIn(var signIn) = panels[index],
        case .chooseProvider(let selected) = signIn.step
      else { continue }
      let chosen = providers.indices.contains(selected) ? providers[selected].id : nil
      let kept =
        chosen.flatMap { id in list.firstIndex { $0.id == id } }
        ?? (selected >= providers.count ? list.count : min(selected, list.count))
      signIn.step = .chooseProvider(selected: kept)
      panels[index] = .signIn(signIn)
    }
    providers = list
  }

  /// Shows `list` as the vault now holds it, keeping the selection on the same account (or
  /// on its neighbour when it is gone) and closing the details of an account that is gone.
  mutating func follow(_ list: AccountList) {
    let position = visibleAccounts.firstIndex { $0.name == selection }
    let selected = selection
    accounts = Self.sorted(list.accounts)
    damagedAccounts = list.damaged
    accountsLoaded = true
    if let selected, account(selected) == nil {
      selection =
        visibleAccounts.isEmpty
        ? nil : visibleAccounts[min(position ?? 0, visibleAccounts.count - 1)].name
      closeDetails(of: selected)
    }
    refreshesAhead = refreshesAhead.filter { name, ahead in
      ahead.running != nil || account(name) != nil
    }
    keepSelectionVisible()
  }

  /// What a background refresh came to. Success is quiet (the row's expiry moves on); a
  /// refused refresh token makes the row "sign-in needed" and says why; any other failure
  /// keeps the stored tokens and tries again later, longer each time.
  mutating func refreshedAhead(
    _ name: AccountName, _ result: Result<AccountSummary, AccountsError>, now: Date
  ) {
    var ahead = refreshesAhead[name] ?? RefreshAhead()
    ahead.running = nil
    switch result {
    case .success(let account):
      refreshesAhead[name] = nil
      upsert(account)
    case .failure(let failure) where failure.requiresSignIn:
      refreshesAhead[name] = nil
      markSignInNeeded(name)
      let text = failure.listMessage(signInAgainKey: keyName(.signInAgain, in: .list))
      message = StatusMessage(.error, "\(name): \(text)", now: now)
    case .failure(let failure):
      ahead.failures += 1
      ahead.retryAt = now.addingTimeInterval(
        RefreshSchedule.retryDelay(afterFailures: ahead.failures))
      ahead.problem = failure.message
      refreshesAhead[name] = ahead
    }
  }

  /// The row's account has no usable tokens until a new sign-in.
  mutating func markSignInNeeded(_ name: AccountName) {
    guard var account = account(name) else { return }
    account.needsSignIn = true
    account.hasAccessToken = false
    account.refreshable = false
    upsert(account)
  }
}
