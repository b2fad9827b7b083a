import Foundation
import Synchronization
import TestSupport
import Testing

/// The agent's question in the real UI: a token request forwarded through `authtui ssh` and a
/// real sshd, held by `agent start --confirm forwarded`, allowed from the dialog in tmux, the
/// remote caller then getting its token.
@Suite struct ConfirmationUITests {
  @Test func aForwardedRequestIsAllowedFromTheUIsDialog() async throws {
    let fixture = try await UIFixture.start()
    try await LiveUITests.authtui(["login", "sandbox"], in: fixture)
    var environment = fixture.environment()
    environment["AUTHTUI_PASSPHRASE"] = UIFixture.passphrase
    environment["AUTHTUI_CONFIRM_COMMAND"] = nil
    let agentEnvironment = environment
    let run: @Sendable ([String], String) async throws -> ChildProcess.Result = {
      arguments, passphrase in
      var changes = agentEnvironment
      changes["AUTHTUI_PASSPHRASE"] = passphrase
      return try await ChildProcess.run(
        Products.authtui, arguments, environment: ChildProcess.environment(changes),
        timeout: 120)
    }
    let started = try await run(
      ["agent", "start", "--confirm", "forwarded", "--idle-timeout", "600"],
      UIFixture.passphrase)
    let server = try await SSHServer.start()
    #expect(started.status == 0, "\(started.stderr)")
    let stored = try await fixture.accessToken(provider: "sandbox", label: "alice")
    try await fixture.runUnlocked(waitingForTheList: false) { tmux in
      try await tmux.waitFor("alice")
      // The agent counts the UI as open from its first look, a moment after the list shows:
      // a request before that finds nobody to ask, and is asked again.
      let deadline = Date().addingTimeInterval(60)
      let question = "Allow a token of sandbox/alice?"
      var token: ChildProcess.Result
      repeat {
        let ended = Flag()
        let request = Task {
          defer { ended.raise() }
          // On the far side: no vault, passphrase or agent of its own.
          return try await run(
            [
              "ssh", "-F", server.clientConfig, server.host, "--", "env", "-u",
              "AUTHTUI_PASSPHRASE", "HOME=/nonexistent", "XDG_DATA_HOME=/nonexistent",
              "AUTHTUI_VAULT=/nonexistent/vault.db", Products.authtui, "token", "sandbox/alice",
            ], "not the passphrase")
        }
        let screen = try await tmux.waitUntil("the dialog, or the request's end") { screen in
          ended.isRaised || screen.contains { $0.contains(question) }
        }
        if screen.contains(where: { $0.contains(question) }) {
          #expect(screen.contains { $0.contains("came through an ssh forward") }, "\(screen)")
          try await tmux.sendKeys("o")
        }
        token = try await request.value
      } while token.status == 6 && token.stderr.contains("no authtui was open")
        && Date() < deadline
      #expect(token.status == 0, "\(token.stderr)")
      #expect(token.stdout == (stored ?? "-") + "\n")
      try await tmux.waitFor("allowed once: a token of sandbox/alice for forwarded by ssh")
    }
    await server.stop()
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
