import Foundation
import TestSupport
import Testing

/// The UI as a live view of the shared vault, in tmux against `authtui-sandbox`: what other
/// processes do shows with no key pressed, and tokens are refreshed before they expire, once
/// per expiry however many processes watch them.
@Suite struct LiveUITests {
  /// Runs `authtui ARGUMENTS` as another process on the fixture's vault; fails the test when
  /// it does not exit 0.
  static func authtui(_ arguments: [String], in fixture: UIFixture) async throws {
    var changes = fixture.environment()
    changes["AUTHTUI_PASSPHRASE"] = UIFixture.passphrase
    changes["AUTHTUI_NO_AGENT"] = "1"
    let result = try await ChildProcess.run(
      Products.authtui, arguments, environment: ChildProcess.environment(changes), timeout: 120)
    #expect(result.status == 0, "authtui \(arguments.joined(separator: " ")): \(result.stderr)")
  }

  @Test func signInsSignOutsAndRefreshesByOtherProcessesShowWithNoKeyPressed() async throws {
    let fixture = try await UIFixture.start()
    try await fixture.runUnlocked { tmux in
      try await Self.authtui(["login", "sandbox", "--label", "work"], in: fixture)
      let listed = try await tmux.waitFor("› work")
      #expect(listed.contains { $0.contains("Sandbox OpenID provider") })
      #expect(listed.contains { $0.contains("● valid") })

      try await Self.authtui(["login", "sandbox", "--label", "home"], in: fixture)
      try await tmux.waitFor("home")
      // The selection stays on the account it was on.
      #expect(try await tmux.capture().contains { $0.hasPrefix(" › work") })

      // A refresh by another process: the token changes under the UI, and the list follows.
      let before = try await fixture.accessToken(provider: "sandbox", label: "work")
      await fixture.workspace.hook(
        "settings", #"{"profile": "oidc", "access_token_lifetime": 7200}"#)
      try await Self.authtui(
        ["token", "sandbox/work", "--min-valid", "4000"], in: fixture)
      #expect(try await fixture.accessToken(provider: "sandbox", label: "work") != before)
      try await tmux.waitUntil("the refreshed expiry of sandbox/work") { screen in
        screen.contains { $0.hasPrefix(" › work") && $0.contains("in 1h 59m") }
      }

      // A second UI's refresh (`r` there) shows in the first.
      await fixture.workspace.hook(
        "settings", #"{"profile": "oidc", "access_token_lifetime": 5400}"#)
      try await fixture.runUnlocked(waitingForTheList: false) { second in
        try await second.waitFor("› home")
        try await second.sendKeys("j")
        try await second.waitFor("› work")
        try await second.press("r", thenWaitFor: "refreshed sandbox/work")
        try await second.quit()
      }
      try await tmux.waitUntil("the second UI's refresh of sandbox/work") { screen in
        screen.contains { $0.hasPrefix(" › work") && $0.contains("in 1h 29m") }
      }

      // A rename by another process: the list reads that account again, and moves it.
      try await Self.authtui(["rename", "sandbox/home", "house"], in: fixture)
      try await tmux.waitUntil("sandbox/home renamed") { screen in
        !screen.contains { $0.contains("home") } && screen.contains { $0.contains("house") }
      }

      try await Self.authtui(["logout", "sandbox/house"], in: fixture)
      try await tmux.waitUntil("sandbox/house gone") { screen in
        !screen.contains { $0.contains("house") } && screen.contains { $0.contains("› work") }
      }
      try await Self.authtui(["logout", "sandbox/work"], in: fixture)
      try await tmux.waitFor("No accounts yet.")
      try await tmux.quit()
    }
    await fixture.stop()
  }

  @Test func twoUIsKeepFortySecondTokensFreshWithOneRefreshPerExpiry() async throws {
    let fixture = try await UIFixture.start()
    await fixture.workspace.hook("settings", #"{"profile": "oidc", "access_token_lifetime": 40}"#)
    try await Self.authtui(["login", "sandbox", "--label", "work"], in: fixture)
    var environment = fixture.environment()
    environment["AUTHTUI_PASSPHRASE"] = UIFixture.passphrase
    try await TmuxSession.run(fixture.command, environment: environment) { first in
      try await TmuxSession.run(fixture.command, environment: environment) { second in
        try await first.waitFor("› work")
        try await second.waitFor("› work")
        let start = ContinuousClock.now
        let watched = Duration.seconds(120)
        var expiredSeen: [String] = []
        while ContinuousClock.now - start < watched {
          for screen in [try await first.capture(), try await second.capture()] {
            expiredSeen += screen.filter { $0.contains("expired") }
          }
          try await Task.sleep(for: .milliseconds(500))
        }
        #expect(expiredSeen.isEmpty, "\(expiredSeen.prefix(3))")
        // A 40-second token is refreshed 10 seconds ahead: one refresh about every 30 seconds
        // for both UIs together (two processes refreshing on their own would make twice as
        // many). The upper bound counts the time that really passed up to the count, since on
        // a busy machine the last captures can take the watch well past its 120 seconds.
        let refreshes = await fixture.workspace.stat("refreshes")
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        #expect(refreshes >= 2)
        #expect(refreshes <= Int(elapsed / 30) + 1, "\(refreshes) refreshes in \(elapsed) s")
        #expect(await fixture.workspace.stat("reuse_detections") == 0)
        try await first.sendKeys("q")
        try await second.sendKeys("q")
        try await first.waitFor("authtui-exit=0")
        try await second.waitFor("authtui-exit=0")
      }
    }
    await fixture.stop()
  }
}
