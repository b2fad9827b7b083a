import Foundation
import TestSupport
import Testing

/// `authtui` in a real terminal (tmux) against `authtui-sandbox`, with `authtui-test-browser`
/// as the user's browser: unlock, sign in, copy, sign out, a silent denial, and a resize.
@Suite struct InteractiveUITests {
  @Test func signsInWithPKCECopiesTheTokenAndSignsOut() async throws {
    let fixture = try await UIFixture.start()
    var environment = fixture.environment()
    let argv = fixture.workspace.folder.file("browser-argv")
    environment["AUTHTUI_TEST_BROWSER_ARGV_FILE"] = argv
    try await TmuxSession.run(fixture.command, environment: environment) { tmux in
      try await tmux.unlock()
      try await tmux.waitFor("No accounts yet. Press a to sign in to a provider.")
      let signedIn = try await tmux.signIn(
        provider: "Sandbox OpenID provider", thenWaitFor: "signed in: sandbox/alice")
      #expect(signedIn.contains { $0.hasPrefix(" › alice") && $0.contains("● valid") })

      try await tmux.press(
        "c", thenWaitFor: "sent the token of sandbox/alice to the terminal through tmux (OSC 52);")
      let stored = try await fixture.accessToken(provider: "sandbox", label: "alice")
      let token = try #require(stored)
      #expect(try await tmux.buffer(becoming: token) == token)
      #expect(!(try await tmux.capture()).joined().contains(token))

      try await tmux.sendKeys("d")
      try await tmux.waitFor("Sandbox OpenID provider offers token revocation")
      try await tmux.sendKeys("y")
      try await tmux.waitFor("The tokens were revoked at Sandbox OpenID provider.")
      // The sign-out page, like the sign-in page, reaches the browser as a one-time address:
      // nothing of the request (state, challenge, nonce) or the id_token is in its argv.
      try await tmux.sendKeys("o")
      var recorded = ""
      for _ in 0..<600 where !recorded.contains("/sign-out/") {
        recorded = (try? String(contentsOfFile: argv, encoding: .utf8)) ?? ""
        if !recorded.contains("/sign-out/") { try await Task.sleep(for: .milliseconds(50)) }
      }
      #expect(recorded.contains("/sign-in/"))
      #expect(recorded.contains("/sign-out/"))
      for secret in ["state=", "code_challenge", "nonce", "id_token", "eyJ"] {
        #expect(!recorded.contains(secret))
      }
      // The provider returned the browser to authtui's landing (the sandbox's file registers
      // the redirect URI for that), and the status line says so until the next key.
      try await tmux.waitFor("the provider signed the browser out of sandbox/alice and sent it")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("No accounts yet.")
      #expect(try await fixture.accountCount() == 0)
      try await tmux.quit()
    }
    await fixture.stop()
  }

  @Test func aSilentDenialCountsDownThenOffersARetry() async throws {
    let fixture = try await UIFixture.start(loginTimeout: 10)
    try await TmuxSession.run(
      fixture.command, environment: fixture.environment(browserAction: "deny")
    ) { tmux in
      try await tmux.unlock()
      try await tmux.waitFor("No accounts yet.")
      try await tmux.signIn(provider: "Simkl")
      let first = try await Self.secondsLeft(
        in: try await tmux.waitUntil("a countdown") { Self.countdown(in: $0) != nil })
      // The countdown goes down between two captures (waiting for it, not for a fixed time, so
      // a slow machine is not mistaken for a stuck countdown).
      let later = try await tmux.waitUntil("the countdown to go down", timeout: .seconds(30)) {
        (Self.countdown(in: $0) ?? first) < first
      }
      #expect(try await Self.secondsLeft(in: later) < first)
      // The whole ended screen, not a capture taken while curses was still drawing it (the
      // message can be on screen before the key line is): the message, `r retry` on the key
      // line, and the ended attempt's countdown gone, with its address.
      _ = try await tmux.waitUntil(
        "the declined sign-in's end, with r retry and no countdown", timeout: .seconds(60)
      ) { screen in
        screen.contains { $0.contains("(the sign-in may have been declined).") }
          && screen.last?.contains("r retry") == true && !screen.contains { $0.contains(" left") }
      }
      #expect(try await fixture.accountCount() == 0)
      // r starts a fresh attempt, with a fresh countdown.
      try await tmux.sendKeys("r")
      try await tmux.waitUntil("a fresh countdown") { (Self.countdown(in: $0) ?? 0) >= 8 }
    }
    await fixture.stop()
  }

