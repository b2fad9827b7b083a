import Accounts
import App
import AuthCore
import Foundation
import Testing

/// The default-account key: it asks the vault to move the mark, shows the mark the vault
/// reports, and keeps it through a refresh of one account.
@Suite struct DefaultAccountReducerTests {
  /// The fixtures with `label`'s account marked as its provider's default.
  static func accounts(markedDefault label: String) -> [AccountSummary] {
    Fixtures.accounts.map { account in
      var marked = account
      marked.isDefault = account.name.label == label
      return marked
    }
  }

  @Test func theKeyAsksToMakeTheSelectedAccountTheDefaultAndSaysWhatChanged() {
    var driver = Driver()
    driver.select("bob")
    let asked = driver.press(.character("*"))
    guard case .setDefault(let id, let name, let isDefault)? = asked.first else {
      Issue.record("expected a setDefault effect, got \(asked)")
      return
    }
    #expect(name.description == "work/bob")
    #expect(isDefault)
    #expect(driver.state.isBusy(name))
    driver.finish(
      id, .accounts(.success(AccountList(accounts: Self.accounts(markedDefault: "bob")))))
    #expect(driver.state.account(name)?.isDefault == true)
    #expect(!driver.state.isBusy(name))
    #expect(
      driver.state.message?.text
        == "work/bob is now work's default account: `authtui token work` gives its token")
    #expect(driver.text.contains("bob (default)"))
  }

  @Test func theKeyOnTheDefaultAccountRemovesTheMark() {
    var driver = Driver(accounts: Self.accounts(markedDefault: "bob"))
    driver.select("bob")
    let asked = driver.press(.character("*"))
    guard case .setDefault(let id, _, let isDefault)? = asked.first else {
      Issue.record("expected a setDefault effect, got \(asked)")
      return
    }
    #expect(!isDefault)
    driver.finish(id, .accounts(.success(AccountList(accounts: Fixtures.accounts))))
    #expect(driver.state.message?.text == "work has no default account now")
    #expect(!driver.text.contains("(default)"))
  }

  @Test func aFailureIsShownAndTheMarkStaysWhereItWas() {
    var driver = Driver(accounts: Self.accounts(markedDefault: "carol"))
    driver.select("bob")
    guard case .setDefault(let id, _, _)? = driver.press(.character("*")).first else {
      Issue.record("expected a setDefault effect")
      return
    }
    driver.finish(id, .accounts(.failure(.vault(.locked(path: "/v.db")))))
    #expect(driver.state.accounts.first { $0.name.label == "carol" }?.isDefault == true)
    #expect(driver.state.accounts.first { $0.name.label == "bob" }?.isDefault == false)
    #expect(driver.state.message?.kind == .error)
  }

  @Test func aRefreshOfTheDefaultAccountKeepsItsMark() {
    var driver = Driver(accounts: Self.accounts(markedDefault: "bob"))
    driver.select("bob")
    guard case .refresh(let id, let name)? = driver.press(.character("r")).first,
      var refreshed = driver.state.account(name)
    else {
      Issue.record("expected a refresh effect")
      return
    }
    // The refresh answers with the account as the vault has it, its mark included, and the
    // list takes it as it is.
    #expect(refreshed.isDefault)
    refreshed.expiresAt = driver.now.addingTimeInterval(3600)
    driver.finish(id, .account(.success(refreshed)))
    #expect(driver.state.account(name) == refreshed)
  }

  @Test func theDetailsSayWhichNameReachesTheDefault() {
    var driver = Driver(accounts: Self.accounts(markedDefault: "bob"))
    driver.select("bob")
    driver.press(.enter)
    #expect(driver.text.contains("work/bob (the default: `authtui token work` names it)"))
  }
}
