import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `agent start --confirm` and `"agent": {"confirm": …}` with the built binaries against
/// `authtui-sandbox`: a held token request allowed or denied by `AUTHTUI_CONFIRM_COMMAND`,
/// denied with nobody to ask, and a request the rules do not hold answered without asking;
/// forwarded requests come through `authtui ssh` and a real sshd (`SSHServer`).
@Suite struct AgentConfirmationTests {
  static let wrongPassphrase = AgentCommandTests.wrongPassphrase

  /// A confirm command that keeps its question in `question` and exits `status`.
  static func command(_ cli: CLIHarness, exiting status: Int) -> String {
    "cat > '\(cli.folder.file("question"))'; exit \(status)"
  }

  /// Starts the agent with `arguments` and `changes` in its environment.
  static func startAgent(
    _ cli: CLIHarness, _ arguments: [String], _ changes: [String: String?] = [:]
  ) async throws -> Int32 {
    try AgentManagementTests.started(
      try await cli.run(["agent", "start", "--idle-timeout", "600"] + arguments, changes), cli)
  }

  /// `authtui token sandbox/alice` run on the far side of `authtui ssh` through `server`, with
  /// no vault, passphrase or agent of its own there: only the forwarded socket can answer.
  static func remoteToken(_ cli: CLIHarness, through server: SSHServer) async throws
    -> ChildProcess.Result
  {
    try await cli.run(
      [
        "ssh", "-F", server.clientConfig, server.host, "--", "env", "-u", "AUTHTUI_PASSPHRASE",
        "HOME=/nonexistent", "XDG_DATA_HOME=/nonexistent", "AUTHTUI_VAULT=/nonexistent/vault.db",
        Products.authtui, "token", "sandbox/alice",
      ], wrongPassphrase)
  }

  @Test func forwardedDeniesAForwardedRequestWithNobodyToAskAndAllowsItByTheCommand()
    async throws
  {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    let server = try await SSHServer.start()
    _ = try await Self.startAgent(
      cli, ["--confirm", "forwarded"], ["AUTHTUI_CONFIRM_COMMAND": nil])
    let denied = try await Self.remoteToken(cli, through: server)
    let deniedLog = await server.log()
    #expect(denied.status == 6, "\(denied.stderr)\n\(deniedLog)")
    #expect(denied.stdout.isEmpty)
    #expect(
      denied.stderr.contains(
        "authtui: the agent asked for confirmation, but no authtui was open on its vault and "
          + "AUTHTUI_CONFIRM_COMMAND is not set: open `authtui` on the vault's machine (it "
          + "asks in a dialog), or set AUTHTUI_CONFIRM_COMMAND for the agent\n"),
      "\(denied.stderr)")
    #expect(try await cli.run(["agent", "stop"]).status == 0)