  /// Also: a passphrase from AUTHTUI_PASSPHRASE skips the unlock screen.
  @Test func aResizeRedrawsTheListAtTheNewSize() async throws {
    let fixture = try await UIFixture.start()
    try await fixture.runUnlocked { tmux in
      try await tmux.signIn(provider: "Hivesigner", choosingFlow: false)
      try await tmux.waitFor("signed in: hivesigner/alice")
      let wide = try await tmux.capture()
      #expect(wide[1].contains("REFRESH"))
      try await tmux.resize(columns: 60, rows: 16)
      let narrow = try await tmux.waitUntil("the 60×16 layout") { screen in
        screen.count == 16 && !screen[1].contains("REFRESH") && screen[1].contains("EXPIRES")
      }
      #expect(narrow[3].hasPrefix(" › alice"))
      #expect(narrow[15].hasPrefix(" Enter details"))
      try await tmux.resize(columns: 40, rows: 10)
      try await tmux.waitFor("Terminal too small (40×10).")
      try await tmux.resize(columns: 80, rows: 24)
      try await tmux.waitUntil("the 80×24 layout again") {
        $0.count == 24 && $0[1].contains("REFRESH")
      }
    }
    await fixture.stop()
  }

  /// `authtui demo` with no browser: the demo approves a Simkl PIN sign-in by itself, after a
  /// pause that leaves the code on screen.
  @Test func theDemoApprovesWithoutABrowser() async throws {
    try await Self.runDemo { tmux in
      let start = try await tmux.waitFor("No accounts yet.")
      #expect(start[0].contains("DEMO · throwaway vault, passphrase \"demo\""))
      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Simkl")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("How do you want to sign in to Simkl?")
      try await tmux.sendKeys("j", "Enter")
      try await tmux.waitFor("and enter the code")
      // The flow screen counts down the approver's pause ("in 4 s", "in 3 s", …) and then gives
      // way to the result, as does the "signed in" message a few seconds later: a capture on a
      // busy machine may come after either, so what is waited for last is the account's row.
      let approving = "demo-user in "
      let signedIn: @Sendable ([String]) -> Bool = { screen in
        screen.contains { $0.contains("demo-user") && $0.contains("valid") }
      }
      try await tmux.waitUntil("the approver's notice or its result") { screen in
        screen.contains { $0.contains(approving) } || signedIn(screen)
      }
      try await tmux.waitUntil("simkl/demo-user signed in", timeout: .seconds(60), signedIn)
      try await tmux.quit()
    }
  }

  /// The demo's endings chosen in the UI, with no variables: a denial, then a second account
  /// of the same provider under a label typed on the sign-in screen.
  @Test func theDemoDeclinesOrApprovesAsTheTypedLabelWhenAsked() async throws {
    try await Self.runDemo { tmux in
      try await tmux.waitFor("No accounts yet.")
      // Hivesigner has one flow: Enter starts it. First the approver declines.
      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Hivesigner")
      try await tmux.waitFor("Demo: its approver approves as demo-user")
      try await tmux.sendKeys("m")
      try await tmux.waitFor("Demo: its approver declines")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("✗ Hivesigner declined the sign-in", timeout: .seconds(90))
      try await tmux.sendKeys("Escape")
      // Then it approves twice, the second time as the label typed.
      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Hivesigner")
      try await tmux.waitFor("approves as demo-user")
      try await tmux.sendKeys("Enter")
      try await tmux.waitUntil("hivesigner/demo-user signed in", timeout: .seconds(90)) {
        $0.contains { $0.contains("demo-user") && $0.contains("valid") }
      }
      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Hivesigner")
      try await tmux.sendKeys("l")
      try await tmux.type("second")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("approves as second")
      try await tmux.sendKeys("Enter")
      let both = try await tmux.waitUntil("a second Hivesigner account", timeout: .seconds(90)) {
        $0.contains { $0.contains("second") && $0.contains("valid") }
      }
      #expect(both.contains { $0.contains("Hivesigner") && $0.contains("2 accounts") })
      try await tmux.quit()
    }
  }

  /// Runs `authtui demo` in tmux as a newcomer would: no browser, no display, no variables.
  static func runDemo(_ body: (TmuxSession) async throws -> Void) async throws {
    let environment: [String: String?] = [
      "BROWSER": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SWIFT_BACKTRACE": "enable=no",
      "AUTHTUI_PASSPHRASE": nil, "NO_COLOR": nil,
    ]
    try await TmuxSession.run(
      "\(Products.authtui) demo; echo authtui-exit=$?; exec sleep 600", environment: environment,
      body)
  }

  /// The `M:SS left` of a countdown bar, in seconds.
  static func countdown(in screen: [String]) -> Int? {
    for line in screen {
      guard let range = line.range(of: #"\d+:\d\d left"#, options: .regularExpression) else {
        continue
      }
      let parts = line[range].dropLast(5).split(separator: ":").compactMap { Int($0) }
      if parts.count == 2 { return parts[0] * 60 + parts[1] }
    }
    return nil
  }

  static func secondsLeft(in screen: [String]) async throws -> Int {
    try #require(countdown(in: screen))
  }
}
