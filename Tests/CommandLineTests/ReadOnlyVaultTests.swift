import Crypto
import Foundation
import TestSupport
import Testing
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// A vault that cannot be written: a read-only file, or a file in a read-only folder. What
/// only reads (`list`, `vault status`, `token` of a token still valid, under a longer
/// `--min-valid` with a note on why it is not refreshed) works; what must write
/// (a refresh, a sign-in) says which path is read-only and what to run, and a sign-in says
/// it before anything is shown or sent to the provider.
///
/// Root writes through permission bits, so as root the commands run as nobody (through
/// setpriv), whose vault and folder it is.
@Suite struct ReadOnlyVaultTests {
  /// The user the commands run as when the tests run as root.
  static let nobody: uid_t = 65534

  /// The harness with one account, `sandbox/alice`, whose token lasts an hour, moved into a
  /// folder of its own (`read only?#%41/vault.db`: a name a URI must encode) that belongs to
  /// the user the commands run as.
  static func start() async throws -> (CLIHarness, folder: String, vault: String) {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let folder = cli.folder.file("read only?#%41")
    let vault = folder + "/vault.db"
    #expect(mkdir(folder, 0o700) == 0)
    #expect(rename(cli.workspace.vaultPath, vault) == 0)
    if geteuid() == 0 {
      #expect(chmod(cli.folder.path, 0o755) == 0)
      #expect(chown(folder, nobody, nobody) == 0)
      #expect(chown(vault, nobody, nobody) == 0)
    }
    return (cli, folder, vault)
  }

  /// `authtui ARGUMENTS…` on `vault`, as nobody when the test runs as root.
  static func run(
    _ cli: CLIHarness, _ arguments: [String], vault: String,
    _ changes: [String: String?] = [:]
  ) async throws -> ChildProcess.Result {
    let command = launcher + [Products.authtui]
    return try await cli.run(
      Array(command.dropFirst()) + arguments,
      changes.merging(["AUTHTUI_VAULT": vault]) { _, vault in vault }, executable: command[0])
  }

  /// What runs a command as nobody when the test runs as root; nothing otherwise.
  static var launcher: [String] {
    geteuid() == 0
      ? ["/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"]
      : []
  }

  /// Makes `sandbox/alice`'s access token in the vault at `path` one that expired a minute ago.
  static func expireAccessToken(_ path: String) async throws {
    let vault = try await Vault.open(at: VaultLocation(path: path))
    try await vault.unlock(with: Passphrase(SandboxWorkspace.passphrase))
    let record = try #require(try await vault.account(providerID: "sandbox", label: "alice"))
    var tokens = record.tokens
    tokens.expiresAt = Date().addingTimeInterval(-60)
    _ = try await vault.updateTokens(of: record.id, to: tokens)
    await vault.close()
  }