    // The same with a confirm command that allows it: the token comes through, and the
    // question named the ssh client that relayed it.
    let allowing = try await Self.startAgent(
      cli, ["--confirm", "forwarded"],
      ["AUTHTUI_CONFIRM_COMMAND": Self.command(cli, exiting: 0)])
    let allowed = try await Self.remoteToken(cli, through: server)
    let allowedLog = await server.log()
    #expect(allowed.status == 0, "\(allowed.stderr)\n\(allowedLog)")
    #expect(allowed.stdout == stored + "\n")
    let question = try String(contentsOfFile: cli.folder.file("question"), encoding: .utf8)
    #expect(question.hasPrefix("account: sandbox/alice\nrequester: forwarded by ssh (pid "))
    // The log of requests has the denial before, and this one allowed.
    let status = try await cli.run(["agent", "status", "--json"])
    #expect(
      status.stdout.contains(
        #""decision":"allowed","code":null,"exit":null,"confirmation":"allowed by AUTHTUI_CONFIRM_COMMAND""#
      ), "\(status.stdout)")
    let text = try await cli.run(["agent", "status"])
    #expect(
      text.stdout.contains("allowed by AUTHTUI_CONFIRM_COMMAND"), "\(text.stdout)")
    await server.stop()
    await AgentManagementTests.cleanUp(allowing, cli)
  }

  @Test func alwaysHoldsALocalRequestUntilTheConfirmCommandAllowsIt() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let pid = try await Self.startAgent(
      cli, ["--confirm", "always"], ["AUTHTUI_CONFIRM_COMMAND": Self.command(cli, exiting: 0)])
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    let allowed = try await cli.run(["token", "sandbox"], Self.wrongPassphrase)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(allowed.stdout == stored + "\n")
    // The question names the account as stored (not the bare provider asked for) and who asks.
    let question = try String(contentsOfFile: cli.folder.file("question"), encoding: .utf8)
    let lines = question.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(question)")
    #expect(lines.first == "account: sandbox/alice")
    #expect(lines.dropFirst().first?.hasPrefix("requester: authtui (pid ") == true, "\(question)")
    #expect(
      lines.last?.hasPrefix("authtui agent: allow authtui (pid ") == true
        && lines.last?.hasSuffix(
          " a token of sandbox/alice? (exit 0 allows this once, any other status denies)")
          == true,
      "\(question)")
    await AgentManagementTests.cleanUp(pid, cli)
  }

  @Test func aConfirmCommandThatExitsNonZeroDeniesWithExitSix() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let pid = try await Self.startAgent(
      cli, ["--confirm", "always"], ["AUTHTUI_CONFIRM_COMMAND": Self.command(cli, exiting: 1)])
    let denied = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(denied.status == 6)
    #expect(
      denied.stderr
        == "authtui: the agent asked for confirmation and AUTHTUI_CONFIRM_COMMAND denied it "
        + "(it exited with status 1)\n")
    #expect(denied.stdout.isEmpty)
    let status = try await cli.run(["agent", "status"])
    #expect(
      status.stdout.contains(
        "denied (not_confirmed, exit 6): denied by AUTHTUI_CONFIRM_COMMAND"), "\(status.stdout)")
    // `export` hands out the token too: held the same way.
    let export = try await cli.run(
      ["export", "sandbox/alice", "--env-file", cli.folder.file("env")], Self.wrongPassphrase)
    #expect(export.status == 6, "\(export.stderr)")
    #expect(FileManager.default.fileExists(atPath: cli.folder.file("env")) == false)
    // `list` hands out none: not held.
    let list = try await cli.run(["list"], Self.wrongPassphrase)
    #expect(list.status == 0, "\(list.stderr)")
    await AgentManagementTests.cleanUp(pid, cli)
  }

  @Test func stoppingTheAgentDeniesAHeldRequestAtOnceEndsItsCommandAndReturnsOnceItEnded()
    async throws
  {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    // The confirm command says it was asked (with its pid), then would wait far past any test.
    let asked = cli.folder.file("asked")
    let command =
      "cat >/dev/null; echo $$ >'\(asked).new'; mv '\(asked).new' '\(asked)'; exec sleep 900"
    let pid = try await Self.startAgent(
      cli, ["--confirm", "always"], ["AUTHTUI_CONFIRM_COMMAND": command])
    async let held = cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    let deadline = Date().addingTimeInterval(60)
    while !FileManager.default.fileExists(atPath: asked), Date() < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    let commandPID = try #require(
      Int32(try String(contentsOfFile: asked, encoding: .utf8).trimmingCharacters(in: .newlines)))
    let stop = try await cli.run(["agent", "stop"])
    #expect(stop.status == 0, "\(stop.stderr)")
    // Stopped means ended, the vault's key with it, and the confirm command with it.
    #expect(Self.hasEnded(pid))
    #expect(Self.hasEnded(commandPID))
    let denied = try await held
    #expect(denied.status == 6, "\(denied.stderr)")
    #expect(denied.stdout.isEmpty)
    #expect(
      denied.stderr
        == "authtui: the agent asked for confirmation, but it was stopped before anyone "
        + "answered; ask again\n")
  }

  /// True once `pid` is gone or a zombie nobody has reaped yet.
  static func hasEnded(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return true }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    guard let close = stat.lastIndex(of: ")") else { return true }
    let state = stat[stat.index(after: close)...].split(separator: " ").first
    return state == "Z" || state == "X"
  }

  @Test func withNobodyToAskTheRequestIsDeniedSayingWhereToConfirm() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let pid = try await Self.startAgent(
      cli, ["--confirm", "always"], ["AUTHTUI_CONFIRM_COMMAND": nil])
    let denied = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(denied.status == 6)
    #expect(
      denied.stderr
        == "authtui: the agent asked for confirmation, but no authtui was open on its vault "
        + "and AUTHTUI_CONFIRM_COMMAND is not set: open `authtui` on the vault's machine (it "
        + "asks in a dialog), or set AUTHTUI_CONFIRM_COMMAND for the agent\n")
    await AgentManagementTests.cleanUp(pid, cli)
  }

  @Test func forwardedLeavesALocalRequestUnheldAndAsksNobody() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let pid = try await Self.startAgent(
      cli, ["--confirm", "forwarded"],
      ["AUTHTUI_CONFIRM_COMMAND": Self.command(cli, exiting: 1)])
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    let answered = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(answered.status == 0, "\(answered.stderr)")
    #expect(answered.stdout == stored + "\n")
    // The command that would have denied it was never run.
    #expect(FileManager.default.fileExists(atPath: cli.folder.file("question")) == false)
    await AgentManagementTests.cleanUp(pid, cli)
  }

  @Test func anAccountOfConfigJSONIsHeldWithoutTheOption() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    try cli.folder.write(
      #"{"agent": {"confirm": {"sandbox/alice": "always"}}}"#, to: "config/config.json")
    let pid = try await Self.startAgent(cli, [], ["AUTHTUI_CONFIRM_COMMAND": nil])
    let denied = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(denied.status == 6)
    #expect(denied.stderr.contains("the agent asked for confirmation"), "\(denied.stderr)")
    await AgentManagementTests.cleanUp(pid, cli)
  }

  /// A rule for a name the vault does not hold (after `rename`, here) holds nothing: `rename`
  /// says so, `status` lists it as needing attention, and the agent names it as it starts.
  /// config.json is the user's, and stays as it was.
  @Test func aConfirmRuleThatNamesNoAccountIsNamedByRenameStatusAndTheAgent() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let rules = #"{"agent": {"confirm": {"sandbox/alice": "forwarded"}}}"#
    let config = try cli.folder.write(rules, to: "config/config.json")
    let before = try await cli.run(["status"])
    #expect(before.status == 0, "\(before.stdout)")
    #expect(!before.stdout.contains("agent.confirm"))

    let renamed = try await cli.run(["rename", "sandbox/alice", "alice2"])
    #expect(renamed.status == 0)
    #expect(renamed.stdout == "sandbox/alice is now sandbox/alice2.\n")
    #expect(
      renamed.stderr
        == "authtui: agent.confirm in \(config) still names sandbox/alice, so the agent no "
        + "longer holds sandbox/alice2's token requests for confirmation by that rule; edit the "
        + "file to name sandbox/alice2\n")
    #expect(try String(contentsOfFile: config, encoding: .utf8) == rules)

    let status = try await cli.run(["status"])
    #expect(status.status == 1)
    #expect(
      status.stdout.hasSuffix(
        "accounts  1 account, nothing needs attention\n\nconfig    \(config): 1 agent.confirm "
          + "rule needs attention:\n\nagent.confirm rule for sandbox/alice: names no account of "
          + "this vault (one renamed or signed out since?), so it holds no token request for "
          + "confirmation\n  fix: edit \(config): name the account as `authtui list` shows it, "
          + "or remove the rule\n"), "\(status.stdout)")
    let json = try await cli.run(["status", "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let unmatched = try #require(object["confirm_rules_needing_attention"] as? [[String: Any]])
    #expect(unmatched.map { $0["account"] as? String } == ["sandbox/alice"])
    #expect(unmatched.map { $0["problem"] as? String } == ["confirm_rule_unmatched"])

    let agent = try await AgentProcess.start(cli, [], ["AUTHTUI_CONFIRM_COMMAND": nil])
    #expect(agent.firstLine != nil)
    let line =
      "authtui agent: agent.confirm in \(config) names \"sandbox/alice\", which is no account "
      + "of this vault: that rule holds no request; name the accounts as `authtui list` shows "
      + "them\n"
    try await waitUntil("the agent names the rule") {
      await agent.child.standardError().contains(line)
    }
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test(arguments: [
    (
      #"{"agent": {"confirm": {"sandbox/alice": "alwys"}}}"#,
      "config.json:1: agent.confirm.sandbox/alice: must be \"forwarded\" or \"always\", "
        + "not \"alwys\""
    ),
    (
      #"{"agent": {"confirm": {"sandbox/alice": "always"}},}"#,
      "config.json:1: not valid JSON: trailing comma before '}'; remove the last comma"
    ),
    (
      #"{"agent": {"confirn": {"sandbox/alice": "always"}}}"#,
      "config.json:1: agent.confirn: unknown field"
    ),
    (
      #"{"agent": {"confirm": {"Sandbox/alice": "always"}}}"#,
      "agent.confirm: \"Sandbox/alice\" is not an account name (PROVIDER/LABEL)"
    ),
  ])
  func anAgentIsNotStartedOnConfirmationRulesConfigJSONCannotState(
    file: String, problem: String
  ) async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    try cli.folder.write(file, to: "config/config.json")
    let refused = try await cli.run(
      ["agent", "start", "--idle-timeout", "600"], ["AUTHTUI_CONFIRM_COMMAND": nil])
    #expect(refused.status == 1)
    #expect(
      refused.stderr.hasPrefix(
        "authtui: the agent did not start: it cannot tell from config.json which accounts need "
          + "confirmation (agent.confirm): "),
      "\(refused.stderr)")
    #expect(refused.stderr.contains(problem), "\(refused.stderr)")
    #expect(refused.stderr.hasSuffix("; fix the file, then start the agent again\n"))
    #expect(fileMode(cli.workspace.agentSocketPath) == nil)
    await cli.stop()
  }

  @Test func aRunningAgentKeepsItsRulesWhenConfigJSONBreaks() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    try cli.folder.write(
      #"{"agent": {"confirm": {"sandbox/alice": "always"}}}"#, to: "config/config.json")
    let agent = try await AgentProcess.start(cli, [], ["AUTHTUI_CONFIRM_COMMAND": nil])
    #expect(agent.firstLine != nil)
    try cli.folder.write(
      #"{"agent": {"confirm": {"sandbox/alice": "alwys"}}}"#, to: "config/config.json")
    await agent.child.kill(SIGHUP)
    try await waitUntil("the agent read config.json again") {
      await agent.child.standardError().contains(
        "; kept the confirmation rules as they were, config.json cannot state them: ")
    }
    let denied = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(denied.status == 6, "\(denied.stderr)")
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func aWrongConfirmValueIsAUsageError() async throws {
    let cli = try await CLIHarness.start()
    let wrong = try await cli.run(["agent", "start", "--confirm", "sometimes"])
    #expect(wrong.status == 2)
    #expect(wrong.stderr.hasPrefix("authtui: --confirm is forwarded or always, not \"sometimes\""))
    await cli.stop()
  }
}
