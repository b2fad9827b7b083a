import Accounts
import App
import AuthCore
import Foundation
import Terminal
import Testing

/// The background work of a running UI, with the fake clock: refreshes ahead of expiry on the
/// schedule, backoff after a failure, the notice of an account that cannot be refreshed, and
/// the list following what other processes write to the vault.
@Suite struct UpkeepReducerTests {
  /// A refreshable account whose token was obtained now and lasts `lifetime` seconds.
  static func fresh(_ label: String, lifetime: TimeInterval) -> AccountSummary {
    AccountSummary(
      name: Fixtures.name("work", label), providerName: "Work SSO",
      expiresAt: Fixtures.now.addingTimeInterval(lifetime), obtainedAt: Fixtures.now,
      refreshable: true)
  }

  /// A driver over `accounts` whose background work the test answers itself.
  static func driver(_ accounts: [AccountSummary]) -> Driver {
    var driver = Driver(accounts: accounts)
    driver.answersUpkeep = false
    return driver
  }

  /// The background refreshes among `effects`, by account.
  static func refreshes(in effects: [Effect]) -> [AccountName] {
    effects.compactMap { effect in
      if case .refreshAhead(_, let name) = effect { return name }
      return nil
    }
  }

  @Test func aOneHourTokenIsRefreshedFiveMinutesAheadAndAFortySecondOneTenSecondsAhead() {
    let hour = Self.fresh("hour", lifetime: 3600)
    let short = Self.fresh("short", lifetime: 40)
    var driver = Self.driver([hour, short])
    #expect(Self.refreshes(in: driver.advance(29)).isEmpty)
    #expect(Self.refreshes(in: driver.advance(1)) == [short.name])
    #expect(driver.state.isBusy(short.name))
    #expect(Self.refreshes(in: driver.advance(3269)).isEmpty)
    #expect(Self.refreshes(in: driver.advance(1)) == [hour.name])
  }

  @Test func aRefreshIsQuietAndTheNextOneFollowsTheNewExpiry() throws {
    let short = Self.fresh("short", lifetime: 40)
    var driver = Self.driver([short])
    let effects = driver.advance(30)
    let refresh = try #require(effects.first { if case .refreshAhead = $0 { true } else { false } })
    var renewed = short
    renewed.obtainedAt = driver.now
    renewed.expiresAt = driver.now.addingTimeInterval(40)
    driver.send(.finished(refresh, .account(.success(renewed))))
    #expect(driver.state.busy.isEmpty)
    #expect(driver.state.message == nil)
    #expect(driver.state.account(short.name)?.expiresAt == renewed.expiresAt)
    #expect(driver.text.contains("in 40s"))
    // Nothing is asked again before the new token's own ten seconds.
    #expect(Self.refreshes(in: driver.advance(29)).isEmpty)
    #expect(Self.refreshes(in: driver.advance(1)) == [short.name])
  }

  @Test func aNetworkFailureKeepsTheTokensAndRetriesWithBackoff() throws {
    let short = Self.fresh("short", lifetime: 40)
    var driver = Self.driver([short])
    let offline = AccountsError.auth(.transport(.failed("could not connect to the server")))
    let refresh = try #require(
      driver.advance(30).first { if case .refreshAhead = $0 { true } else { false } })
    driver.send(.finished(refresh, .account(.failure(offline))))
    #expect(driver.state.account(short.name) == short)
    #expect(driver.text.contains("⚠ refresh failed, retrying in 30 s"))
    #expect(driver.state.message == nil)

