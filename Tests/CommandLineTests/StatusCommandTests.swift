import Foundation
import TestSupport
import Testing
import Vault

/// `authtui status`: the built binaries against `authtui-sandbox`, with the vault read by the
/// command itself and through a running agent.
@Suite struct StatusCommandTests {
  static let wrongPassphrase: [String: String?] = ["AUTHTUI_PASSPHRASE": "not the passphrase"]

  /// `status --json`, parsed.
  static func object(_ result: ChildProcess.Result) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      "\(result.stdout) \(result.stderr)")
  }

  @Test func allFineExitsZeroAndSaysSo() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let result = try await cli.run(["status"])
    #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
    #expect(
      result.stdout == """
        vault     \(cli.workspace.vaultPath)
                  needs a passphrase; unlocked with it
        agent     not running (`authtui agent start` unlocks the vault once for all)
        accounts  1 account, nothing needs attention

        """)
    #expect(result.stderr.isEmpty)

    let json = try Self.object(try await cli.run(["status", "--json"]))
    let vault = try #require(json["vault"] as? [String: Any])
    #expect(vault["path"] as? String == cli.workspace.vaultPath)
    #expect(vault["state"] as? String == "unlocked")
    #expect(vault["message"] is NSNull)
    #expect(vault["fix"] is NSNull)
    let agent = try #require(json["agent"] as? [String: Any])
    #expect(agent["running"] as? Bool == false)
    #expect(agent["pid"] is NSNull)
    #expect(agent["serves_this_vault"] as? Bool == false)
    #expect(json["accounts"] as? Int == 1)
    #expect((json["accounts_needing_attention"] as? [Any])?.isEmpty == true)
    await cli.stop()
  }

  @Test func anAccountNeedingSignInOrDamagedExitsOneWithItsFix() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try await cli.login("sandbox", as: "bob")
    // The provider refuses the refresh token: a forced refresh marks alice for a new sign-in.
    await cli.hook("invalidate", #"{"profile": "oidc"}"#)
    let refused = try await cli.run(["token", "sandbox/alice", "--min-valid", "100000"])
    #expect(refused.status == 5)
    try await VaultFileEditor.flipBit(
      inCell: "access_token", ofAccount: 2, vaultAt: cli.workspace.vaultPath)

    let result = try await cli.run(["status"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("accounts  1 account, 2 need attention:\n"))
    #expect(
      result.stdout.contains(
        "\nsandbox/alice: needs a new sign-in: it holds no token it can use\n"
          + "  fix: authtui login sandbox --label alice\n"))
    #expect(
      result.stdout.contains(
        "\n#2 (sandbox/bob): damaged (its sealed access_token cell failed authentication "
          + "(altered, or copied from elsewhere)) and cannot be read\n"
          + "  fix: authtui logout '#2' --local-only\n"))

    let json = try Self.object(try await cli.run(["status", "--json"]))
    let items = try #require(json["accounts_needing_attention"] as? [[String: String]])
    #expect(items.map { $0["account"] } == ["sandbox/alice", "sandbox/bob"])
    #expect(items.map { $0["problem"] } == ["sign_in_needed", "damaged"])
    #expect(
      items.map { $0["fix"] }
        == ["authtui login sandbox --label alice", "authtui logout '#2' --local-only"])

    // The fixes fix it.
    #expect(try await cli.run(["logout", "#2", "--local-only"]).status == 0)
    try await cli.login("sandbox", as: "alice", ["--label", "alice"])
    #expect(try await cli.run(["status"]).status == 0)
    await cli.stop()
  }

  @Test func aTokenExpiringWithoutARefreshTokenSaysToSignInAgainBeforeItsExpiry() async throws {
    let cli = try await CLIHarness.start()
    // Obtained 9 hours ago, an hour left, no refresh token: past the quarter of its lifetime.
    let now = Date()
    try await cli.workspace.withVault { vault in
      _ = try await vault.insert(
        contentsOf: [
          NewAccount(
            providerID: "sandbox", label: "soon",
            tokens: TokenSet(
              accessToken: "stored", expiresAt: now.addingTimeInterval(3600),
              obtainedAt: now.addingTimeInterval(-9 * 3600))),
          NewAccount(
            providerID: "sandbox", label: "fresh",
            tokens: TokenSet(
              accessToken: "stored", expiresAt: now.addingTimeInterval(3600), obtainedAt: now)),
        ])
    }
    let json = try Self.object(try await cli.run(["status", "--json"]))
    let items = try #require(json["accounts_needing_attention"] as? [[String: String]])
    #expect(items.map { $0["account"] } == ["sandbox/soon"])
    #expect(items.first?["problem"] == "expiring_without_refresh")
    #expect(items.first?["fix"] == "authtui login sandbox --label soon")
    #expect(
      items.first?["message"]?.hasSuffix("has no refresh token: sign in again before then") == true)
    #expect(json["accounts"] as? Int == 2)
    #expect(try await cli.run(["status"]).status == 1)
    await cli.stop()
  }

  /// A refresh token with a known end (Google's "Testing" apps) in its last quarter says
  /// to sign in again before then, whether the command reads the vault or the agent does.
  @Test func aRefreshTokenEndingSoonSaysToSignInAgainBeforeItEndsAlsoThroughTheAgent()
    async throws
  {
    let cli = try await CLIHarness.start()
    let now = Date()
    let end = now.addingTimeInterval(86_400)
    try await cli.workspace.withVault { vault in
      _ = try await vault.insert(
        contentsOf: ["weekly", "fresh"].map { label in
          NewAccount(
            providerID: "sandbox", label: label,
            tokens: TokenSet(
              accessToken: "stored", refreshToken: "refresh",
              expiresAt: now.addingTimeInterval(3600),
              obtainedAt: now,
              refreshValidity: DateInterval(
                start: label == "weekly" ? now.addingTimeInterval(-6 * 86_400) : now,
                duration: 7 * 86_400)))
        })
    }
    let said =
      "\nsandbox/weekly: its refresh token ends \(ISO8601DateFormatter().string(from: end)), "
      + "and no refresh works after that: sign in again before then\n"
      + "  fix: authtui login sandbox --label weekly\n"
    let direct = try await cli.run(["status"])
    #expect(direct.status == 1)
    #expect(
      direct.stdout.contains("accounts  2 accounts, 1 needs attention:\n"), "\(direct.stdout)")
    #expect(direct.stdout.hasSuffix(said), "\(direct.stdout)")
    let json = try Self.object(try await cli.run(["status", "--json"]))
    let items = try #require(json["accounts_needing_attention"] as? [[String: String]])
    #expect(items.map { $0["problem"] } == ["refresh_expiring"])

    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let served = try await cli.run(["status"], Self.wrongPassphrase)
    #expect(served.status == 1)
    #expect(served.stdout.hasSuffix(said), "\(served.stdout)")
    let listed = try await cli.run(["list"], Self.wrongPassphrase)
    #expect(
      listed.stdout.contains("until \(ISO8601DateFormatter().string(from: end))"),
      "\(listed.stdout)")
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func noVaultPointsToVaultInit() async throws {
    let cli = try await CLIHarness.start()
    let path = cli.folder.file("elsewhere.db")
    let result = try await cli.run(["status", "--vault", path])
    #expect(result.status == 1)
    #expect(
      result.stdout.hasPrefix(
        "vault     \(path)\n          no vault yet — run `authtui vault init` (a first "
          + "`authtui login` at a terminal also creates it)\n"))
    let json = try Self.object(try await cli.run(["status", "--json", "--vault", path]))
    let vault = try #require(json["vault"] as? [String: Any])
    #expect(vault["state"] as? String == "no_vault")
    #expect(vault["fix"] as? String == "authtui vault init")
    #expect(json["accounts"] is NSNull)
    await cli.stop()
  }

  @Test func aWrongPassphraseIsReportedOnceWithoutAnAgentAndNeededNotWithOne() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")

    let locked = try await cli.run(["status"], Self.wrongPassphrase)
    #expect(locked.status == 1)
    #expect(
      locked.stdout.contains(
        "          locked: the passphrase from AUTHTUI_PASSPHRASE does not open the vault "
          + "\(cli.workspace.vaultPath) (nothing was changed); correct AUTHTUI_PASSPHRASE"))
    #expect(locked.stdout.contains("agent     not running"))
    #expect(!locked.stdout.contains("accounts"))
    let lockedJSON = try Self.object(try await cli.run(["status", "--json"], Self.wrongPassphrase))
    #expect((lockedJSON["vault"] as? [String: Any])?["state"] as? String == "locked")

    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let pid = agent.child.pid
    let served = try await cli.run(["status"], Self.wrongPassphrase)
    #expect(served.status == 0, "\(served.stdout) \(served.stderr)")
    #expect(
      served.stdout == """
        vault     \(cli.workspace.vaultPath)
                  needs a passphrase; the agent holds it unlocked, so none was asked
        agent     running, pid \(pid), serving this vault
        accounts  1 account, nothing needs attention

        """)
    let json = try Self.object(try await cli.run(["status", "--json"], Self.wrongPassphrase))
    #expect((json["vault"] as? [String: Any])?["state"] as? String == "unlocked_by_agent")
    let facts = try #require(json["agent"] as? [String: Any])
    #expect(facts["running"] as? Bool == true)
    #expect(facts["pid"] as? Int == Int(pid))
    #expect(facts["serves_this_vault"] as? Bool == true)

    // Through the agent too, an account needing a sign-in is reported with its fix.
    await cli.hook("invalidate", #"{"profile": "oidc"}"#)
    let refused = try await cli.run(
      ["token", "sandbox/alice", "--min-valid", "100000"], Self.wrongPassphrase)
    #expect(refused.status == 5)
    let attention = try await cli.run(["status"], Self.wrongPassphrase)
    #expect(attention.status == 1)
    #expect(attention.stdout.contains("  fix: authtui login sandbox --label alice\n"))
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }
}
