import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui export --clipboard` with a local clipboard tool (a stand-in for `xclip` on `PATH`,
/// `DISPLAY` set): the token reaches the tool whole on its standard input, and a tool that
/// exits without reading it (xclip with a stale `DISPLAY`, as tmux and ssh sessions often
/// have) never ends the command by SIGPIPE.
@Suite struct ClipboardToolTests {
  /// The variable that gives a debug build's clipboard tool its deadline in seconds (three in
  /// use): long where a tool fails, so that only its exit status decides; short where it stays.
  static let deadline = "AUTHTUI_TEST_CLIPBOARD_DEADLINE"

  /// The copy every test makes: sandbox/alice's token to the clipboard, its clearing left out.
  static let copy = ["export", "sandbox/alice", "--clipboard", "--clear-after", "0"]

  /// A harness with sandbox/alice signed in.
  private func signedIn() async throws -> CLIHarness {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    return cli
  }

  /// The harness's environment with `xclip` the script `body` in a folder of its own, first
  /// on `PATH`, a display named, and the tool's `deadline` in seconds when given.
  private func withXclip(_ body: String, deadline: String? = nil, in cli: CLIHarness) throws
    -> [String: String?]
  {
    let bin = cli.folder.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let script = bin + "/xclip"
    try "#!/bin/sh\n\(body)\n".write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o700)
    return [
      "DISPLAY": ":99", "PATH": bin + ":" + (cli.environment["PATH"] ?? "/usr/bin:/bin"),
      Self.deadline: deadline,
    ]
  }

  @Test func theTokenReachesTheToolWhole() async throws {
    let cli = try await signedIn()
    let received = cli.folder.file("received")
    let environment = try withXclip(
      "cat > '\(received).part' && mv '\(received).part' '\(received)'", in: cli)
    let copied = try await cli.run(Self.copy, environment)
    #expect(copied.status == 0, "\(copied.stderr)")
    #expect(copied.stdout.contains("xclip"), "\(copied.stdout)")
    try await waitUntil("the stand-in xclip wrote what it read") {
      FileManager.default.fileExists(atPath: received)
    }
    let token = try await cli.storedToken("sandbox", "alice")
    #expect(try String(contentsOfFile: received, encoding: .utf8) == token)
    await cli.stop()
  }

  /// The tool exits at once, before or after the command would have written to it (before,
  /// about one command in four ended by SIGPIPE, with no word): forty times, the command says
  /// the tool failed and, with no terminal either, that nothing was copied.
  @Test func aToolThatFailsIsReportedAndNeverEndsTheCommandBySIGPIPE() async throws {
    let cli = try await signedIn()
    // The failure is told by the tool's exit status, not by its deadline: however slowly a
    // busy machine starts it, it is waited for.
    let environment = try withXclip("exit 1", deadline: "600", in: cli)
    var outcomes: [String] = []
    for _ in 0..<40 {
      let result = try await cli.run(Self.copy, environment)
      outcomes.append("\(result.status) \(result.stdout)\(result.stderr)")
    }
    let expected =
      "1 authtui: cannot write the clipboard: xclip could not copy it (it exited with status 1; "
      + "is DISPLAY=:99 still there?), and there is no terminal to send OSC 52 to; use "
      + "--env-file instead\n"
    #expect(outcomes.allSatisfy { $0 == expected }, "\(Set(outcomes))")
    await cli.stop()
  }

  /// A tool that has read the token but not exited by its deadline (three seconds; one here),
  /// one that serves the selection itself or a slow display, is taken to have it: the command
  /// does not wait on.
  @Test func aToolStillRunningAfterItsDeadlineIsTakenToHaveTheToken() async throws {
    let cli = try await signedIn()
    let environment = try withXclip("cat > /dev/null; sleep 8", deadline: "1", in: cli)
    let copied = try await cli.run(Self.copy, environment)
    #expect(copied.status == 0, "\(copied.stderr)")
    #expect(copied.stdout == "Copied the token of sandbox/alice with xclip.\n")
    await cli.stop()
  }

  /// The real xclip on an X server of the test's own (Xvfb): the token is on the clipboard,
  /// as xclip reads it back; once the server is gone, the display is named.
  @Test func theRealXclipCopiesTheTokenAndAGoneDisplayIsNamed() async throws {
    guard VirtualDisplay.xclip != nil else {
      Issue.record("xclip is missing: install xclip (.ci/run does)")
      return
    }
    let display = try await VirtualDisplay.start()
    let cli = try await signedIn()
    let copied = try await cli.run(Self.copy, ["DISPLAY": display.name])
    #expect(copied.status == 0, "\(copied.stderr)")
    #expect(copied.stdout == "Copied the token of sandbox/alice with xclip.\n")
    let token = try await cli.storedToken("sandbox", "alice")
    #expect(try await display.clipboard() == token)
    await display.stop()
    let gone = try await cli.run(Self.copy, ["DISPLAY": display.name, Self.deadline: "600"])
    #expect(gone.status == 1)
    #expect(
      gone.stderr.contains(
        "xclip could not copy it (it exited with status 1; is DISPLAY=\(display.name) still "
          + "there?)"), "\(gone.stderr)")
    await cli.stop()
  }
}
