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

  /// The processes whose arguments (`cmdline`) or, when `environment`, whose environment
  /// holds `text`: /proc as `ps e` reads it.
  private static func processes(holding text: String, environment: Bool = false) -> [String] {
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return folders.filter { $0.allSatisfy(\.isNumber) }.filter { pid in
      let file = "/proc/\(pid)/" + (environment ? "environ" : "cmdline")
      guard let bytes = FileManager.default.contents(atPath: file) else { return false }
      return String(decoding: bytes, as: UTF8.self).contains(text)
    }
  }

  /// The hex SHA-256 of `text`, as the janitor compares the clipboard's.
  private static func digest(_ text: String) async throws -> String {
    let hashed = try await ChildProcess.run("/usr/bin/sha256sum", input: text)
    return String(hashed.stdout.prefix(64))
  }

  /// The clipboard is cleared after `--clear-after`, by a janitor that is given the token's
  /// digest in its environment (which only its user reads), never in its arguments (which
  /// `ps` shows every user); and none is left behind when nothing was copied.
  @Test func theClearingKnowsTheTokenOnlyByAnEnvironmentNoOtherUserReads() async throws {
    let cli = try await signedIn()
    let held = cli.folder.file("held")
    let environment = try withXclip(
      "if [ \"$3\" = -o ]; then cat '\(held)'; else cat > '\(held).part' && "
        + "mv '\(held).part' '\(held)'; fi", in: cli)
    let token = try #require(try await cli.storedToken("sandbox", "alice"))
    let digest = try await Self.digest(token)
    let copy = ["export", "sandbox/alice", "--clipboard", "--clear-after", "2"]
    let copied = try await cli.run(copy, environment)
    #expect(copied.status == 0, "\(copied.stderr)")
    #expect(Self.processes(holding: digest).isEmpty)
    try await waitUntil("the janitor cleared the clipboard") {
      (try? String(contentsOfFile: held, encoding: .utf8)) == ""
    }

    try await waitUntil("the janitor ended") {
      Self.processes(holding: digest, environment: true).isEmpty
    }

    // A tool that fails copies nothing: no janitor waits to clear it.
    let failing = try withXclip("exit 1", deadline: "600", in: cli)
    let failed = try await cli.run(copy, failing)
    #expect(failed.status == 1)
    #expect(Self.processes(holding: digest).isEmpty)
    #expect(Self.processes(holding: digest, environment: true).isEmpty)
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
