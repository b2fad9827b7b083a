import Crypto
import Foundation
import TestSupport
import Testing
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui agent` and `authtui token` through it: the built binaries against
/// `authtui-sandbox`. A client given a wrong passphrase proves that an answer came from the
/// agent: had it unlocked the vault itself, it would have exited 3.
@Suite struct AgentCommandTests {
  static let wrongPassphrase: [String: String?] = ["AUTHTUI_PASSPHRASE": "not the passphrase"]

  @Test func servesTheStoredTokenWithoutEverUnlockingAndRemovesItsSocketOnSIGTERM() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let socket = cli.workspace.agentSocketPath
    let agent = try await AgentProcess.start(cli)
    let line = try #require(agent.firstLine)
    #expect(
      line.hasPrefix(
        "authtui agent (pid \(agent.child.pid)) listening on \(socket) for the vault /"))
    #expect(line.hasSuffix("; stop it with Ctrl-C or `kill \(agent.child.pid)`"))
    #expect(fileMode(socket) == S_IFSOCK | 0o600)
    #expect(fileMode(cli.folder.file("agent")) == S_IFDIR | 0o700)

    let stored = try await cli.storedToken("sandbox", "alice")
    let viaAgent = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    #expect(viaAgent.stdout == (try #require(stored)) + "\n")
    #expect(viaAgent.stderr.isEmpty)

    var bypass = Self.wrongPassphrase
    bypass["AUTHTUI_NO_AGENT"] = "1"
    let bypassed = try await cli.run(["token", "sandbox/alice"], bypass)
    #expect(bypassed.status == 3)
    #expect(bypassed.stderr.contains("AUTHTUI_PASSPHRASE does not open the vault"))

    let stopped = await agent.stop(SIGTERM)
    #expect(stopped.status == 0)
    #expect(stopped.output.contains("authtui agent: stopped (SIGTERM)"))
    #expect(fileMode(socket) == nil)
    let alone = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(alone.status == 3)
    #expect(try await cli.run(["token", "sandbox/alice"]).stdout == viaAgent.stdout)
    await cli.stop()
  }

  @Test func refreshesOnceForThirtyTwoCallersWithAndWithoutTheAgent() async throws {
    let cli = try await CLIHarness.start()
    try await cli.signInWithATokenRunningLow()
    let agent = try await AgentProcess.start(cli)
    // 24 callers go through the agent (they could not unlock the vault), 8 unlock it
    // themselves: the vault's lease is what keeps the refresh single across both.
    let outputs = try await cli.runAtOnce(
      32, ["token", "sandbox/alice", "--min-valid", "60"],
      changes: { index in index % 4 == 0 ? ["AUTHTUI_NO_AGENT": "1"] : Self.wrongPassphrase })
    await cli.expectOneSharedRefresh(outputs)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func finishesARefreshInProgressBeforeStopping() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let agent = try await AgentProcess.start(cli)
    await cli.hook(
      "fault", #"{"path": "/oidc/token", "kind": "delay", "delay_ms": 1500, "count": 1}"#)
    let caller = Task {
      try await cli.run(["token", "sandbox/alice", "--min-valid", "100000"], Self.wrongPassphrase)
    }
    // The sandbox counts the fault when the refresh arrives, before it waits.
    for _ in 0..<300 where await cli.stat("faults") < 1 {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(await cli.stat("faults") == 1)
    let stopped = await agent.stop(SIGTERM)
    #expect(stopped.status == 0)
    let result = try await caller.value
    #expect(result.status == 0, "\(result.stderr)")
    let stored = try await cli.storedToken("sandbox", "alice")
    #expect(result.stdout == (try #require(stored)) + "\n")
    #expect(await cli.stat("refreshes") == 1)
    await cli.stop()
  }

  @Test func aCallerFallsBackAndTakesOverPromptlyWhenTheAgentIsKilledMidRefresh() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let before = try #require(try await cli.storedToken("sandbox", "alice"))
    let agent = try await AgentProcess.start(cli)
    // The sandbox holds the refresh until released: it stays in flight whatever the load.
    await cli.hook("fault", #"{"path": "/oidc/token", "kind": "hold"}"#)
    let started = Date()
    let caller = Task { try await cli.run(["token", "sandbox/alice", "--min-valid", "100000"]) }
    try await waitUntil("the agent's refresh reached the sandbox") {
      await cli.stat("faults") == 1
    }
    await agent.child.kill(SIGKILL)
    _ = await agent.child.wait()
    // The caller unlocks the vault itself at once, takes over the dead agent's lease without
    // waiting it out, and keeps the valid access token rather than replay the refresh token.
    let result = try await caller.value
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == before + "\n")
    // Waiting the dead agent's 45-second lease out would take longer than this.
    #expect(Date().timeIntervalSince(started) < 40)
    #expect(await cli.stat("refreshes") == 0)
    #expect(await cli.stat("reuse_detections") == 0)
    await cli.hook("release", "{}")
    await cli.stop()
  }

  /// An agent killed while it holds a request: `token` falls back to unlocking the vault
  /// itself, and when no passphrase can be had, says in the same line that the agent stopped
  /// answering. The agent's own confirm command kills it, so the request is surely taken and
  /// never answered.
  @Test func aTokenWhoseAgentDiesMidRequestSaysSoWhenNoPassphraseCanBeHad() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let socket = cli.workspace.agentSocketPath
    let pid = try AgentManagementTests.started(
      try await cli.run(
        ["agent", "start", "--idle-timeout", "600", "--confirm", "always"],
        ["AUTHTUI_CONFIRM_COMMAND": "kill -9 $PPID"]), cli)
    let token = try await cli.run(["token", "sandbox/alice"], ["AUTHTUI_PASSPHRASE": nil])
    #expect(token.status == 3)
    #expect(token.stdout == "")
    #expect(
      token.stderr
        == "authtui: no passphrase: the agent on \(socket) stopped answering (stopped or killed "
        + "mid-request), so the vault is unlocked here, and there is no terminal to ask on; set "
        + "AUTHTUI_PASSPHRASE, AUTHTUI_PASSPHRASE_FILE or AUTHTUI_PASSPHRASE_COMMAND\n")
    // With no agent at all, the same failure says nothing of one.
    let alone = try await cli.run(["token", "sandbox/alice"], ["AUTHTUI_PASSPHRASE": nil])
    #expect(alone.status == 3)
    #expect(
      alone.stderr
        == "authtui: no passphrase: there is no terminal to ask on; set AUTHTUI_PASSPHRASE, "
        + "AUTHTUI_PASSPHRASE_FILE or AUTHTUI_PASSPHRASE_COMMAND\n")
    await AgentManagementTests.cleanUp(pid, cli)
  }

  @Test func givesTheAgentsFailureAsTheResultWithItsExitCodeAndMessage() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let agent = try await AgentProcess.start(cli)
    let missing = try await cli.run(["token", "sandbox/alcie"], Self.wrongPassphrase)
    #expect(missing.status == 4)
    #expect(missing.stdout.isEmpty)
    #expect(missing.stderr == "authtui: no account sandbox/alcie; did you mean `sandbox/alice`?\n")

    await cli.hook("invalidate", #"{"profile": "oidc"}"#)
    let refused = try await cli.run(
      ["token", "sandbox/alice", "--min-valid", "100000"], Self.wrongPassphrase)
    #expect(refused.status == 5)
    #expect(refused.stderr.contains("sign in again with `authtui login sandbox --label alice`"))
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func takesATokenObtainedAfterTheCallersStartAsTheCallersOwn() async throws {
    let cli = try await CLIHarness.start()
    let before = Date().timeIntervalSince1970 - 5
    try await cli.login("sandbox")
    let agent = try await AgentProcess.start(cli)
    let socket = cli.workspace.agentSocketPath
    let vault = try cli.canonicalVaultPath()
    let stored = try await cli.storedToken("sandbox", "alice")
    // The stored token was obtained after `started_at`: it is the caller's, however long it
    // has left.
    let early = await AgentWire.ask(
      socket,
      #"{"op":"token","account":"sandbox/alice","min_valid":100000,"vault":"\#(vault)","started_at":\#(before)}"#
    )
    #expect(early?["token"] as? String == stored)
    #expect(await cli.stat("refreshes") == 0)
    // A caller that started now wants a token with that much left: a refresh.
    let late = await AgentWire.ask(
      socket,
      #"{"op":"token","account":"sandbox/alice","min_valid":100000,"vault":"\#(vault)","started_at":\#(Date().timeIntervalSince1970)}"#
    )
    #expect(late?["ok"] as? Bool == true)
    #expect(late?["token"] as? String != stored)
    #expect(await cli.stat("refreshes") == 1)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func sendsTheCallersStartAccountAndVaultAndTakesTheAgentsAnswer() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let socket = cli.workspace.agentSocketPath
    let vault = try cli.canonicalVaultPath()

    let agent = try FakeAgent(at: socket)
    let request = Task { await agent.answerOne(with: #"{"ok":true,"token":"from the agent"}"#) }
    let before = Date().timeIntervalSince1970
    let result = try await cli.run(
      ["token", "sandbox", "--min-valid", "120"], Self.wrongPassphrase)
    let after = Date().timeIntervalSince1970
    #expect(result.status == 0)
    #expect(result.stdout == "from the agent\n")
    let sent = try #require(
      try JSONSerialization.jsonObject(with: Data(await request.value.utf8)) as? [String: Any])
    #expect(sent["op"] as? String == "token")
    #expect(sent["account"] as? String == "sandbox")
    #expect(sent["min_valid"] as? Int == 120)
    #expect(sent["vault"] as? String == vault)
    let startedAt = try #require(sent["started_at"] as? Double)
    #expect(startedAt >= before && startedAt <= after)

    // An answer that is not one (or none at all) sends the caller to the vault itself.
    unlink(socket)
    let silent = try FakeAgent(at: socket)
    let ignored = Task { await silent.answerOne(with: "{\"ok\":") }
    let fallback = try await cli.run(["token", "sandbox"], Self.wrongPassphrase)
    _ = await ignored.value
    #expect(fallback.status == 3)
    #expect(fallback.stderr.contains("AUTHTUI_PASSPHRASE does not open the vault"))

    // An empty token is no answer either: never an empty line printed as success.
    for answer in [#"{"ok":true,"token":""}"#, #"{"ok":true,"token":"","note":"short"}"#] {
      unlink(socket)
      let empty = try FakeAgent(at: socket)
      let answered = Task { await empty.answerOne(with: answer) }
      let result = try await cli.run(["token", "sandbox"], Self.wrongPassphrase)
      _ = await answered.value
      #expect(result.status == 3, "\(answer): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(answer)")
      #expect(result.stderr.contains("AUTHTUI_PASSPHRASE does not open the vault"))
    }
    await cli.stop()
  }

  @Test func answersOnlyForItsOwnVaultAndTheCallerThenUnlocksItself() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let other = cli.folder.file("other.db")
    let otherVault = try await Vault.create(
      at: VaultLocation(path: other), passphrase: Passphrase(SandboxWorkspace.passphrase),
      parameters: Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1))
    await otherVault.close()
    let agent = try await AgentProcess.start(cli, ["--vault", other])
    #expect(agent.firstLine != nil)

    let fallback = try await cli.run(["token", "sandbox/alice"])
    #expect(fallback.status == 0, "\(fallback.stderr)")
    #expect(fallback.stderr.isEmpty)
    // With a wrong passphrase the fallback fails: the agent gave nothing.
    let refused = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(refused.status == 3, "\(refused.stderr)")

    let socket = cli.workspace.agentSocketPath
    let ownPath = try #require(realpath(other, nil).map { String(cString: $0) })
    let pong = try #require(await AgentWire.ask(socket, #"{"op":"ping","vault":"\#(ownPath)"}"#))
    #expect(pong["ok"] as? Bool == true)
    #expect(pong["pid"] as? Int == Int(agent.child.pid))
    #expect(pong["vault"] as? String == ownPath)
    let declined = try #require(
      await AgentWire.ask(socket, #"{"op":"ping","vault":"/elsewhere/vault.db"}"#))
    #expect(declined["ok"] as? Bool == false)
    #expect(declined["code"] as? String == "other_vault")
    #expect(
      declined["message"] as? String
        == "this agent serves the vault \(ownPath), not /elsewhere/vault.db; run another agent "
        + "for that vault with its own AUTHTUI_AGENT_SOCKET")
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func answersAMalformedOrOversizedRequestWithBadRequest() async throws {
    let cli = try await CLIHarness.start()
    let agent = try await AgentProcess.start(cli)
    let socket = cli.workspace.agentSocketPath
    let oversized = await AgentWire.exchange(
      socket, Array(repeating: UInt8(ascii: "x"), count: 5000))
    #expect(
      oversized
        == #"{"ok":false,"exit":2,"code":"bad_request","message":"the request is longer than 4096 bytes"}"#
        + "\n")
    let unknown = await AgentWire.ask(socket, #"{"op":"unlock","vault":"/v.db"}"#)
    #expect(unknown?["code"] as? String == "bad_request")
    #expect(
      unknown?["message"] as? String
        == #""op" must be "token", "ping", "list", "export", "logout", "status", "default", "rename", "#
        + #""proof", "questions" or "confirm""#
    )
    let garbage = await AgentWire.ask(socket, "hello")
    #expect(garbage?["message"] as? String == "the request is not a JSON object on one line")
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func refusesASocketFolderOtherUsersCanUseAndSaysHowToFixIt() async throws {
    let cli = try await CLIHarness.start()
    let shared = cli.folder.file("shared")
    #expect(mkdir(shared, 0o700) == 0)
    #expect(chmod(shared, 0o770) == 0)
    let refused = try await cli.run(["agent"], ["AUTHTUI_AGENT_SOCKET": shared + "/agent.sock"])
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "authtui: the agent's folder \(shared) is open to other users (mode 0770); run "
        + "`chmod 700 '\(shared)'` and start the agent again\n")
    #expect(fileMode(shared + "/agent.sock") == nil)

    let file = cli.folder.file("not-a-socket")
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    let occupied = try await cli.run(["agent"], ["AUTHTUI_AGENT_SOCKET": file])
    #expect(occupied.status == 1)
    #expect(occupied.stderr.contains("\(file) exists and is not a socket; remove it"))
    await cli.stop()
  }

  @Test func refusesToStartBesideALiveAgentAndReplacesADeadOnesSocket() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let first = try await AgentProcess.start(cli)
    let second = try await cli.run(["agent"])
    #expect(second.status == 1)
    #expect(
      second.stderr
        == "authtui: an agent already runs: PID \(first.child.pid), on "
        + "\(cli.workspace.agentSocketPath); stop it with `authtui agent stop` or "
        + "`kill \(first.child.pid)`, or set "
        + "AUTHTUI_AGENT_SOCKET to run another\n")

    // SIGKILL leaves the socket file behind, with nobody listening.
    #expect(await first.stop(SIGKILL).status == 128 + SIGKILL)
    #expect(fileMode(cli.workspace.agentSocketPath) == S_IFSOCK | 0o600)
    let third = try await AgentProcess.start(cli)
    #expect(third.firstLine != nil)
    #expect(try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase).status == 0)
    let stopped = await third.stop(SIGINT)
    #expect(stopped.status == 0)
    #expect(stopped.output.contains("authtui agent: stopped (SIGINT)"))
    #expect(fileMode(cli.workspace.agentSocketPath) == nil)
    await cli.stop()
  }

  @Test func stopsByItselfAfterItsIdleTimeout() async throws {
    let cli = try await CLIHarness.start()
    // In the forms --lifetime takes (a bare number is seconds too).
    let agent = try await AgentProcess.start(cli, ["--idle-timeout", "1s"])
    #expect(agent.firstLine != nil)
    let stopped = await agent.finish()
    #expect(stopped.status == 0)
    #expect(stopped.output.contains("authtui agent: stopped after 1s without a request"))
    #expect(fileMode(cli.workspace.agentSocketPath) == nil)
    for (command, text) in [(["agent"], "soon"), (["agent", "start"], "1.5h")] {
      let usage = try await cli.run(command + ["--idle-timeout", text])
      #expect(usage.status == 2)
      #expect(
        usage.stderr
          == "authtui: --idle-timeout takes a duration such as 90s, 15m, 8h or 2d (a bare number "
          + "is seconds), from 0 (never) to 365d, not \"\(text)\"\n")
    }
    await cli.stop()
  }

  @Test func explainsItselfInHelpAndTheCommandList() async throws {
    let help = try await ChildProcess.run(Products.authtui, ["help", "agent"])
    #expect(help.status == 0)
    #expect(
      help.stdout.hasPrefix(
        "Usage: authtui agent [--idle-timeout DURATION] [--lifetime DURATION]\n"
          + "                     [--confirm forwarded|always]\n"))
    #expect(help.stdout.contains("$XDG_RUNTIME_DIR/authtui/agent.sock"))
    #expect(help.stdout.contains("AUTHTUI_NO_AGENT=1"))
    let list = try await ChildProcess.run(Products.authtui, ["--help"])
    // The column the summaries start in depends on the longest command name.
    let line = list.stdout.split(separator: "\n").first { $0.hasPrefix("  agent ") }
    #expect(
      line.map { $0.dropFirst(8).drop { $0 == " " } }?
        .hasPrefix("Unlock the vault once and answer `authtui token`") == true)
  }

  @Test func printsNoTokenAnywhereButTokensOwnStandardOutput() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let agent = try await AgentProcess.start(cli)
    var outputs = [agent.firstLine ?? ""]
    var tokens: [String] = []
    for minimumValidity in ["60", "100000", "60"] {
      let result = try await cli.run(
        ["token", "sandbox/alice", "--min-valid", minimumValidity], Self.wrongPassphrase)
      #expect(result.status == 0)
      tokens.append(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
      outputs.append(result.stderr)
    }
    outputs.append(try await cli.run(["token", "sandbox/bob"], Self.wrongPassphrase).stderr)
    #expect(Set(tokens).count == 2)
    #expect(tokens.allSatisfy { $0.count > 20 })
    outputs.append(await agent.stop().output)
    for output in outputs {
      for token in tokens {
        #expect(!output.contains(token))
      }
    }
    await cli.stop()
  }

  /// The agent runs as `nobody` and the test, as root, gets past the folder's mode: the agent
  /// must still refuse it by its uid, and `token` must not take an answer from another user's
  /// agent. Needs root and `setpriv` to run a process as another user.
  @Test(.enabled(if: geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0))
  func refusesConnectionsFromAnotherUserAndTokenIgnoresAnotherUsersAgent() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let nobody: uid_t = 65534
    let chowned = try await ChildProcess.run(
      "/bin/chown", ["-R", "\(nobody):\(nobody)", cli.folder.path])
    #expect(chowned.status == 0, "\(chowned.stderr)")
    let agent = try await AgentProcess.start(
      cli, [], ["HOME": cli.folder.path],
      launcher: [
        "/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--",
      ])
    let problems = await agent.child.standardError()
    #expect(agent.firstLine != nil, "\(problems)")

    let socket = cli.workspace.agentSocketPath
    let vault = try cli.canonicalVaultPath()
    let answer = await AgentWire.exchange(socket, Array(#"{"op":"ping","vault":"\#(vault)"}"#.utf8))
    #expect(answer == "")
    // The folder belongs to nobody: `token` does not even connect, and unlocks the vault itself.
    let refused = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(refused.status == 3, "\(refused.stderr)")

    let stopped = await agent.stop()
    #expect(stopped.status == 0)
    #expect(stopped.output.contains("authtui agent: refused a connection from uid 0, pid "))
    #expect(stopped.output.contains(": not uid \(nobody)"))
    await cli.stop()
  }
}
