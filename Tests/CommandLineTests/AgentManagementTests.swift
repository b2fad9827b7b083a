import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui agent start`, `stop` and `status`, and `unlock_once`: the built binaries against
/// `authtui-sandbox`. As in AgentCommandTests, a client given a wrong passphrase proves that
/// its answer came from the agent.
@Suite struct AgentManagementTests {
  static let wrongPassphrase = AgentCommandTests.wrongPassphrase

  /// `agent start`'s line: `pid=PID socket=PATH`.
  static func started(_ result: ChildProcess.Result, _ cli: CLIHarness) throws -> Int32 {
    #expect(result.status == 0, "\(result.stderr)")
    let line = result.stdout
    let prefix = "pid="
    let suffix = " socket=\(cli.workspace.agentSocketPath)\n"
    #expect(line.hasPrefix(prefix) && line.hasSuffix(suffix), "\(line)")
    return try #require(Int32(line.dropFirst(prefix.count).dropLast(suffix.count)))
  }

  /// Stops whatever agent runs for `cli` (after a failed expectation too), by its pid.
  static func cleanUp(_ pid: Int32?, _ cli: CLIHarness) async {
    if let pid, fileMode(cli.workspace.agentSocketPath) != nil { kill(pid, SIGTERM) }
    await cli.stop()
  }

  @Test func startReturnsListeningServesTokenAndStopEndsIt() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let socket = cli.workspace.agentSocketPath
    let pid = try Self.started(try await cli.run(["agent", "start", "--idle-timeout", "600"]), cli)
    // It listens already: no wait before asking.
    #expect(fileMode(socket) == S_IFSOCK | 0o600)
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    let viaAgent = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    #expect(viaAgent.stdout == stored + "\n")
    let log = cli.folder.file("agent/agent.log")
    #expect(fileMode(log) == S_IFREG | 0o600)
    let logged = try String(contentsOfFile: log, encoding: .utf8)
    #expect(logged.hasPrefix("authtui agent (pid \(pid)) listening on \(socket) for the vault /"))

    let second = try await cli.run(["agent", "start"])
    #expect(second.status == 1)
    #expect(
      second.stderr
        == "authtui: an agent already runs: PID \(pid), on \(socket); stop it with "
        + "`authtui agent stop` or `kill \(pid)`, or set AUTHTUI_AGENT_SOCKET to run another\n")
    #expect(second.stdout.isEmpty)

    let stopped = try await cli.run(["agent", "stop"], Self.wrongPassphrase)
    #expect(stopped.status == 0, "\(stopped.stderr)")
    #expect(stopped.stdout == "stopped the agent (PID \(pid)) on \(socket)\n")
    #expect(fileMode(socket) == nil)
    #expect(try String(contentsOfFile: log, encoding: .utf8).contains("stopped (SIGTERM)"))
    // Back to unlocking the vault itself.
    let alone = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(alone.status == 3)
    #expect(try await cli.run(["token", "sandbox/alice"]).stdout == stored + "\n")

    let none = try await cli.run(["agent", "stop"])
    #expect(none.status == 1)
    #expect(
      none.stderr
        == "authtui: no agent runs on \(socket); start one with `authtui agent start`\n")
    await Self.cleanUp(nil, cli)
  }

  @Test func statusReportsTheAgentAndEachAccountsNextRefreshAsTextAndJSON() async throws {
    let cli = try await CLIHarness.start()
    let socket = cli.workspace.agentSocketPath
    let none = try await cli.run(["agent", "status"])
    #expect(none.status == 1)
    #expect(
      none.stderr
        == "authtui: no agent runs on \(socket); start one with `authtui agent start`\n")
    #expect(try await cli.run(["agent", "status", "--json"]).status == 1)

    try await cli.login("sandbox")
    let before = Date()
    let pid = try Self.started(try await cli.run(["agent", "start", "--idle-timeout", "900"]), cli)
    let vault = try cli.canonicalVaultPath()
    let status = try await cli.run(["agent", "status"], Self.wrongPassphrase)
    #expect(status.status == 0, "\(status.stderr)")
    let lines = status.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 12, "\(status.stdout)")
    #expect(lines.prefix(3) == ["pid      \(pid)", "socket   \(socket)", "vault    \(vault)"])
    #expect(lines[3].hasPrefix("since    20"))
    #expect(lines[4] == "idle     stops after 15m without a request")
    #expect(lines[5] == "ends     when stopped (no --lifetime)")
    #expect(lines[6] == "")
    #expect(lines[7].hasPrefix("ACCOUNT        STATUS  EXPIRES"))
    #expect(lines[7].hasSuffix("NEXT REFRESH"))
    #expect(lines[8].hasPrefix("sandbox/alice  valid   20"))
    #expect(lines[9] == "")
    // `agent start`'s ping and this `status` are not kept.
    #expect(lines[10] == "No requests since the agent started.")

    let json = try await cli.run(["agent", "status", "--json"], Self.wrongPassphrase)
    #expect(json.status == 0, "\(json.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["pid"] as? Int == Int(pid))
    #expect(object["socket"] as? String == socket)
    #expect(object["vault"] as? String == vault)
    #expect(object["idle_timeout"] as? Int == 900)
    let formatter = ISO8601DateFormatter()
    func date(_ value: Any?) throws -> Date {
      try #require(
        (value as? String).flatMap(formatter.date(from:)), "\(String(describing: value))")
    }
    let since = try date(object["since"])
    #expect(since >= before.addingTimeInterval(-1) && since <= Date())
    let accounts = try #require(object["accounts"] as? [[String: Any]])
    #expect(accounts.count == 1)
    let alice = try #require(accounts.first)
    #expect(alice["account"] as? String == "sandbox/alice")
    #expect(alice["status"] as? String == "valid")
    #expect(alice["refreshable"] as? Bool == true)
    // RefreshSchedule's time for the stored token: a quarter of its lifetime, at most five
    // minutes, before it expires.
    let expiresAt = try date(alice["expires_at"])
    let next = try date(alice["next_refresh"])
    #expect(try date(try await cli.accounts().first?["expires_at"]) == expiresAt)
    #expect(next < expiresAt && next >= expiresAt.addingTimeInterval(-300 - 1))
    #expect(lines[8].hasSuffix(try #require(alice["next_refresh"] as? String)))
    #expect(object["ends_at"] is NSNull)
    #expect((object["requests"] as? [Any])?.isEmpty == true)
    #expect(try await cli.run(["agent", "stop"]).status == 0)
    await Self.cleanUp(pid, cli)
  }

  @Test func theAgentsArgumentsAndEnvironmentHoldNoPassphrase() async throws {
    let cli = try await CLIHarness.start()
    let pid = try Self.started(
      try await cli.run(["agent", "start", "--idle-timeout", "600"]), cli)
    let arguments = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
    let words = arguments.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    #expect(Array(words.dropFirst()).prefix(2) == ["agent", "--vault"])
    #expect(words.contains("--handover-fd"))
    // The agent is not dumpable: root (these tests) can read its environment, others cannot.
    let environment = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
    let variables = environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    #expect(variables.contains("AUTHTUI_AGENT_SOCKET=\(cli.workspace.agentSocketPath)"))
    #expect(!variables.contains { $0.hasPrefix("AUTHTUI_PASSPHRASE") })
    let passphrase = Data(SandboxWorkspace.passphrase.utf8)
    #expect(arguments.range(of: passphrase) == nil)
    #expect(environment.range(of: passphrase) == nil)
    // Its standard input is /dev/null, and it leads a session of its own, off the terminal.
    let input = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/0")
    #expect(input == "/dev/null")
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    let fields = stat[try #require(stat.range(of: ") ")).upperBound...].split(separator: " ")
    #expect(fields[3] == "\(pid)", "session id")
    #expect(try await cli.run(["agent", "stop"]).status == 0)
    await Self.cleanUp(pid, cli)
  }

  @Test func unlockOnceLeavesAnAgentThatTheNextCallUsesAndIsOffByDefault() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let socket = cli.workspace.agentSocketPath
    // Off by default: `login` and `token` unlocked the vault and left nothing behind.
    #expect(try await cli.run(["token", "sandbox/alice"]).status == 0)
    #expect(fileMode(socket) == nil)

    let settings = cli.workspace.configPath + "/config.json"
    // idle_timeout as --idle-timeout writes it.
    try #"{"agent": {"unlock_once": true, "idle_timeout": "90m"}}"#.write(
      toFile: settings, atomically: true, encoding: .utf8)
    let first = try await cli.run(["token", "sandbox/alice"])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.isEmpty)
    #expect(fileMode(socket) == S_IFSOCK | 0o600)
    let second = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout == first.stdout)
    let status = try await cli.run(["agent", "status", "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
    #expect(object["idle_timeout"] as? Int == 5400)
    let text = try await cli.run(["agent", "status"])
    #expect(
      text.stdout.split(separator: "\n").contains("idle     stops after 90m without a request"),
      "\(text.stdout)")
    let pid = object["pid"] as? Int
    #expect(try await cli.run(["agent", "stop"]).status == 0)

    // AUTHTUI_NO_AGENT=1 asks no agent and leaves none.
    let bypass = try await cli.run(["token", "sandbox/alice"], ["AUTHTUI_NO_AGENT": "1"])
    #expect(bypass.status == 0, "\(bypass.stderr)")
    #expect(fileMode(socket) == nil)
    await Self.cleanUp(pid.map(Int32.init), cli)
  }

  /// An `agent.idle_timeout` config.json cannot read is named with its file, line and the
  /// forms it takes (`agent start` checks the agent object before it asks for anything); no
  /// agent is left running on a guess, and `token` goes on.
  @Test func unlockOnceNamesAnIdleTimeoutItCannotRead() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    try #"{"agent": {"unlock_once": true, "idle_timeout": "90 minutes"}}"#.write(
      toFile: cli.workspace.configPath + "/config.json", atomically: true, encoding: .utf8)
    let start = try await cli.run(["agent", "start"])
    #expect(start.status != 0)
    #expect(
      start.stderr.contains(
        "~/config/config.json:1: agent.idle_timeout: must be a duration such as 90s, 15m, 8h or "
          + "2d (a bare number is seconds), from 0 (never) to 365d, not \"90 minutes\"; fix the "
          + "file"), "\(start.stderr)")
    let token = try await cli.run(["token", "sandbox/alice"])
    #expect(token.status == 0, "\(token.stderr)")
    #expect(token.stderr.hasPrefix("authtui: could not leave an agent running"), "\(token.stderr)")
    #expect(fileMode(cli.workspace.agentSocketPath) == nil)
    await cli.stop()
  }

  /// Another user planted the folder the socket's path is derived from (XDG_RUNTIME_DIR's
  /// `authtui` here, as `/tmp/authtui-UID` would be without it): every agent command and
  /// `status` name it, its owner and mode, and the fix, never "no agent runs … start one".
  /// Needs root, to give the folder away.
  @Test(.enabled(if: geteuid() == 0))
  func aSocketFolderNotOwnedIsNamedWithItsFixByEveryAgentCommandAndStatus() async throws {
    let cli = try await CLIHarness.start()
    let runtime = cli.folder.file("runtime")
    #expect(mkdir(runtime, 0o700) == 0)
    let planted = runtime + "/authtui"
    #expect(mkdir(planted, 0o700) == 0)
    #expect(chown(planted, 65534, 65534) == 0)
    let environment: [String: String?] = ["AUTHTUI_AGENT_SOCKET": nil, "XDG_RUNTIME_DIR": runtime]
    let elsewhere =
      "or set AUTHTUI_AGENT_SOCKET to a path in a folder only you can use (or XDG_RUNTIME_DIR "
      + "to your own runtime folder)"
    let notOwned =
      "the agent's folder \(planted) belongs to another user (uid 65534, mode 0700; you are "
      + "uid 0), who could read or replace its socket, so no agent can listen there; remove it "
      + "as its owner (uid 65534) or as root (`rm -r '\(planted)'`), \(elsewhere)"
    for command in [["agent", "status"], ["agent", "stop"], ["agent", "start"], ["agent"]] {
      let result = try await cli.run(command, environment)
      #expect(result.status == 1, "\(command)")
      #expect(result.stderr == "authtui: \(notOwned)\n", "\(command)")
    }
    let status = try await cli.run(["status"], environment)
    #expect(status.status == 1)
    #expect(status.stdout.contains("\nagent     cannot be used: \(notOwned)\n"), "\(status.stdout)")
    #expect(!status.stdout.contains("not running"))
    let json = try await cli.run(["status", "--json"], environment)
    #expect(json.status == 1)
    let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let agent = report?["agent"] as? [String: Any]
    #expect(agent?["running"] as? Bool == false)
    #expect(agent?["problem"] as? String == notOwned)
    #expect(try FileManager.default.contentsOfDirectory(atPath: planted).isEmpty)

    // A link in the folder's place, even one to a folder of one's own.
    #expect(rmdir(planted) == 0)
    #expect(mkdir(runtime + "/mine", 0o700) == 0)
    #expect(symlink(runtime + "/mine", planted) == 0)
    let linked = try await cli.run(["agent", "status"], environment)
    #expect(linked.status == 1)
    #expect(
      linked.stderr
        == "authtui: the agent's folder \(planted) is a symbolic link (owner uid 0), not a "
        + "folder, so no agent can listen there; remove it (`rm -r '\(planted)'`), \(elsewhere)\n")
    await cli.stop()
  }

  @Test func startRefusesAWrongPassphraseBeforeStartingAnything() async throws {
    let cli = try await CLIHarness.start()
    let refused = try await cli.run(["agent", "start"], Self.wrongPassphrase)
    #expect(refused.status == 3)
    #expect(refused.stderr.contains("AUTHTUI_PASSPHRASE does not open the vault"))
    #expect(refused.stdout.isEmpty)
    #expect(fileMode(cli.workspace.agentSocketPath) == nil)
    await cli.stop()
  }
}
