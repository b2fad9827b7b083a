import App
import Foundation
import Terminal
import Testing

/// The passphrase prompt: unlocking, creating a vault, and a supplied passphrase.
@Suite struct UnlockReducerTests {
  @Test func aPassphraseFromTheEnvironmentSkipsThePrompt() {
    var driver = Driver(unlocked: false)
    #expect(driver.text.contains("Opening the vault…"))
    let effects = driver.send(.finished(.start, .vault(.unlocked)))
    #expect(driver.state.phase == .ready)
    #expect(effects.count == 2)
  }

  @Test func aWrongPassphraseIsSaidInPlaceAndTheFieldEmptied() {
    var driver = Driver(unlocked: false)
    driver.send(.finished(.start, .vault(.locked(problem: nil))))
    #expect(driver.press(.enter).isEmpty)
    #expect(driver.text.contains("type the passphrase, then press Enter"))
    driver.type("hunter2")
    let effects = driver.press(.enter)
    guard case .unlock(let id, let secret) = effects.first else {
      Issue.record("Enter did not unlock: \(effects)")
      return
    }
    #expect(secret.revealed == "hunter2")
    #expect(!"\(effects)".contains("hunter2"))
    #expect(driver.text.contains("Unlocking…"))
    // Keys while unlocking type nothing and start nothing.
    #expect(driver.press(.enter).isEmpty)
    driver.finish(id, .unlocked(problem: "wrong passphrase; type it again"))
    #expect(driver.text.contains("wrong passphrase; type it again"))
    guard case .locked(let form) = driver.state.phase else { return }
    #expect(form.passphrase.isEmpty)
    #expect(!"\(driver.state.phase)".contains("hunter2"))
  }

  @Test func unlockingLoadsTheAccountsAndProviders() {
    var driver = Driver(unlocked: false)
    driver.send(
      .finished(.start, .vault(.locked(problem: "AUTHTUI_PASSPHRASE is wrong"))))
    #expect(driver.text.contains("AUTHTUI_PASSPHRASE is wrong"))
    driver.type("right")
    guard case .unlock(let id, _) = driver.press(.enter).first else { return }
    let loads = driver.finish(id, .unlocked(problem: nil))
    #expect(driver.state.phase == .ready)
    #expect(loads.count == 2)
    #expect(driver.text.contains("Reading the accounts…"))
  }

  @Test func aNewVaultNeedsThePassphraseTwice() {
    var driver = Driver(unlocked: false)
    driver.send(.finished(.start, .vault(.missing)))
    driver.type("one")
    #expect(driver.press(.enter).isEmpty)
    driver.type("two")
    #expect(driver.press(.enter).isEmpty)
    #expect(driver.text.contains("the two passphrases differ; type them again"))
    driver.type("same")
    driver.press(.tab)
    driver.type("same")
    guard case .createVault(_, let secret) = driver.press(.enter).first else {
      Issue.record("the vault was not created")
      return
    }
    #expect(secret == SecretText("same"))
  }

  @Test func escQuitsThePrompt() {
    var driver = Driver(unlocked: false)
    driver.send(.finished(.start, .vault(.locked(problem: nil))))
    driver.type("q")
    #expect(!driver.state.shouldExit)
    driver.press(.escape)
    #expect(driver.state.shouldExit)
  }

  /// While the vault opens (held by another process, it can take a while) no field takes
  /// text, so q quits as it does everywhere but in text fields; it was dropped.
  @Test func qQuitsWhileTheVaultOpensAndWhenItCannotBeUsed() {
    var opening = Driver(unlocked: false)
    #expect(opening.state.phase == .starting)
    opening.press(.character("q"))
    #expect(opening.state.shouldExit)
    var unusable = Driver(unlocked: false)
    unusable.send(.finished(.start, .vault(.unusable("the vault is damaged"))))
    unusable.press(.character("q"))
    #expect(unusable.state.shouldExit)
  }
}
