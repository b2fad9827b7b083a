import Accounts
import App
import Foundation
import Terminal
import Testing
import Vault

/// Accounts the vault cannot read: listed with their `#ID` and what failed, and removable
/// from the UI as `logout '#ID' --local-only` removes them.
@Suite struct DamagedReducerTests {
  static let frank = DamagedAccount(
    id: AccountID(7), damage: .cellRejected(column: "tokens"), providerID: "work",
    label: "frank")
  static let nameless = DamagedAccount(id: AccountID(9), damage: .nameIndexMismatch)

  /// A driver whose vault listing has `damaged` besides the fixtures' accounts.
  static func driver(
    _ damaged: [DamagedAccount], accounts: [AccountSummary] = Fixtures.accounts,
    size: Size = Size(rows: 24, columns: 80)
  ) -> Driver {
    var driver = Driver(accounts: accounts, size: size)
    driver.send(
      .finished(
        .loadAccounts(RequestID(99)),
        .accounts(.success(AccountList(accounts: accounts, damaged: damaged)))))
    return driver
  }

  @Test(arguments: ScreenSnapshotTests.sizes) func theListShowsThemWithTheirIDAndDamage(size: Size)
  {
    let driver = Self.driver([Self.frank, Self.nameless], size: size)
    #expect(driver.text.contains("#7 (work/frank)"))
    #expect(driver.text.contains("✗ its sealed tokens cell fai"))
    #expect(driver.frame.textLines().last?.contains("D damaged (2)") == true)
    Snapshot.check(driver.frame, ScreenSnapshotTests.name("list-damaged", size))
  }

  @Test func anEmptyListShowsThemToo() {
    let driver = Self.driver([Self.nameless], accounts: [])
    #expect(driver.text.contains("Damaged"))
    #expect(driver.text.contains("#9"))
  }

  @Test(arguments: ScreenSnapshotTests.sizes) func removingOneAsksFirstThenRemovesIt(size: Size)
    throws
  {
    var driver = Self.driver([Self.frank, Self.nameless], size: size)
    driver.press(.character("D"))
    #expect(driver.state.context == .damaged)
    #expect(driver.text.contains("2 damaged accounts"))
    #expect(driver.press(.character("d")).isEmpty)
    #expect(driver.text.contains("Remove #7 (work/frank) from this vault?"))
    Snapshot.check(driver.frame, ScreenSnapshotTests.name("damaged-confirm", size))
    // n keeps it; j moves to the next one.
    driver.press(.character("n"), .character("j"), .character("d"))
    #expect(driver.text.contains("Remove #9 from this vault?"))
    let effects = driver.press(.character("y"))
    #expect(effects.count == 1)
    let effect = try #require(effects.first)
    guard case .removeDamaged(_, Self.nameless) = effect else {
      Issue.record("y did not remove #9: \(effects)")
      return
    }
    driver.send(.finished(effect, .done(nil)))
    #expect(driver.state.damagedAccounts == [Self.frank])
    #expect(driver.text.contains("removed #9 from this vault"))
    // The last one closes the screen.
    driver.press(.character("d"), .character("y"))
    let last = try #require(driver.effects.last)
    driver.send(.finished(last, .done(nil)))
    #expect(driver.state.damagedAccounts.isEmpty)
    #expect(driver.state.context == .list)
    #expect(!driver.text.contains("Damaged"))
  }

  @Test func aFailedRemovalSaysWhyAndKeepsTheAccount() throws {
    var driver = Self.driver([Self.frank])
    driver.press(.character("D"), .character("d"))
    let effect = try #require(driver.press(.character("y")).first)
    let failure = AccountsError.vault(.locked(path: "/v.db"))
    driver.send(.finished(effect, .done(failure)))
    #expect(driver.state.damagedAccounts == [Self.frank])
    #expect(driver.text.contains("the vault /v.db is locked"))
  }

  @Test func withNoneTheKeySaysEveryAccountReads() {
    var driver = Driver()
    driver.press(.character("D"))
    #expect(driver.state.context == .list)
    #expect(driver.text.contains("every account in the vault reads"))
  }
}
