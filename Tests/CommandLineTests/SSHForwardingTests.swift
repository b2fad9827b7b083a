import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui ssh` through a real OpenSSH server (`SSHServer`), and the agent's lifetime and log
/// of requests, with the built binary.
@Suite struct SSHForwardingTests {
  static let wrongPassphrase = AgentCommandTests.wrongPassphrase

  @Test func aRemoteTokenWithNoVaultThereAnswersFromTheLocalAgentAndItsSocketGoesAfter()
    async throws
  {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let stored = try await cli.run(["token", "sandbox/alice"]).stdout
    let pid = try AgentManagementTests.started(try await cli.run(["agent", "start"]), cli)
    let server = try await SSHServer.start()
    // On the remote side: where the socket is, its folder's mode, a word with a quote and a
    // space passed as one, then `authtui token` with no vault, no passphrase and no agent of
    // its own: only the forwarded socket can answer.
    let script =
      #"echo "$AUTHTUI_AGENT_SOCKET"; stat -c %a "${AUTHTUI_AGENT_SOCKET%/*}"; "#
      + #"printf '%s\n' "$1"; exec env -u AUTHTUI_PASSPHRASE HOME=/nonexistent "#
      + "XDG_DATA_HOME=/nonexistent AUTHTUI_VAULT=/nonexistent/vault.db "
      + "\(Products.authtui) token sandbox/alice"
    let session = try await cli.run(
      ["ssh", "-F", server.clientConfig, server.host, "--", "sh", "-c", script, "sh", "it's one"],
      Self.wrongPassphrase)
    let log = await server.log()
    #expect(session.status == 0, "\(session.stderr)\n\(log)")
    let lines = session.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 5, "\(session.stdout)")
    let socket = String(lines.first ?? "")
    #expect(socket.hasPrefix("/tmp/authtui-fwd-") && socket.hasSuffix("/agent.sock"), "\(socket)")
    #expect(Array(lines.dropFirst()) == ["700", "it's one", Substring(stored.dropLast()), ""])
    // Gone with the session: the socket, its folder, and the path sshd bound it at.
    let folder = String(socket.dropLast("/agent.sock".count))
    #expect(fileMode(socket) == nil)
    #expect(fileMode(folder) == nil)
    #expect(fileMode(folder + ".sock") == nil)

    // The agent knows the request came through ssh, and from which host the remote said.
    let status = try await cli.run(["agent", "status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
    let requests = try #require(object["requests"] as? [[String: Any]])
    let forwarded = try #require(requests.last, "\(status.stdout)")
    #expect(forwarded["op"] as? String == "token")
    #expect(forwarded["account"] as? String == "sandbox/alice")
    #expect(forwarded["decision"] as? String == "allowed")
    let requester = try #require(forwarded["requester"] as? [String: Any])
    #expect(requester["kind"] as? String == "forwarded")
    #expect(requester["via"] as? String == "ssh")
    var name = [CChar](repeating: 0, count: 256)
    gethostname(&name, name.count - 1)
    let host = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #expect(requester["remote_host"] as? String == host)
    #expect(!status.stdout.contains(String(stored.dropLast())))
    await server.stop()
    #expect(try await cli.run(["agent", "stop"]).status == 0)
    await AgentManagementTests.cleanUp(pid, cli)
  }

  /// A forward lends the remote machine tokens, not the accounts: signing out (which revokes
  /// at the provider), renaming and the default are refused from there, and nothing changes.
  @Test func aForwardedAgentDoesNotSignOutRenameOrChangeTheDefault() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let pid = try AgentManagementTests.started(try await cli.run(["agent", "start"]), cli)
    let server = try await SSHServer.start()
    let remote =
      "env -u AUTHTUI_PASSPHRASE HOME=/nonexistent XDG_DATA_HOME=/nonexistent "
      + "AUTHTUI_VAULT=/nonexistent/vault.db \(Products.authtui)"
    let script = [
      "logout sandbox/alice --no-browser", "rename sandbox/alice bob", "default sandbox/alice",
      "default --clear sandbox",
    ].map { "\(remote) \($0); echo \"status $?\"" }.joined(separator: "; ")
    let session = try await cli.run(
      ["ssh", "-F", server.clientConfig, server.host, "--", "sh", "-c", script],
      Self.wrongPassphrase)
    let log = await server.log()
    #expect(session.status == 0, "\(session.stderr)\n\(log)")
    #expect(session.stdout == String(repeating: "status 1\n", count: 4), "\(session.stdout)")
    let refusal =
      "authtui: a forwarded agent hands out tokens, but does not sign out, rename or change "
      + "the default of the accounts it serves; do that on the machine that holds the vault\n"
    #expect(session.stderr == String(repeating: refusal, count: 4), "\(session.stderr)")
    // Still signed in, under its name, and never revoked.
    let list = try await cli.run(["list", "--json"])
    #expect(list.stdout.contains("\"account\":\"sandbox/alice\""), "\(list.stdout)")
    #expect(try await cli.run(["token", "sandbox/alice"]).status == 0)
    #expect(await cli.stat("revocations") == 0)
    await server.stop()
    #expect(try await cli.run(["agent", "stop"]).status == 0)
    await AgentManagementTests.cleanUp(pid, cli)
  }

  /// On the remote side, the forwarded agent is the other machine's: `agent status` and
  /// `status` show it as such (its pid is not the socket's peer, sshd is), `list` does not
  /// judge its accounts by this machine's (empty) provider folder, and `agent stop` does not
  /// signal a process of this machine by that machine's pid. Once it stops answering,
  /// `token` and `status` say so rather than advise creating a vault here.
  @Test func theRemoteSideNamesTheForwardedAgentAsTheOtherMachinesAndSaysWhenItIsGone()
    async throws
  {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let pid = try AgentManagementTests.started(try await cli.run(["agent", "start"]), cli)
    let server = try await SSHServer.start()
    let out = cli.folder.file("remote")
    let remote =
      "env -u AUTHTUI_PASSPHRASE -u AUTHTUI_CONFIG_DIR HOME=/nonexistent "
      + "XDG_DATA_HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent AUTHTUI_VAULT=/nonexistent/vault.db \(Products.authtui)"
    // Each command's output in files of its own; between the two halves the agent is stopped
    // on its own socket, as on the machine that runs it.
    let commands = [
      "agent status", "status", "list", "agent stop", "STOP", "token sandbox/alice", "status",
    ]
    let script = commands.enumerated().map { index, command in
      command == "STOP"
        ? "env AUTHTUI_AGENT_FORWARDED= AUTHTUI_AGENT_SOCKET='\(cli.workspace.agentSocketPath)' "
          + "\(Products.authtui) agent stop >/dev/null"
        : "\(remote) \(command) >'\(out)\(index).out' 2>'\(out)\(index).err'; "
          + "echo $? >'\(out)\(index).status'"
    }.joined(separator: "; ")
    let session = try await cli.run(
      ["ssh", "-F", server.clientConfig, server.host, "--", "sh", "-c", script],
      Self.wrongPassphrase)
    let log = await server.log()
    #expect(session.status == 0, "\(session.stderr)\n\(log)")
    func result(_ index: Int) -> (status: String, out: String, err: String) {
      func read(_ suffix: String) -> String {
        (try? String(contentsOfFile: "\(out)\(index).\(suffix)", encoding: .utf8)) ?? ""
      }
      return (read("status"), read("out"), read("err"))
    }
    let socketLine = try #require(
      result(0).out.split(separator: "\n").first { $0.hasPrefix("socket   ") })
    let socket = String(socketLine.dropFirst("socket   ".count))
    let words = "the agent of the other machine, reached through ssh (AUTHTUI_AGENT_FORWARDED=1)"

    let agentStatus = result(0)
    #expect(agentStatus.status == "0\n", "\(agentStatus.err)")
    #expect(agentStatus.err == "")
    // The other machine's agent keeps its accounts and log to itself (`status_forwarded`).
    #expect(
      agentStatus.out
        == "agent    \(words): its pid and vault are that machine's, and it answers for that "
        + "vault whatever vault this command names\npid      \(pid)\nsocket   \(socket)\n"
        + "vault    \(cli.workspace.vaultPath)\nnote     its accounts and the requests it "
        + "answered are shown on that machine only (`authtui agent status` there): a forward "
        + "lends tokens, not the agent's log\n", "\(agentStatus.out)")

    let status = result(1)
    #expect(status.status == "0\n", "\(status.out)\n\(status.err)")
    #expect(
      status.out.contains(
        "\nagent     running: \(words), pid \(pid) there, serving that machine's vault "
          + "\(cli.workspace.vaultPath)\n"), "\(status.out)")
    #expect(status.out.hasSuffix("accounts  1 account, nothing needs attention\n"))

    let list = result(2)
    #expect(list.status == "0\n")
    #expect(list.err == "", "\(list.err)")
    let row = try #require(list.out.split(separator: "\n").dropFirst().first)
    #expect(row.split(separator: " ").prefix(2) == ["sandbox/alice", "valid"], "\(list.out)")
    #expect(row.split(separator: " ").dropFirst(3).first == "yes", "\(list.out)")

    let stop = result(3)
    #expect(stop.status == "1\n")
    #expect(
      stop.err
        == "authtui: the agent on \(socket) is \(words); stop it there with `authtui agent stop`\n")

    let token = result(5)
    let gone =
      "the agent of the other machine does not answer through the ssh forward on \(socket) "
      + "(AUTHTUI_AGENT_FORWARDED=1)"
    let advice =
      ": it is not running there (stopped, or locked with `authtui vault lock`), or this ssh "
      + "session's forward is gone; start it on that machine with `authtui agent start`, then "
      + "reconnect with `authtui ssh`"
    #expect(token.status == "3\n")
    #expect(token.out == "")
    #expect(
      token.err
        == "authtui: \(gone), and there is no vault here at /nonexistent/vault.db\(advice)\n")

    let after = result(6)
    #expect(after.status == "1\n")
    #expect(after.out.contains("\nagent     cannot be used: \(gone)\(advice)\n"), "\(after.out)")
    await server.stop()
    await AgentManagementTests.cleanUp(pid, cli)
  }

  @Test func withoutACommandALoginShellOnATerminalHasTheAgent() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let stored = String(try await cli.run(["token", "sandbox/alice"]).stdout.dropLast())
    let pid = try AgentManagementTests.started(try await cli.run(["agent", "start"]), cli)
    let server = try await SSHServer.start()
    var changes = cli.workspace.environmentChanges()
    changes["AUTHTUI_PASSPHRASE"] = nil
    let command =
      "'\(Products.authtui)' ssh -F '\(server.clientConfig)' \(server.host); "
      + "echo ssh-exit=$?; exec sleep 600"
    let socketFile = cli.folder.file("remote-socket")
    try await TmuxSession.run(command, columns: 200, environment: changes) { tmux in
      // The remote login shell, on a terminal of its own (`-t`).
      try await tmux.type(
        "[ -t 0 ] && echo \"$AUTHTUI_AGENT_SOCKET\" > '\(socketFile)' && "
          + "t=$(env HOME=/nonexistent AUTHTUI_VAULT=/nonexistent/vault.db "
          + "'\(Products.authtui)' token sandbox/alice) && [ \"$t\" = '\(stored)' ] && "
          + "echo remote-token-$((6 * 7))")
      try await tmux.sendKeys("Enter")
      // What the shell printed, not what was typed.
      try await tmux.waitFor("remote-token-42")
      try await tmux.type("exit")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("ssh-exit=0")
    }
    let socket = try String(contentsOfFile: socketFile, encoding: .utf8)
      .trimmingCharacters(in: .newlines)
    #expect(socket.hasPrefix("/tmp/authtui-fwd-") && socket.hasSuffix("/agent.sock"), "\(socket)")
    #expect(fileMode(socket) == nil)
    #expect(fileMode(String(socket.dropLast("/agent.sock".count))) == nil)
    await server.stop()
    #expect(try await cli.run(["agent", "stop"]).status == 0)
    await AgentManagementTests.cleanUp(pid, cli)
  }

  @Test func sshWithoutAnAgentRefusesBeforeSSHStarts() async throws {
    let cli = try await CLIHarness.start()
    // A program that would leave a mark if it ran.
    let mark = cli.folder.file("ssh-ran")
    let fake = try cli.folder.write("#!/bin/sh\ntouch '\(mark)'\n", to: "fake-ssh")
    chmod(fake, 0o755)
    let refused = try await cli.run(
      ["ssh", "somehost", "--", "true"], ["AUTHTUI_SSH": fake])
    #expect(refused.status == 3)
    #expect(
      refused.stderr
        == "authtui: no agent runs on \(cli.workspace.agentSocketPath), so there is nothing to "
        + "forward; start one with `authtui agent start` (e.g. `authtui agent start --lifetime "
        + "8h`) and run `authtui ssh` again\n")
    #expect(fileMode(mark) == nil)
    await cli.stop()
  }

  @Test func agentStatusShowsItsEndAndEachRequestWithItsDecision() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let before = Date()
    let pid = try AgentManagementTests.started(
      try await cli.run(["agent", "start", "--lifetime", "2h"]), cli)
    let allowed = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    let denied = try await cli.run(["token", "sandbox/nobody"], Self.wrongPassphrase)
    #expect(denied.status == 4, "\(denied.stderr)")

    let text = try await cli.run(["agent", "status"], Self.wrongPassphrase)
    #expect(text.status == 0, "\(text.stderr)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    let ends = try #require(lines.first { $0.hasPrefix("ends     ") })
    #expect(ends.hasSuffix(" (its --lifetime: it then forgets the key and stops)"))
    let header = try #require(lines.firstIndex(of: "Recent requests, oldest first:"))
    #expect(lines.count == header + 4, "\(text.stdout)")
    let rows = lines[(header + 1)...].map { $0.split(separator: " ").map(String.init) }
    #expect(rows[0] == ["TIME", "OP", "ACCOUNT", "REQUESTER", "DECISION"])
    // The front of `authtui` asked, named by its process name and pid.
    #expect(rows[1].dropFirst().prefix(3) == ["token", "sandbox/alice", "authtui"])
    #expect(rows[1].last == "allowed")
    #expect(rows[2].dropFirst().prefix(3) == ["token", "sandbox/nobody", "authtui"])
    #expect(text.stdout.contains("denied (no_such_account, exit 4)"))

    let json = try await cli.run(["agent", "status", "--json"], Self.wrongPassphrase)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let endsAt = try #require(
      (object["ends_at"] as? String).flatMap(ISO8601DateFormatter().date(from:)))
    #expect(
      endsAt >= before.addingTimeInterval(7200 - 1) && endsAt <= Date().addingTimeInterval(7200))
    let requests = try #require(object["requests"] as? [[String: Any]])
    #expect(requests.map { $0["account"] as? String } == ["sandbox/alice", "sandbox/nobody"])
    #expect(requests.map { $0["decision"] as? String } == ["allowed", "denied"])
    #expect(requests.map { $0["code"] as? String } == [nil, "no_such_account"])
    #expect(requests.map { $0["exit"] as? Int } == [nil, 4])
    let requester = try #require(requests.first?["requester"] as? [String: Any])
    #expect(requester["kind"] as? String == "local")
    #expect(requester["name"] as? String == "authtui")
    #expect(try await cli.run(["agent", "stop"]).status == 0)
    await AgentManagementTests.cleanUp(pid, cli)
  }

  @Test func anAgentStopsWhenItsLifetimeEndsAndForgetsTheKey() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let socket = cli.workspace.agentSocketPath
    _ = try AgentManagementTests.started(
      try await cli.run(["agent", "start", "--lifetime", "2s"]), cli)
    try await waitUntil("the agent's lifetime ends") { fileMode(socket) == nil }
    let log = cli.folder.file("agent/agent.log")
    try await waitUntil("the agent says why it stopped") {
      ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains(
        "authtui agent: stopped: its lifetime (2s) ended; it forgot the vault's key "
          + "(`authtui agent start` starts a new one)")
    }
    // Nothing answers for the vault any more: without the passphrase, the vault stays locked.
    let alone = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(alone.status == 3, "\(alone.stderr)")
    await cli.stop()
  }
}