  @Test(.enabled(if: geteuid() != 0 || access("/usr/bin/setpriv", X_OK) == 0))
  func aVaultInAReadOnlyFolderListsAndHandsOutValidTokensAndNamesTheFolderForTheRest()
    async throws
  {
    let (cli, folder, vault) = try await Self.start()
    #expect(chmod(folder, 0o500) == 0)
    let list = try await Self.run(cli, ["list"], vault: vault)
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("sandbox"))
    let status = try await Self.run(cli, ["vault", "status"], vault: vault)
    #expect(status.status == 0, "\(status.stderr)")
    #expect(
      status.stdout.contains("\njournal      read as a snapshot (its folder cannot be written)\n"))
    let token = try await Self.run(cli, ["token", "sandbox/alice"], vault: vault)
    #expect(token.status == 0, "\(token.stderr)")
    #expect(!token.stdout.isEmpty)

    // The token lasts an hour: handed out under a longer --min-valid, with why it is short.
    let short = try await Self.run(
      cli, ["token", "sandbox/alice", "--min-valid", "86400"], vault: vault)
    #expect(short.status == 0, "\(short.stderr)")
    #expect(short.stdout == token.stdout)
    #expect(short.stderr.hasPrefix("authtui: sandbox/alice's token is valid for "))
    #expect(
      short.stderr.hasSuffix(
        " more, less than --min-valid 86400 asks: the vault \(vault) cannot be written: its "
          + "folder \(folder) is read-only (SQLite writes its journal beside the file); run "
          + "`chmod u+w '\(folder)'` and try again (listing and valid tokens work without it)\n"),
      "\(short.stderr)")
    #expect(await cli.stat("refreshes") == 0)

    let exchanges = await cli.stat("exchanges")
    let login = try await Self.run(cli, ["login", "sandbox", "--json"], vault: vault)
    #expect(login.status == 1)
    #expect(
      login.stdout
        == #"{"event":"error","error":"vault_read_only","message":"the vault \#(vault) cannot "#
        + #"be written: its folder \#(folder) is read-only (SQLite writes its journal beside "#
        + #"the file); run `chmod u+w '\#(folder)'` and try again (listing and valid tokens "#
        + #"work without it)"}"# + "\n")
    #expect(await cli.stat("exchanges") == exchanges)

    // Revoked at the provider but kept here would be a sign-out half done.
    let logout = try await Self.run(cli, ["logout", "sandbox/alice"], vault: vault)
    #expect(logout.status == 1)
    #expect(logout.stderr.hasPrefix("authtui: the vault \(vault) cannot be written: its folder"))
    #expect(await cli.stat("revocations") == 0)
    #expect(chmod(folder, 0o700) == 0)
    await cli.stop()
  }

  @Test(.enabled(if: geteuid() != 0 || access("/usr/bin/setpriv", X_OK) == 0))
  func aReadOnlyVaultFileSaysSoWhenARefreshOrASignInNeedsToWriteIt() async throws {
    let (cli, _, vault) = try await Self.start()
    #expect(chmod(vault, 0o400) == 0)
    let list = try await Self.run(cli, ["list"], vault: vault)
    #expect(list.status == 0, "\(list.stderr)")
    let token = try await Self.run(cli, ["token", "sandbox/alice"], vault: vault)
    #expect(token.status == 0, "\(token.stderr)")

    let said =
      "the vault \(vault) cannot be written: the file is read-only; run `chmod 600 '\(vault)'` "
      + "and try again (listing and valid tokens work without it)"
    let short = try await Self.run(
      cli, ["token", "sandbox/alice", "--min-valid", "86400"], vault: vault)
    #expect(short.status == 0, "\(short.stderr)")
    #expect(short.stdout == token.stdout)
    #expect(short.stderr.hasSuffix(" more, less than --min-valid 86400 asks: \(said)\n"))

    // An expired token is not handed out: the refresh it needs cannot be stored.
    #expect(chmod(vault, 0o600) == 0)
    try await Self.expireAccessToken(vault)
    #expect(chmod(vault, 0o400) == 0)
    let refreshed = try await Self.run(cli, ["token", "sandbox/alice"], vault: vault)
    #expect(refreshed.status == 1)
    #expect(refreshed.stdout == "")
    #expect(refreshed.stderr == "authtui: \(said)\n")
    #expect(await cli.stat("refreshes") == 0)

    let exchanges = await cli.stat("exchanges")
    let login = try await Self.run(cli, ["login", "sandbox"], vault: vault)
    #expect(login.status == 1)
    #expect(login.stderr == "authtui: \(said)\n")
    #expect(await cli.stat("exchanges") == exchanges)
    await cli.stop()
  }

  /// `exec` and `token --header` (alone and `--for`) hand out a token that is still valid but
  /// short of the minimum with the note `token` gives, from the vault itself and from an agent
  /// (whose answers carry it as `note`). `export` and git's helper say it the same way (their
  /// minimum is 60 seconds).
  @Test(.enabled(if: geteuid() != 0 || access("/usr/bin/setpriv", X_OK) == 0))
  func everyCommandThatHandsOutAShortTokenSaysWhy() async throws {
    let (cli, folder, vault) = try await Self.start()
    #expect(chmod(vault, 0o400) == 0)
    let why =
      " more, less than --min-valid 86400 asks: the vault \(vault) cannot be written: the file "
      + "is read-only; run `chmod 600 '\(vault)'` and try again (listing and valid tokens work "
      + "without it)\n"
    let token = try await Self.run(cli, ["token", "sandbox/alice"], vault: vault)
    let bearer = "Authorization: Bearer " + token.stdout
    let commands: [(arguments: [String], output: String)] = [
      (
        ["exec", "sandbox/alice", "--min-valid", "86400", "--", "printenv", "AUTHTUI_TOKEN_TYPE"],
        "Bearer\n"
      ),
      (["token", "sandbox/alice", "--min-valid", "86400", "--header"], bearer),
      (
        [
          "token", "sandbox/alice", "--min-valid", "86400", "--header", "--for", "GET",
          "https://api.example/",
        ], bearer
      ),
    ]
    for (arguments, output) in commands {
      let local = try await Self.run(cli, arguments, vault: vault)
      #expect(local.status == 0, "\(arguments): \(local.stderr)")
      #expect(local.stdout == output, "\(arguments)")
      #expect(
        local.stderr.hasPrefix("authtui: sandbox/alice's token is valid for ")
          && local.stderr.hasSuffix(why), "\(arguments): \(local.stderr)")
    }

    // The agent's socket in the vault's folder, which (as root) is nobody's.
    let socket: [String: String?] = ["AUTHTUI_AGENT_SOCKET": folder + "/agent.sock"]
    let agent = try await AgentProcess.start(
      cli, [], socket.merging(["AUTHTUI_VAULT": vault]) { $1 }, launcher: Self.launcher)
    #expect(agent.firstLine != nil)
    let wrong = socket.merging(["AUTHTUI_PASSPHRASE": "not the passphrase"]) { $1 }
    for (arguments, output) in commands {
      let served = try await Self.run(cli, arguments, vault: vault, wrong)
      #expect(served.status == 0, "\(arguments): \(served.stderr)")
      #expect(served.stdout == output, "\(arguments)")
      #expect(
        served.stderr.hasPrefix("authtui: sandbox/alice's token is valid for ")
          && served.stderr.hasSuffix(why), "\(arguments): \(served.stderr)")
    }
    #expect(await agent.stop().status == 0)
    #expect(await cli.stat("refreshes") == 0)
    await cli.stop()
  }
}
