import Foundation
import TestSupport
import Testing

/// `"unlock_once"` from the UI: unlocking there leaves an agent that `token` then uses.
@Suite struct UnlockOnceUITests {
  @Test func unlockingTheUILeavesAnAgentThatAnswersTokenWithoutThePassphrase() async throws {
    let fixture = try await UIFixture.start()
    try await LiveUITests.authtui(["login", "sandbox"], in: fixture)
    try #"{"agent": {"unlock_once": true, "idle_timeout": 600}}"#.write(
      toFile: fixture.workspace.configPath + "/config.json", atomically: true, encoding: .utf8)
    let socket = fixture.workspace.agentSocketPath
    #expect(!FileManager.default.fileExists(atPath: socket))
    var environment = fixture.environment()
    environment["AUTHTUI_PASSPHRASE"] = "not the passphrase"
    let run = { (arguments: [String]) in
      try await ChildProcess.run(
        Products.authtui, arguments, environment: ChildProcess.environment(environment),
        timeout: 120)
    }
    try await fixture.runUnlocked(waitingForTheList: false) { tmux in
      try await tmux.waitFor("alice")
      try await tmux.waitUntil("the agent's socket") { _ in
        FileManager.default.fileExists(atPath: socket)
      }
      let token = try await run(["token", "sandbox/alice"])
      #expect(token.status == 0, "\(token.stderr)")
      let stored = try await fixture.accessToken(provider: "sandbox", label: "alice")
      #expect(token.stdout == (stored ?? "-") + "\n")
    }
    // The agent outlives the UI, until its idle timeout or `agent stop`.
    let status = try await run(["agent", "status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout.contains("\"idle_timeout\":600"))
    #expect(try await run(["agent", "stop"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: socket))
    await fixture.stop()
  }

  @Test func anAgentThatCannotBeLeftRunningIsSaidOnTheStatusLine() async throws {
    let fixture = try await UIFixture.start()
    try await LiveUITests.authtui(["login", "sandbox"], in: fixture)
    try #"{"agent": {"unlock_once": true}}"#.write(
      toFile: fixture.workspace.configPath + "/config.json", atomically: true, encoding: .utf8)
    // A file where the socket's folder should be: no agent can listen there.
    let blocker = fixture.workspace.folder.file("not-a-folder")
    try Data().write(to: URL(fileURLWithPath: blocker))
    var environment = fixture.environment()
    environment["AUTHTUI_PASSPHRASE"] = UIFixture.passphrase
    environment["AUTHTUI_AGENT_SOCKET"] = blocker + "/agent.sock"
    try await TmuxSession.run(fixture.command, environment: environment) { tmux in
      try await tmux.waitFor("alice")
      try await tmux.waitFor("could not leave an agent running")
      // The UI works on: its details open.
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("Signed in as")
    }
    await fixture.stop()
  }
}
