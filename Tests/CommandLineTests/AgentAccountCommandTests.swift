import Foundation
import TestSupport
import Testing
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// `list`, `export` and `logout` through `authtui agent`: the built binaries against
/// `authtui-sandbox`. Each runs with no passphrase variable and with a wrong one (had it
/// unlocked the vault itself, it would have exited 3), and prints exactly what the same command
/// prints when it unlocks the vault itself (`AUTHTUI_NO_AGENT=1`, the right passphrase).
@Suite struct AgentAccountCommandTests {
  static let noPassphrase: [String: String?] = [
    "AUTHTUI_PASSPHRASE": nil, "AUTHTUI_PASSPHRASE_FILE": nil, "AUTHTUI_PASSPHRASE_COMMAND": nil,
  ]
  static let wrongPassphrase: [String: String?] = ["AUTHTUI_PASSPHRASE": "not the passphrase"]
  static let bypass: [String: String?] = ["AUTHTUI_NO_AGENT": "1"]

  /// What a run printed and how it ended, for comparing two runs.
  static func outcome(_ result: ChildProcess.Result) -> [String] {
    ["\(result.status)", result.stdout, result.stderr]
  }

  @Test func listAndListJSONNeedNoPassphraseThroughTheAgentAndPrintTheSame() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try await cli.login("sandbox", as: "bob")
    try await cli.login("sandbox", as: "user10")
    try await cli.login("sandbox", as: "user2")
    try await VaultFileEditor.flipBit(
      inCell: "access_token", ofAccount: 2, vaultAt: cli.workspace.vaultPath)
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)

    for arguments in [["list", "--json"], ["list"]] {
      let alone = try await cli.run(arguments, Self.bypass)
      #expect(alone.status == 0, "\(alone.stderr)")
      #expect(alone.stdout.contains("sandbox/user2"))
      // The damaged row is reported the same way both times, on standard error.
      #expect(alone.stderr.contains("account #2 (sandbox/bob) is damaged"))
      for changes in [Self.noPassphrase, Self.wrongPassphrase] {
        let viaAgent = try await cli.run(arguments, changes)
        #expect(Self.outcome(viaAgent) == Self.outcome(alone), "\(arguments) \(changes)")
      }
    }
    let rows = try #require(
      try JSONSerialization.jsonObject(
        with: Data(try await cli.run(["list", "--json"], Self.noPassphrase).stdout.utf8))
        as? [[String: Any]])
    #expect(
      rows.map { $0["account"] as? String } == ["sandbox/alice", "sandbox/user2", "sandbox/user10"])
    #expect(rows.allSatisfy { $0["status"] as? String == "valid" })

    // Stopped, the agent answers nothing: list unlocks the vault again, as before.
    #expect(await agent.stop().status == 0)
    let locked = try await cli.run(["list", "--json"], Self.wrongPassphrase)
    #expect(locked.status == 3)
    #expect(locked.stderr.contains("AUTHTUI_PASSPHRASE does not open the vault"))
    let unlocked = try await cli.run(["list", "--json"])
    #expect(unlocked.status == 0)
    #expect(unlocked.stdout.contains("\"account\":\"sandbox/user10\""))
    await cli.stop()
  }

  @Test func aListingLongerThanAClientReadsIsDeclinedAndListReadsTheVaultItself() async throws {
    let cli = try await CLIHarness.start()
    // 300 accounts with long scopes: about 150 KB of listing, over the 64 KiB a client reads.
    let scopes = (1...12).map { "https://api.example.com/auth/scope-\($0)" }
    try await cli.workspace.withVault { vault in
      _ = try await vault.insert(
        contentsOf: (1...300).map { index in
          NewAccount(
            providerID: "sandbox", label: "user\(index)",
            tokens: TokenSet(
              accessToken: "stored-\(index)", scopes: scopes,
              expiresAt: Date().addingTimeInterval(3600), obtainedAt: Date()))
        })
    }
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let vault = try cli.canonicalVaultPath()
    let declined = try #require(
      await AgentWire.ask(cli.workspace.agentSocketPath, #"{"op":"list","vault":"\#(vault)"}"#))
    #expect(declined["code"] as? String == "answer_too_long")
    #expect(
      (declined["message"] as? String)?.hasSuffix(
        "bytes a client reads; run the command with AUTHTUI_NO_AGENT=1") == true)

    let alone = try await cli.run(["list", "--json"], Self.bypass)
    #expect(alone.status == 0, "\(alone.stderr)")
    #expect(alone.stdout.utf8.count > 65536)
    let fallback = try await cli.run(["list", "--json"])
    #expect(Self.outcome(fallback) == Self.outcome(alone))
    // Declined, so the command needed the passphrase after all.
    let locked = try await cli.run(["list", "--json"], Self.wrongPassphrase)
    #expect(locked.status == 3)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func exportWritesTheAgentsTokenToAPrivateEnvFileWithoutAPassphrase() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let agent = try await AgentProcess.start(cli)
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    let envFile = cli.folder.file("tokens.env")

    let alone = try await cli.run(
      ["export", "sandbox/alice", "--env-file", envFile], Self.bypass)
    #expect(alone.status == 0, "\(alone.stderr)")
    let written = try String(contentsOfFile: envFile, encoding: .utf8)
    #expect(written.hasPrefix("SANDBOX_TOKEN='\(stored)'\nSANDBOX_TOKEN_EXPIRES_AT='"))
    for changes in [Self.noPassphrase, Self.wrongPassphrase] {
      #expect(unlink(envFile) == 0)
      let viaAgent = try await cli.run(["export", "sandbox/alice", "--env-file", envFile], changes)
      #expect(Self.outcome(viaAgent) == Self.outcome(alone), "\(changes)")
      #expect(
        viaAgent.stdout
          == "Wrote SANDBOX_TOKEN and SANDBOX_TOKEN_EXPIRES_AT to \(envFile) (mode 0600).\n")
      #expect(fileMode(envFile) == S_IFREG | 0o600)
      #expect(try String(contentsOfFile: envFile, encoding: .utf8) == written)
    }
    // --var names the variable, and the file's other lines stay.
    let named = try await cli.run(
      ["export", "sandbox", "--env-file", envFile, "--var", "MY_TOKEN"], Self.noPassphrase)
    #expect(named.status == 0, "\(named.stderr)")
    let both = try String(contentsOfFile: envFile, encoding: .utf8)
    #expect(both.hasPrefix(written))
    #expect(both.contains("MY_TOKEN='\(stored)'\n"))
    // The stored token had more than a minute left: neither way refreshed it.
    #expect(await cli.stat("refreshes") == 0)

    // A failure is the agent's, with the exit status and message of the command alone.
    let missingAlone = try await cli.run(
      ["export", "sandbox/alcie", "--env-file", envFile], Self.bypass)
    let missing = try await cli.run(
      ["export", "sandbox/alcie", "--env-file", envFile], Self.noPassphrase)
    #expect(missing.status == 4)
    #expect(missing.stderr == "authtui: no account sandbox/alcie; did you mean `sandbox/alice`?\n")
    #expect(Self.outcome(missing) == Self.outcome(missingAlone))
    // The clipboard needs a terminal or a display, here neither: the same refusal both ways.
    let clipboardAlone = try await cli.run(["export", "sandbox", "--clipboard"], Self.bypass)
    let clipboard = try await cli.run(["export", "sandbox", "--clipboard"], Self.noPassphrase)
    #expect(clipboard.status == clipboardAlone.status)
    #expect(Self.outcome(clipboard) == Self.outcome(clipboardAlone))

    #expect(await agent.stop().status == 0)
    #expect(unlink(envFile) == 0)
    let locked = try await cli.run(["export", "sandbox", "--env-file", envFile], Self.noPassphrase)
    #expect(locked.status == 3, "\(locked.stderr)")
    #expect(fileMode(envFile) == nil)
    let unlocked = try await cli.run(["export", "sandbox", "--env-file", envFile])
    #expect(unlocked.status == 0, "\(unlocked.stderr)")
    #expect(try String(contentsOfFile: envFile, encoding: .utf8) == written)
    await cli.stop()
  }

  @Test func logoutThroughTheAgentRevokesOnceAndSaysWhatLogoutAloneSays() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try await cli.login("sandbox", as: "bob")
    try await cli.login("sandbox", as: "carol")
    let agent = try await AgentProcess.start(cli)

    let alone = try await cli.run(["logout", "sandbox/bob"], Self.bypass)
    #expect(alone.status == 0, "\(alone.stderr)")
    #expect(await cli.stat("revocations") == 2)
    let viaAgent = try await cli.run(["logout", "sandbox/alice"], Self.noPassphrase)
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    #expect(
      viaAgent.stdout
        == "Signed out of sandbox/alice: the provider revoked its tokens, and it was removed here.\n"
    )
    #expect(viaAgent.stdout == alone.stdout.replacingOccurrences(of: "bob", with: "alice"))
    // The sign-out page is opened from here, as by logout alone.
    #expect(viaAgent.stderr.contains("Opened the provider's sign-out page"))
    #expect(viaAgent.stderr == alone.stderr)
    #expect(await cli.stat("revocations") == 4)

    // Revocation fails in the agent: the same exit status 7 and message, the account gone.
    await cli.hook("fault", #"{"path": "/oidc/revoke", "kind": "status500", "count": 2}"#)
    let failing = try await cli.run(["logout", "sandbox/carol"], Self.wrongPassphrase)
    #expect(failing.status == 7)
    #expect(failing.stdout == "Removed sandbox/carol from this vault.\n")
    #expect(failing.stderr.contains("may keep working until they expire"))
    let missingAlone = try await cli.run(["logout", "sandbox/alice"], Self.bypass)
    let missing = try await cli.run(["logout", "sandbox/alice"], Self.noPassphrase)
    #expect(missing.status == 4)
    #expect(Self.outcome(missing) == Self.outcome(missingAlone))
    #expect(try await cli.accounts().isEmpty)

    #expect(await agent.stop().status == 0)
    try await cli.login("sandbox", as: "dave")
    let locked = try await cli.run(["logout", "sandbox/dave"], Self.noPassphrase)
    #expect(locked.status == 3, "\(locked.stderr)")
    #expect(try await cli.accounts().count == 1)
    await cli.stop()
  }

  @Test func aLogoutTheAgentTookButDidNotAnswerIsNotDoneAgainHere() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let socket = cli.workspace.agentSocketPath

    // The request reaches the agent and the connection closes unanswered: logout says so and
    // does not sign out a second time itself (it has the passphrase: it could).
    let silent = try FakeAgent(at: socket)
    let request = Task { await silent.answerOne(with: nil) }
    let lost = try await cli.run(["logout", "sandbox/alice"])
    let sent = await request.value
    #expect(sent.contains(#""op":"logout","account":"sandbox/alice","local_only":false"#))
    #expect(lost.status == 1)
    #expect(
      lost.stderr
        == "authtui: the agent got the sign-out of sandbox/alice but gave no answer, so it may be "
        + "done or not; see `authtui list`, and run `authtui logout` again if it is still there\n")
    #expect(await cli.stat("revocations") == 0)
    #expect(try await cli.accounts().count == 1)

    // An agent that declines the request did nothing: logout unlocks the vault and signs out.
    unlink(socket)
    let declining = try FakeAgent(at: socket)
    let declined = Task {
      await declining.answerOne(
        with: #"{"ok":false,"exit":1,"code":"other_vault","message":"another vault"}"#)
    }
    let fallback = try await cli.run(["logout", "sandbox/alice"])
    _ = await declined.value
    #expect(fallback.status == 0, "\(fallback.stderr)")
    #expect(fallback.stdout.hasPrefix("Signed out of sandbox/alice"))
    #expect(await cli.stat("revocations") == 2)
    #expect(try await cli.accounts().isEmpty)
    await cli.stop()
  }

  @Test func helpSaysListExportAndLogoutGoThroughTheAgent() async throws {
    for command in ["list", "export", "logout"] {
      let help = try await ChildProcess.run(Products.authtui, ["help", command])
      #expect(help.status == 0)
      #expect(help.stdout.contains("When `authtui agent` runs for this vault"), "\(command)")
      #expect(help.stdout.contains("AUTHTUI_NO_AGENT=1"), "\(command)")
    }
  }
}