    #expect(Self.refreshes(in: driver.advance(29)).isEmpty)
    #expect(driver.text.contains("retrying in 1 s"))
    let again = driver.advance(1)
    #expect(Self.refreshes(in: again) == [short.name])
    #expect(driver.text.contains("refresh failed, retrying now"))
    let retry = try #require(again.first { if case .refreshAhead = $0 { true } else { false } })
    driver.send(.finished(retry, .account(.failure(offline))))
    #expect(driver.text.contains("⚠ refresh failed, retrying in 60 s"))
    #expect(driver.state.refreshesAhead[short.name]?.problem == offline.message)
  }

  @Test func aRefusedRefreshMakesTheRowSignInNeededWithTheReason() throws {
    let short = Self.fresh("short", lifetime: 40)
    var driver = Self.driver([short])
    let effects = driver.advance(30)
    let refresh = try #require(effects.first { if case .refreshAhead = $0 { true } else { false } })
    let refused = AccountsError.signInNeeded("work/short", reason: .refreshRejected)
    driver.send(.finished(refresh, .account(.failure(refused))))
    #expect(driver.state.account(short.name)?.status(at: driver.now) == .signInNeeded)
    #expect(driver.text.contains("work/short: the provider refused work/short's refresh token"))
    // The UI names its own key, not the command line's `authtui login`.
    #expect(driver.text.contains("press s to sign in again"))
    #expect(!driver.text.contains("authtui login"))
    #expect(Self.refreshes(in: driver.advance(600)).isEmpty)
  }

  @Test func anAccountThatCannotBeRefreshedSaysWhenToSignInAgainOnceItIsNear() {
    let week = AccountSummary(
      name: Fixtures.name("hivesigner", "dave"), providerName: "Hivesigner",
      expiresAt: Fixtures.now.addingTimeInterval(7 * 86400), obtainedAt: Fixtures.now,
      refreshable: false)
    var driver = Self.driver([week])
    #expect(!driver.text.contains("sign in again before"))
    driver.advance(5 * 86400)
    #expect(!driver.text.contains("sign in again before"))
    #expect(Self.refreshes(in: driver.advance(6 * 3600)).isEmpty)
    #expect(driver.text.contains("sign in again before 2025-06-22 15:06"))
  }

  @Test func aRefreshTokenWithAKnownEndSaysWhenToSignInAgainThenThatItEnded() {
    // Google's "Testing" app: a 7-day refresh token, whatever the access token does.
    let google = AccountSummary(
      name: Fixtures.name("google", "me"), providerName: "Google", obtainedAt: Fixtures.now,
      refreshable: true,
      refreshValidity: DateInterval(start: Fixtures.now, duration: 7 * 86_400))
    var driver = Self.driver([google])
    // Its last quarter: from 42 hours before the end.
    driver.advance(5 * 86_400 + 6 * 3600 - 60)
    #expect(!driver.text.contains("sign in again"))
    driver.advance(120)
    #expect(driver.text.contains("sign in again before 2025-06-22 15:06"))
    driver.advance(2 * 86_400)
    #expect(driver.text.contains("⚠ refresh token ended: sign in again"))
  }

  @Test func theVaultIsWatchedTwiceASecondOneLookAtATime() throws {
    var driver = Self.driver(Fixtures.accounts)
    let first = driver.advance(0.1).filter { if case .watchVault = $0 { true } else { false } }
    #expect(first.count == 1)
    // While that look is out, no other starts.
    #expect(!driver.advance(1).contains { if case .watchVault = $0 { true } else { false } })
    let look = try #require(first.first)
    driver.send(.finished(look, .done(nil)))
    #expect(driver.advance(0.5).contains { if case .watchVault = $0 { true } else { false } })
  }

  @Test func anotherProcessesChangesShowAndTheSelectionStaysOnItsAccount() throws {
    var driver = Self.driver(Fixtures.accounts)
    driver.select("bob")
    let look = try #require(
      driver.advance(0.1).first { if case .watchVault = $0 { true } else { false } })
    let erin = AccountSummary(name: Fixtures.name("work", "erin"), providerName: "Work SSO")
    let changed = Fixtures.accounts.filter { $0.name != Fixtures.carol.name } + [erin]
    driver.send(.finished(look, .accounts(.success(AccountList(accounts: changed)))))
    #expect(driver.state.selection == Fixtures.bob.name)
    #expect(driver.state.account(erin.name) != nil)
    #expect(driver.state.account(Fixtures.carol.name) == nil)
    #expect(driver.text.contains("erin"))
    #expect(!driver.text.contains("carol"))
  }

  @Test func aSelectedAccountRemovedElsewhereHandsTheSelectionToItsNeighbour() throws {
    var driver = Self.driver(Fixtures.accounts)
    driver.select("bob")
    driver.press(.enter)
    #expect(driver.state.context == .details)
    let look = try #require(
      driver.advance(0.1).first { if case .watchVault = $0 { true } else { false } })
    let remaining = Fixtures.accounts.filter { $0.name != Fixtures.bob.name }
    driver.send(.finished(look, .accounts(.success(AccountList(accounts: remaining)))))
    #expect(driver.state.context == .list)
    #expect(driver.state.selection == Fixtures.carol.name)
    #expect(!driver.text.contains("bob"))
  }

  @Test func aPassphraseChangedElsewhereAsksToUnlockAgain() throws {
    var driver = Self.driver(Fixtures.accounts)
    let look = try #require(
      driver.advance(0.1).first { if case .watchVault = $0 { true } else { false } })
    let problem = "another authtui process changed the vault's passphrase; type the new one"
    driver.send(.finished(look, .vault(.locked(problem: problem))))
    guard case .locked(let form) = driver.state.phase else {
      Issue.record("the UI did not ask to unlock: \(driver.state.phase)")
      return
    }
    #expect(form.problem == problem)
    #expect(driver.text.contains("another authtui process changed the vault's passphrase"))
    // Locked: no background work until it is unlocked again.
    #expect(driver.advance(600).isEmpty)
  }

  @Test func aProblemInTheBackgroundReachesTheStatusLineAndTheNewsIsFollowedOn() throws {
    var driver = Self.driver(Fixtures.accounts)
    let problem =
      "could not leave an agent running (\"unlock_once\" in config.json): the socket folder is "
      + "a file"
    #expect(driver.send(.response(.news(.warning, problem))) == [.followNews])
    #expect(driver.state.message?.kind == .warning)
    #expect(driver.text.contains("could not leave an agent running"))
    // The list stays as it was, and the vault is watched on.
    #expect(driver.text.contains("bob"))
    #expect(driver.advance(0.5).contains { if case .watchVault = $0 { true } else { false } })
  }

  @Test func backgroundNewsNeverHidesAGraverMessageStillShowing() throws {
    var driver = Self.driver(Fixtures.accounts)
    driver.send(.response(.news(.warning, "the agent could not be left running")))
    driver.advance(0.5)
    driver.send(.response(.news(.info, "the provider did not send it back")))
    #expect(driver.state.message?.text == "the agent could not be left running")
    // News stays until a key, however long that takes; then lesser news shows.
    driver.advance(600)
    #expect(driver.state.message?.text == "the agent could not be left running")
    // The lesser news waited for it: the key that puts the graver one away shows it.
    driver.press(.character("j"))
    #expect(driver.state.message?.text == "the provider did not send it back")
    #expect(driver.state.message?.staysUntilKey == true)
    driver.press(.character("k"))
    #expect(driver.state.message == nil)
  }
}
