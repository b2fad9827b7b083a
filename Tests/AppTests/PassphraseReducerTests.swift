import Accounts
import App
import Foundation
import Terminal
import Testing

/// Changing the vault's passphrase from the list: the current one, then the new one twice.
@Suite struct PassphraseReducerTests {
  static func form(_ driver: Driver) -> PassphraseForm? {
    guard case .dialog(.passphrase(let form)) = driver.state.topPanel else { return nil }
    return form
  }

  /// The dialog with `current`, `new` and `repeated` typed, Enter after each.
  static func typed(_ current: String, _ new: String, _ repeated: String) -> (Driver, [Effect]) {
    var driver = Driver()
    driver.press(.character("P"))
    driver.type(current)
    driver.press(.enter)
    driver.type(new)
    driver.press(.enter)
    driver.type(repeated)
    let effects = driver.press(.enter)
    return (driver, effects)
  }

  @Test func thePassphraseKeyOpensTheDialogOnTheCurrentPassphrase() throws {
    var driver = Driver()
    #expect(driver.state.keys.keys(for: .changePassphrase, in: .list) == [.character("P")])
    #expect(driver.press(.character("P")).isEmpty)
    #expect(driver.state.context == .passphrase)
    let form = try #require(Self.form(driver))
    #expect(form.focus == .current)
    #expect(driver.text.contains("Change the vault's passphrase"))
    // What is typed shows as dots, never as itself.
    driver.type("hunter2")
    #expect(Self.form(driver)?.current.text == "hunter2")
    #expect(!driver.text.contains("hunter2"))
  }

  @Test func enterAndTabGoFromFieldToFieldAndAnEmptyOneIsSaidSo() throws {
    var driver = Driver()
    driver.press(.character("P"))
    #expect(driver.press(.enter).isEmpty)
    #expect(Self.form(driver)?.problem == "type the vault's current passphrase")
    driver.type("right")
    #expect(Self.form(driver)?.problem == nil)
    driver.press(.enter)
    #expect(Self.form(driver)?.focus == .new)
    driver.press(.enter)
    #expect(Self.form(driver)?.problem == "a passphrase cannot be empty")
    driver.press(.tab)
    #expect(Self.form(driver)?.focus == .repeated)
    driver.press(.tab)
    #expect(Self.form(driver)?.focus == .current)
    driver.press(.backtab)
    #expect(Self.form(driver)?.focus == .repeated)
  }

  @Test func newPassphrasesThatDifferAreTypedAgainWithoutAskingTheVault() throws {
    let (driver, effects) = Self.typed("right", "new one", "new 0ne")
    #expect(effects.isEmpty)
    let form = try #require(Self.form(driver))
    #expect(form.problem == "the two new passphrases differ; type them again")
    #expect(form.focus == .new)
    #expect(form.new.isEmpty && form.repeated.isEmpty)
    #expect(form.current.text == "right")
  }

  @Test func theChangeAsksTheVaultAndSaysWhatItDid() throws {
    var (driver, effects) = Self.typed("right", "new one", "new one")
    guard case .changePassphrase(let id, let current, let new)? = effects.first else {
      Issue.record("Enter did not ask for the change: \(effects)")
      return
    }
    #expect(current.revealed == "right")
    #expect(new.revealed == "new one")
    #expect(Self.form(driver)?.pending == id)
    #expect(driver.text.contains("Changing the passphrase…"))
    driver.finish(id, .passphraseChanged(.success(PassphraseChange(removedCachedKey: true))))
    #expect(driver.state.topPanel == nil)
    #expect(
      driver.state.message?.text
        == "changed the vault's passphrase; removed the stale unlock key cached in the keyring")
  }

  @Test func aPassphraseVariableLeftStaleIsNamed() throws {
    var (driver, effects) = Self.typed("right", "new one", "new one")
    let id = try #require(effects.first.flatMap(\.request))
    driver.finish(
      id,
      .passphraseChanged(
        .success(
          PassphraseChange(removedCachedKey: false, staleVariable: "AUTHTUI_PASSPHRASE_FILE")
        )))
    #expect(
      driver.state.message?.text
        == "changed the vault's passphrase; update AUTHTUI_PASSPHRASE_FILE where you set it")
  }

  @Test func aWrongCurrentPassphraseIsTypedAgainAndTheNewOnesKept() throws {
    var (driver, effects) = Self.typed("wrong", "new one", "new one")
    let id = try #require(effects.first.flatMap(\.request))
    driver.finish(id, .passphraseChanged(.failure(.wrongCurrent)))
    let form = try #require(Self.form(driver))
    #expect(form.pending == nil)
    #expect(form.problem == PassphraseChangeFailure.wrongCurrent.message)
    #expect(form.focus == .current)
    #expect(form.current.isEmpty)
    #expect(form.new.text == "new one")
    #expect(driver.text.contains("not the vault's current passphrase"))
  }

  @Test func escLeavesTheDialogAndAChangeInFlightStillSaysHowItEnded() throws {
    var (driver, effects) = Self.typed("right", "new one", "new one")
    let id = try #require(effects.first.flatMap(\.request))
    driver.press(.escape)
    #expect(driver.state.topPanel == nil)
    let busy = AccountsError.vault(.busy(path: "/v/vault.db"))
    driver.finish(id, .passphraseChanged(.failure(.vault(busy))))
    // Another process keeping the vault busy is named with what it stopped.
    #expect(driver.state.message?.text == "could not change the passphrase: \(busy.message)")
  }

  @Test func aWrongCurrentPassphraseAnsweredAfterEscSaysHowToTryAgain() throws {
    var (driver, effects) = Self.typed("wrong", "new one", "new one")
    let id = try #require(effects.first.flatMap(\.request))
    driver.press(.escape)
    driver.finish(id, .passphraseChanged(.failure(.wrongCurrent)))
    #expect(driver.state.topPanel == nil)
    #expect(
      driver.state.message?.text
        == "the passphrase was not changed: that was not the vault's current one; P tries again")
  }
}
