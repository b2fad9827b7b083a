import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The UI asked to end (SIGTERM) while a refresh is in flight.
@Suite struct InteractiveSignalTests {
  @Test func sigtermDuringARefreshStoresItThenRestoresTheTerminalAndEndsBySigterm() async throws {
    let fixture = try await UIFixture.start()
    try await TmuxSession.run(fixture.command, environment: fixture.environment()) { tmux in
      try await tmux.unlock()
      try await tmux.waitFor("No accounts yet. Press a to sign in to a provider.")
      try await tmux.signIn(provider: "Sandbox OpenID provider")
      try await tmux.waitFor("signed in: sandbox/alice")
      let before = try await fixture.accessToken(provider: "sandbox", label: "alice")
      await fixture.workspace.hook(
        "fault", #"{"path": "/oidc/token", "kind": "delay", "delay_ms": 10000}"#)
      try await tmux.sendKeys("r")
      let deadline = Date().addingTimeInterval(60)
      while await fixture.workspace.stat("faults") < 1, Date() < deadline {
        try await Task.sleep(for: .milliseconds(50))
      }
      // authtui is the only child of the pane's shell.
      let shell = try await tmux.paneValue("#{pane_pid}")
      let children = try String(
        contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
      let pid = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
      kill(pid, SIGTERM)
      try await tmux.waitFor("authtui-exit=\(128 + SIGTERM)", timeout: .seconds(60))
      #expect(try await tmux.paneValue("#{alternate_on}") == "0")
      // The refresh was stored before the end, and nothing was spent twice.
      let after = try await fixture.accessToken(provider: "sandbox", label: "alice")
      #expect(after != nil && after != before)
      #expect(await fixture.workspace.stat("refreshes") == 1)
      #expect(await fixture.workspace.stat("reuse_detections") == 0)
    }
    await fixture.stop()
  }
}
