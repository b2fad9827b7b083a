import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What a running `authtui agent` does by itself: it refreshes every account ahead of its
/// expiry (so `token` never waits on the network), finishes a background refresh before it
/// stops, and reads the provider files again when they change or on SIGHUP. The built binaries
/// against `authtui-sandbox`; a wrong passphrase proves an answer came from the agent.
@Suite struct AgentUpkeepTests {
  static let wrongPassphrase = AgentCommandTests.wrongPassphrase

  /// Signs in to `sandbox` with a token that lasts 20 s (refreshed 5 s ahead), while the
  /// refreshed ones last an hour; returns the access token stored.
  static func signInWithAShortToken(_ cli: CLIHarness) async throws -> String {
    await cli.hook("settings", #"{"profile": "oidc", "access_token_lifetime": 20}"#)
    try await cli.login("sandbox")
    await cli.hook("settings", #"{"profile": "oidc", "access_token_lifetime": 3600}"#)
    return try #require(try await cli.storedToken("sandbox", "alice"))
  }

  @Test func refreshesAnAccountSignedInMeanwhileAheadOfExpirySoTokenMakesNoRequest() async throws {
    let cli = try await CLIHarness.start()
    // The account comes after the agent, from another process: the agent picks it up.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    _ = try await Self.signInWithAShortToken(cli)
    // The agent refreshes 15 s after the sign-in. On a busy machine that can come before the
    // provider's tokens last an hour again (then it refreshes the new 20-second token once
    // more), or before the token above was read: only a token that lasts is the end.
    try await waitUntil("the agent refreshed the account by itself", timeout: 120) {
      guard await cli.stat("refreshes") >= 1,
        let expiry = try? await cli.storedTokens("sandbox", "alice")?.expiresAt
      else { return false }
      return expiry.timeIntervalSinceNow > 600
    }
    let refreshed = try #require(try await cli.storedToken("sandbox", "alice"))
    let refreshes = await cli.stat("refreshes")

    let requests = await cli.stat("requests")
    let answered = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(answered.status == 0, "\(answered.stderr)")
    #expect(answered.stdout == refreshed + "\n")
    #expect(await cli.stat("requests") == requests)
    #expect(await cli.stat("refreshes") == refreshes)
    #expect(await cli.stat("reuse_detections") == 0)
    let stopped = await agent.stop()
    #expect(stopped.status == 0)
    #expect(!stopped.output.contains("could not refresh"), "\(stopped.output)")
    await cli.stop()
  }

  @Test func finishesABackgroundRefreshUnderWayBeforeItStops() async throws {
    let cli = try await CLIHarness.start()
    let first = try await Self.signInWithAShortToken(cli)
    // The agent's first refresh looks the provider up first: slow that, then the refresh.
    await cli.hook(
      "fault", #"{"path": "/oidc/.well-known", "kind": "delay", "delay_ms": 2000, "count": 1}"#)
    await cli.hook(
      "fault", #"{"path": "/oidc/token", "kind": "delay", "delay_ms": 1000, "count": 1}"#)
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    // The sandbox counts a fault when its request arrives, before it waits.
    try await waitUntil("the agent's background refresh began", timeout: 120) {
      await cli.stat("faults") >= 1
    }
    let stopped = await agent.stop(SIGTERM)
    #expect(stopped.status == 0)
    #expect(stopped.output.contains("authtui agent: stopped (SIGTERM)"))
    // The refresh went all the way and was stored before the vault closed.
    #expect(await cli.stat("faults") == 2)
    #expect(await cli.stat("refreshes") == 1)
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    #expect(stored != first)
    let alone = try await cli.run(["token", "sandbox/alice"])
    #expect(alone.status == 0, "\(alone.stderr)")
    #expect(alone.stdout == stored + "\n")
    #expect(await cli.stat("refreshes") == 1)
    #expect(await cli.stat("reuse_detections") == 0)
    await cli.stop()
  }

  @Test func readsTheProviderFilesAgainOnSIGHUPAndWhenOneChanges() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let file = cli.folder.file("config/providers/sandbox.json")
    let aside = cli.folder.file("sandbox.json.aside")
    let contents = try String(contentsOfFile: file, encoding: .utf8)
    #expect(rename(file, aside) == 0)
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let forced = ["token", "sandbox/alice", "--min-valid", "100000"]
    let unknown = try await cli.run(forced, Self.wrongPassphrase)
    #expect(unknown.status == 4)
    #expect(unknown.stderr == "authtui: no provider sandbox; `authtui providers` lists them\n")

    // SIGHUP reads the files and the agent goes on.
    await agent.child.kill(SIGHUP)
    try await waitUntil("the agent read the files on SIGHUP") {
      await agent.child.standardError().contains(
        "authtui agent: read the provider files again (SIGHUP): no file changed\n")
    }
    #expect(try await cli.run(forced, Self.wrongPassphrase).status == 4)

    // The file back: the provider is used from the next request on (SIGHUP, or the look at
    // the files, whichever comes first).
    #expect(rename(aside, file) == 0)
    await agent.child.kill(SIGHUP)
    try await waitUntil("the agent read the restored file") {
      await agent.child.standardError().contains("): providers/sandbox.json added\n")
    }
    let served = try await cli.run(forced, Self.wrongPassphrase)
    #expect(served.status == 0, "\(served.stderr)")
    #expect(await cli.stat("refreshes") == 1)

    // A broken file keeps the providers as they were, and says what is wrong.
    try Data("{ \"id\": \n".utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
    try await waitUntil("the agent saw the broken file") {
      await agent.child.standardError().contains(
        "authtui agent: kept the providers as they were (a file changed): ")
    }
    let kept = try await cli.run(forced, Self.wrongPassphrase)
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(await cli.stat("refreshes") == 2)

    try Data(contents.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
    try await waitUntil("the agent read the mended file") {
      await agent.child.standardError().contains(
        "authtui agent: read the provider files again (a file changed): "
          + "providers/sandbox.json changed\n")
    }
    let stopped = await agent.stop(SIGTERM)
    #expect(stopped.status == 0)
    #expect(!stopped.output.contains("stopped (SIGHUP)"))
    let problems = stopped.output.components(separatedBy: "\n").filter {
      $0.contains("kept the providers as they were")
    }
    #expect(problems.count == 1, "\(problems)")
    #expect(
      problems.first
        == "authtui agent: kept the providers as they were (a file changed): "
        + "~/config/providers/sandbox.json:2: not valid JSON: expected a value before the end of "
        + "the file")
    await cli.stop()
  }

  @Test func saysInItsHelpWhatItDoesInTheBackground() async throws {
    let help = try await ChildProcess.run(Products.authtui, ["help", "agent"])
    #expect(help.status == 0)
    let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("refreshes every account that has a refresh token ahead of its expiry"))
    #expect(text.contains("on SIGHUP"))
    #expect(text.contains("only requests count as activity, not the background refreshes"))
    #expect(!text.contains("restart the agent"))
  }

  @Test func saysWhenABackgroundRefreshFailsAndBacksOff() async throws {
    let cli = try await CLIHarness.start()
    _ = try await Self.signInWithAShortToken(cli)
    await cli.hook("fault", #"{"path": "/oidc/token", "kind": "status500", "count": 1}"#)
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    try await waitUntil("the agent's background refresh failed", timeout: 120) {
      await agent.child.standardError().contains("could not refresh")
    }
    #expect(
      await agent.child.standardError()
        == "authtui agent: could not refresh sandbox/alice ahead of its expiry (next attempt in "
        + "30 s): The provider failed with HTTP 500; try again in a few minutes.\n")
    // The next attempt is half a minute away: a caller's own refresh does not wait for it.
    let answered = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(answered.status == 0, "\(answered.stderr)")
    #expect(answered.stdout == (try await cli.storedToken("sandbox", "alice")).map { $0 + "\n" })
    #expect(await cli.stat("refreshes") == 1)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }
}
