import Foundation
import TestSupport
import Testing

/// Issue 28: `c` says what became of the token inside tmux. With `set-clipboard on` tmux takes
/// the OSC 52 copy into its buffer and the message says it was sent; with tmux's default,
/// `external`, tmux drops an application's OSC 52, and the message says so and how to turn it
/// on, instead of "copied".
@Suite struct ClipboardTmuxUITests {
  /// Runs the UI over one signed-in account `sandbox/work` in a tmux with `setClipboard`, with
  /// no display (so no wl-copy or xclip) unless `display` names one (the tool given
  /// `toolDeadline` seconds instead of three, when set), presses `c`, waits for `message` and
  /// hands the session and the screen that showed it to `body`.
  static func copy(
    inTmuxWith setClipboard: String, display: String? = nil, toolDeadline: String? = nil,
    saying message: String, _ body: (TmuxSession, [String], UIFixture) async throws -> Void
  ) async throws {
    let fixture = try await UIFixture.start()
    try await LiveUITests.authtui(["login", "sandbox", "--label", "work"], in: fixture)
    var environment = fixture.environment()
    environment["AUTHTUI_PASSPHRASE"] = UIFixture.passphrase
    environment["DISPLAY"] = .some(display)
    environment["WAYLAND_DISPLAY"] = .some(nil)
    // A debug build's deadline for the clipboard tool, in seconds (three by default).
    environment["AUTHTUI_TEST_CLIPBOARD_DEADLINE"] = .some(toolDeadline)
    try await TmuxSession.run(
      fixture.command, columns: 200, environment: environment, setClipboard: setClipboard
    ) { tmux in
      try await tmux.waitFor("› work")
      let screen = try await tmux.press("c", thenWaitFor: message)
      try await body(tmux, screen, fixture)
    }
    await fixture.stop()
  }

  @Test func withSetClipboardOnTheTokenIsSentThroughTmux() async throws {
    try await Self.copy(
      inTmuxWith: "on",
      saying: "sent the token of sandbox/work to the terminal through tmux (OSC 52); the "
        + "clipboard is cleared in 45 s"
    ) { tmux, _, fixture in
      let token = try #require(try await fixture.accessToken(provider: "sandbox", label: "work"))
      #expect(try await tmux.buffer(becoming: token) == token)
    }
  }

  @Test func withTmuxsDefaultExternalTheMessageSaysNothingWasCopiedAndHowToTurnItOn()
    async throws
  {
    try await Self.copy(
      inTmuxWith: "external",
      saying: "the token of sandbox/work was not copied: tmux drops the terminal's copy (OSC 52) "
        + "while its set-clipboard is external: `set -g set-clipboard on` in ~/.tmux.conf "
        + "lets it through"
    ) { _, screen, _ in
      #expect(!screen.contains { $0.contains("copied the token") })
      #expect(!screen.contains { $0.contains("cleared in") })
    }
  }

  /// With a display, the real xclip takes the token too (read back with `xclip -o`), and the
  /// line says so; once that display is gone, the line names the failure beside the terminal's
  /// copy, which still counts.
  @Test func xclipOnADisplayIsNamedAndSoIsADisplayThatIsGone() async throws {
    guard VirtualDisplay.xclip != nil else {
      Issue.record("xclip is missing: install xclip (.ci/run does)")
      return
    }
    let display = try await VirtualDisplay.start()
    try await Self.copy(
      inTmuxWith: "on", display: display.name,
      saying: "copied the token of sandbox/work with xclip and sent it to the terminal through "
        + "tmux (OSC 52); the clipboard is cleared in 45 s"
    ) { _, _, fixture in
      let token = try #require(try await fixture.accessToken(provider: "sandbox", label: "work"))
      #expect(try await display.clipboard() == token)
    }
    await display.stop()
    // xclip's exit status, not its deadline, tells the failure: it is waited for however
    // slowly a busy machine starts it.
    try await Self.copy(
      inTmuxWith: "on", display: display.name, toolDeadline: "600",
      saying: "sent the token of sandbox/work to the terminal through tmux (OSC 52); xclip could "
        + "not copy it (it exited with status 1; is DISPLAY=\(display.name) still there?); the "
        + "clipboard is cleared in 45 s"
    ) { _, _, _ in }
  }
}
