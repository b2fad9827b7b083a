import Foundation
import TestSupport
import Testing

/// Names people recognise, in tmux against `authtui-sandbox`: a sign-in that the provider
/// names only by an opaque `sub` asks for a label, and an account is renamed from the UI and,
/// while the UI is open, from the command line.
@Suite struct RenameUITests {
  @Test func aSignInNamedOnlyByItsSubjectAsksForALabelBeforeTheListShowsIt() async throws {
    let fixture = try await UIFixture.start()
    await fixture.workspace.hook("settings", #"{"profile": "oidc", "subject_only_claims": true}"#)
    try await fixture.runUnlocked { tmux in
      try await tmux.signIn(provider: "Sandbox OpenID provider")
      let prompt = try await tmux.waitFor("Sandbox OpenID provider names you only by an opaque")
      // The account is stored already, under the number, but the list is not in sight.
      #expect(!prompt.contains { $0.contains("ACCOUNT") })
      let field = try #require(prompt.first { $0.hasPrefix("  Label  ") })
      let number = field.dropFirst("  Label  ".count).trimmingCharacters(in: .whitespaces)
      #expect(!number.isEmpty && number.allSatisfy(\.isNumber), "\(field)")
      try await tmux.sendKeys("C-u")
      try await tmux.type("work")
      let listed = try await tmux.press("Enter", thenWaitFor: "signed in: sandbox/work")
      #expect(listed.contains { $0.hasPrefix(" › work") && $0.contains("● valid") })
      #expect(!listed.contains { $0.contains(number) })
      try await tmux.quit()
    }
    #expect(try await fixture.accountCount() == 1)
    #expect(try await fixture.accessToken(provider: "sandbox", label: "work") != nil)
    await fixture.stop()
  }

  @Test func anAccountIsRenamedFromTheUIAndFromTheCommandLineWhileTheUIIsOpen() async throws {
    let fixture = try await UIFixture.start()
    try await LiveUITests.authtui(["login", "sandbox", "--label", "alice"], in: fixture)
    try await fixture.runUnlocked(waitingForTheList: false) { tmux in
      try await tmux.waitFor("› alice")
      try await tmux.sendKeys("l")
      try await tmux.waitFor("Rename sandbox/alice")
      // The rule every label follows, said in the dialog.
      try await tmux.type("/home")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("✗ the label \"alice/home\" holds /")
      try await tmux.sendKeys("C-u")
      try await tmux.type("work")
      let renamed = try await tmux.press(
        "Enter", thenWaitFor: "renamed sandbox/alice to sandbox/work")
      #expect(renamed.contains { $0.hasPrefix(" › work") })
      #expect(try await fixture.accessToken(provider: "sandbox", label: "work") != nil)

      // Another process renames it while the UI is open: the list follows.
      try await LiveUITests.authtui(["rename", "sandbox/work", "home"], in: fixture)
      try await tmux.waitUntil("the account listed as home") { screen in
        screen.contains { $0.hasPrefix(" › home") }
          && !screen.contains { $0.hasPrefix(" › work") || $0.hasPrefix("   work") }
      }
      try await tmux.quit()
    }
    #expect(try await fixture.accountCount() == 1)
    #expect(try await fixture.accessToken(provider: "sandbox", label: "home") != nil)
    await fixture.stop()
  }
}
