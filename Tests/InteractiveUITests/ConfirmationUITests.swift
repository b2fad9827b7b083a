import Foundation
import Synchronization
import TestSupport
import Testing

/// The agent's question in the real UI: a token request forwarded through `authtui ssh` and a
/// real sshd, held by `agent start --confirm forwarded`, allowed from the dialog in tmux, the
/// remote caller then getting its token; and a held request nobody answers, denied when its
/// window (shortened by `AUTHTUI_TEST_CONFIRM_WINDOW`) ends.
@Suite struct ConfirmationUITests {
  /// Runs `authtui ARGUMENTS…` with the fixture's environment, `passphrase` in
  /// `AUTHTUI_PASSPHRASE` and `changes`.
  typealias Run = @Sendable ([String], String) async throws -> ChildProcess.Result

  static func runner(_ fixture: UIFixture, _ changes: [String: String?] = [:]) -> Run {
    var environment = fixture.environment()
    environment["AUTHTUI_CONFIRM_COMMAND"] = nil
    for (name, value) in changes { environment[name] = value }
    let base = environment
    return { arguments, passphrase in
      var changes = base
      changes["AUTHTUI_PASSPHRASE"] = passphrase
      return try await ChildProcess.run(
        Products.authtui, arguments, environment: ChildProcess.environment(changes),
        timeout: 120)
    }
  }

  /// Sends `request` until the agent counts the UI as open (from its first look, a moment
  /// after the list shows: a request before that finds nobody to ask), then gives `answer`
  /// (the keys, or nil for none) once the dialog shows; the request's result. Without an
  /// answer, a request that ended before the UI's look once a second found it (a busy
  /// machine, a short window) is sent again, so that the dialog is seen.
  static func ask(
    _ request: @escaping @Sendable () async throws -> ChildProcess.Result, in tmux: TmuxSession,
    question: String, answer: String?
  ) async throws -> ChildProcess.Result {
    let deadline = Date().addingTimeInterval(120)
    var result: ChildProcess.Result
    var asked = false
    repeat {
      let ended = Flag()
      let running = Task {
        defer { ended.raise() }
        return try await request()
      }
      let screen = try await tmux.waitUntil("the dialog, or the request's end") { screen in
        ended.isRaised || screen.contains { $0.contains(question) }
      }
      asked = screen.contains { $0.contains(question) }
      if let answer, asked {
        try await tmux.sendKeys(answer)
      }
      result = try await running.value
    } while result.status == 6
      && (result.stderr.contains("no authtui was open") || (answer == nil && !asked))
      && Date() < deadline
    return result
  }

  @Test func aForwardedRequestIsAllowedFromTheUIsDialog() async throws {
    let fixture = try await UIFixture.start()
    try await LiveUITests.authtui(["login", "sandbox"], in: fixture)
    let run = Self.runner(fixture)
    let started = try await run(
      ["agent", "start", "--confirm", "forwarded", "--idle-timeout", "600"],
      UIFixture.passphrase)
    #expect(started.status == 0, "\(started.stderr)")
    let server = try await SSHServer.start()
    let stored = try await fixture.accessToken(provider: "sandbox", label: "alice")
    try await fixture.runUnlocked(waitingForTheList: false) { tmux in
      try await tmux.waitFor("alice")
      let token = try await Self.ask(
        {
          // On the far side: no vault, passphrase or agent of its own.
          try await run(
            [
              "ssh", "-F", server.clientConfig, server.host, "--", "env", "-u",
              "AUTHTUI_PASSPHRASE", "HOME=/nonexistent", "XDG_DATA_HOME=/nonexistent",
              "AUTHTUI_VAULT=/nonexistent/vault.db", Products.authtui, "token", "sandbox/alice",
            ], "not the passphrase")
        }, in: tmux, question: "came through an ssh forward", answer: "o")
      #expect(token.status == 0, "\(token.stderr)")
      #expect(token.stdout == (stored ?? "-") + "\n")
      try await tmux.waitFor("allowed once: a token of sandbox/alice for forwarded by ssh")
    }
    await server.stop()
    #expect(try await run(["agent", "stop"], "not the passphrase").status == 0)
    await fixture.stop()
  }

  @Test func aRequestNobodyAnswersIsDeniedWhenItsWindowEnds() async throws {
    let fixture = try await UIFixture.start()
    try await LiveUITests.authtui(["login", "sandbox"], in: fixture)
    let run = Self.runner(fixture, ["AUTHTUI_TEST_CONFIRM_WINDOW": "3"])
    let started = try await run(
      ["agent", "start", "--confirm", "always", "--idle-timeout", "600"], UIFixture.passphrase)
    #expect(started.status == 0, "\(started.stderr)")
    try await fixture.runUnlocked(waitingForTheList: false) { tmux in
      try await tmux.waitFor("alice")
      let token = try await Self.ask(
        { try await run(["token", "sandbox/alice"], "not the passphrase") }, in: tmux,
        question: "Allow a token of sandbox/alice?", answer: nil)
      #expect(token.status == 6)
      #expect(
        token.stderr
          == "authtui: the agent asked for confirmation and nobody allowed it within 3 s: open "
          + "`authtui` on the vault's machine (it asks in a dialog), or set "
          + "AUTHTUI_CONFIRM_COMMAND for the agent\n")
      #expect(token.stdout.isEmpty)
      // The dialog goes once the agent no longer holds the request.
      try await tmux.waitFor("the agent no longer holds the request of sandbox/alice")
      #expect(!(try await tmux.capture()).contains { $0.contains("Allow a token of") })
    }
    #expect(try await run(["agent", "stop"], "not the passphrase").status == 0)
    await fixture.stop()
  }

  /// Set once, read from any thread: the request's end, seen from a screen condition.
  final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func raise() { value.store(true, ordering: .sequentiallyConsistent) }
    var isRaised: Bool { value.load(ordering: .sequentiallyConsistent) }
  }
}
