import Foundation
import TestSupport
import Testing

/// Changing the vault's passphrase from the UI, in tmux against `authtui-sandbox`: the current
/// one is checked first, and afterwards only the new one opens the vault.
@Suite struct PassphraseUITests {
  /// `authtui list` on the fixture's vault with `passphrase`.
  static func list(with passphrase: String, in fixture: UIFixture) async throws
    -> ChildProcess.Result
  {
    var changes = fixture.environment()
    changes["AUTHTUI_PASSPHRASE"] = passphrase
    changes["AUTHTUI_NO_AGENT"] = "1"
    return try await ChildProcess.run(
      Products.authtui, ["list"], environment: ChildProcess.environment(changes), timeout: 120)
  }

  @Test func aWrongCurrentPassphraseChangesNothingAndTheRightOneGivesTheVaultTheNew()
    async throws
  {
    let fixture = try await UIFixture.start()
    try await LiveUITests.authtui(["login", "sandbox", "--label", "alice"], in: fixture)
    let replacement = "a new passphrase"
    try await fixture.runUnlocked(waitingForTheList: false) { tmux in
      try await tmux.waitFor("› alice")
      try await tmux.sendKeys("P")
      try await tmux.waitFor("Change the vault's passphrase")
      for text in ["not the passphrase", replacement, replacement] {
        try await tmux.type(text)
        try await tmux.sendKeys("Enter")
      }
      let refused = try await tmux.waitFor("not the vault's current passphrase")
      // Nothing typed shows.
      #expect(!refused.contains { $0.contains(replacement) || $0.contains("not the passphrase") })
      try await tmux.type(UIFixture.passphrase)
      let changed = try await tmux.press(
        "Enter", "Enter", "Enter", thenWaitFor: "changed the vault's passphrase")
      #expect(!changed.contains { $0.contains("Change the vault's passphrase") })
      // The UI was unlocked by AUTHTUI_PASSPHRASE, which now holds the old passphrase.
      #expect(changed.contains { $0.contains("update AUTHTUI_PASSPHRASE where you set it") })
      try await tmux.quit()
    }
    let old = try await Self.list(with: UIFixture.passphrase, in: fixture)
    #expect(old.status == 3, "\(old.stdout)\(old.stderr)")
    let new = try await Self.list(with: replacement, in: fixture)
    #expect(new.status == 0, "\(new.stderr)")
    #expect(new.stdout.contains("sandbox/alice"))
    await fixture.stop()
  }
}
