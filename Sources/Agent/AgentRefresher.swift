import Accounts
import AuthCore
import Foundation
import Vault

/// The agent's background work: each refreshable account of the vault refreshed ahead of its
/// expiry, on the UI's schedule (`RefreshSchedule`), so that a `token` the agent answers is
/// already fresh and never waits on the network while the provider is reachable.
///
/// It keeps one plan per account (when its next refresh is due, and how many background
/// refreshes failed in a row), reads the accounts that changed when another process writes the
/// vault (`externalChangeStamp`: a `login`, a `logout`, a refresh by a `token` run without the
/// agent; `AccountBook.listing(updating:)` reads only the rows written since), and refreshes through `AccountBook.refreshAhead`, which reads the account afresh and takes
/// the vault's lease: however many agents and UIs keep the vault fresh, one refresh is made per
/// expiry. Every refresh is counted by the service (`beginBackgroundRefresh`), so that `drain`
/// waits for it and none starts once the agent is stopping.
package actor AgentRefresher {
  /// How often the vault is asked whether another process wrote: a `login` is seen within this.
  static let vaultWatchInterval: TimeInterval = 1
  /// The least time between two background refreshes of one account: a provider whose tokens
  /// last a few seconds (or none: `expires_in` 0) must not keep the agent refreshing in a loop.
  static let minimumSpacing: TimeInterval = 5

  /// When an account is next refreshed, and why.
  struct Plan: Sendable, Equatable {
    /// The account's name, for the log.
    var account: AccountName
    /// When the next background refresh is due.
    var due: Date
    /// Background refreshes that failed in a row (other than a refused refresh token).
    var failures = 0
    /// When the tokens the plan was made for were obtained: a change means new tokens.
    var obtainedAt: Date
  }

  private let clock: any WallClock
  private var plans: [AccountID: Plan] = [:]
  private var refreshing: Set<AccountID> = []
  private var seenStamp: Int64?
  /// The accounts as last read: the next look reads only the rows written since.
  private var listing: AccountListing?
  /// Rows read and decrypted by the looks at the vault so far (the tests' window on it).
  package private(set) var rowsRead = 0

  /// A refresher on `clock`'s time.
  package init(clock: any WallClock = SystemClock()) {
    self.clock = clock
  }

  /// When each account the agent keeps fresh is next refreshed (a failed one: its retry). An
  /// account that cannot be refreshed (no refresh token, sign-in needed, a token that does not
  /// expire) has none.
  package func nextRefreshes() -> [AccountID: Date] {
    plans.mapValues(\.due)
  }

  /// Keeps `service`'s accounts fresh until the task is cancelled; `report` hears one line per
  /// failed background refresh (no secret in it), and `afterFirstLook` is called once the
  /// first look at the vault is over (the agent's start-up ends there). Refreshes in flight
  /// when it ends are not cut: the service's `drain` waits for them.
  package func run(
    for service: AgentService, afterFirstLook: @Sendable () -> Void = {},
    report: @escaping @Sendable (String) -> Void
  ) async {
    var looked = false
    while !Task.isCancelled {
      await lookAtVault(of: service)
      if !looked {
        looked = true
        afterFirstLook()
      }
      let now = await clock.now()
      for (id, plan) in plans where plan.due <= now && !refreshing.contains(id) {
        guard let book = await service.beginBackgroundRefresh() else { return }
        refreshing.insert(id)
        // Not a child task: stopping the loop must not cancel a refresh that reached the
        // provider (its rotated refresh token would be lost).
        Task {
          let outcome: Result<AccountRecord, AccountsError>
          do throws(AccountsError) {
            outcome = .success(try await book.refreshAhead(id, startedAt: now))
          } catch {
            outcome = .failure(error)
          }
          await self.finished(id, plan.account, outcome, report: report)
          await service.endBackgroundRefresh()
        }
      }
      // A refresh that ends is planned again by the next turn, at most a watch interval on.
      let next = plans.values.map(\.due).filter { $0 > now }.min() ?? .distantFuture
      try? await clock.sleep(until: min(next, now.addingTimeInterval(Self.vaultWatchInterval)))
    }
  }

  /// Reads the accounts when another process wrote the vault since the last look (all of them
  /// the first time, then those written since), and plans each one it read.
  private func lookAtVault(of service: AgentService) async {
    let vault = service.vault
    guard let stamp = try? await vault.externalChangeStamp(), stamp != seenStamp else { return }
    let book = await service.book
    let changed: [AccountRecord]
    if let listing {
      guard let update = try? await book.listing(updating: listing) else { return }
      self.listing = update.listing
      changed = update.changed
      rowsRead += update.rowsRead
      for id in update.removed { plans[id] = nil }
    } else {
      guard let listing = try? await book.listing() else { return }
      self.listing = listing
      changed = listing.accounts
      rowsRead += listing.accounts.count + listing.damaged.count
      plans = [:]
    }
    seenStamp = stamp
    let now = await clock.now()
    for record in changed {
      // Every account of a listing has a name (`AccountBook.listing()`).
      guard let due = Self.scheduled(record), let name = try? record.accountName else {
        plans[record.id] = nil
        continue
      }
      if let known = plans[record.id], known.obtainedAt == record.tokens.obtainedAt {
        // The same tokens: a failure's back-off stands.
        continue
      }
      plans[record.id] = Plan(
        account: name, due: max(due, now), obtainedAt: record.tokens.obtainedAt)
    }
  }

  /// Forgets what the last look read of account `id`, so that the next one reads it again and
  /// plans it afresh, as it plans an account it has not seen.
  private func forget(_ id: AccountID) {
    guard let listing, listing.accounts.contains(where: { $0.id == id }) else { return }
    self.listing = AccountListing(
      accounts: listing.accounts.filter { $0.id != id }, damaged: listing.damaged,
      defaults: listing.defaults)
  }

  /// When `record`'s tokens are due for a background refresh; nil when they never are (no
  /// refresh token, a sign-in needed, a token that does not expire).
  static func scheduled(_ record: AccountRecord) -> Date? {
    guard !record.needsSignIn, record.tokens.refreshToken != nil else { return nil }
    return RefreshSchedule.refreshAt(
      obtainedAt: record.tokens.obtainedAt, expiresAt: record.tokens.expiresAt)
  }

  /// What one background refresh of `account` came to: the account as it stands is planned
  /// again; a failure backs off as the schedule says; a refused refresh token (the account now
  /// needs a new sign-in) or a vanished account ends its plan.
  private func finished(
    _ id: AccountID, _ account: AccountName, _ outcome: Result<AccountRecord, AccountsError>,
    report: @Sendable (String) -> Void
  ) async {
    refreshing.remove(id)
    let now = await clock.now()
    switch outcome {
    case .success(let record):
      guard let due = Self.scheduled(record) else {
        plans[id] = nil
        return
      }
      plans[id] = Plan(
        account: account, due: max(due, now.addingTimeInterval(Self.minimumSpacing)),
        obtainedAt: record.tokens.obtainedAt)
    case .failure(.vault(.accountNotFound)), .failure(.auth(.cancelled)):
      // Signed out meanwhile, or the process is on its way out: nothing to plan.
      plans[id] = nil
      forget(id)
    case .failure(let failure) where failure.requiresSignIn:
      plans[id] = nil
      forget(id)
      report("authtui agent: \(failure.message)")
    case .failure(let failure):
      guard var plan = plans[id] else { return }
      plan.failures += 1
      let delay = RefreshSchedule.retryDelay(afterFailures: plan.failures)
      plan.due = now.addingTimeInterval(delay)
      plans[id] = plan
      report(
        "authtui agent: could not refresh \(account) ahead of its expiry (next attempt in "
          + "\(Int(delay)) s): \(failure.message)")
    }
  }
}
