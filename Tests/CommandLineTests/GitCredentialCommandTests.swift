import Foundation
import Loopback
import TestSupport
import Testing

/// The `git` program, when it is installed.
private let installedGit = ["/usr/bin/git", "/usr/local/bin/git"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// `authtui git-credential` driven by the real `git`: `git credential fill` through the helper,
/// and a `git clone` over HTTP from a loopback server that accepts only the account's current
/// token, configured as the "git" recipe of docs/scripting.md says.
@Suite(.enabled(if: installedGit != nil, "git is not installed (apt-get install git)"))
struct GitCredentialCommandTests {
  static let git = installedGit

  /// The helper as docs/scripting.md writes it, found on PATH as `authtui`.
  static let helper = "!authtui git-credential"

  /// A harness signed in to sandbox as alice, with `git` entries in config.json.
  static func start(git entries: String) async throws -> (CLIHarness, token: String) {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try cli.folder.write(#"{"git": {\#(entries)}}"#, to: "config/config.json")
    let token = try await cli.run(["token", "sandbox/alice"])
    #expect(token.status == 0, "\(token.stderr)")
    return (cli, token.stdout.trimmingCharacters(in: .newlines))
  }

  /// Runs `git ARGUMENTS…` with the harness environment (HOME is the test folder), no system
  /// configuration, no terminal prompt, and `authtui` on PATH.
  static func runGit(
    _ cli: CLIHarness, _ arguments: [String], input: String? = nil,
    _ changes: [String: String?] = [:]
  ) async throws -> ChildProcess.Result {
    var environment = cli.environment
    let folder = URL(fileURLWithPath: Products.authtui).deletingLastPathComponent().path
    environment["PATH"] = folder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    environment["GIT_TERMINAL_PROMPT"] = "0"
    environment["GIT_ASKPASS"] = nil
    environment["SSH_ASKPASS"] = nil
    for (name, value) in changes { environment[name] = value }
    return try await ChildProcess.run(
      try #require(git), arguments, environment: environment, input: input, timeout: 120)
  }

  @Test func gitCredentialFillGetsTheTokenForTheConfiguredURLAndNothingElsewhere() async throws {
    let (cli, token) = try await Self.start(git: #""https://git.example.com": "sandbox/alice""#)
    // The recipe's line, into $HOME/.gitconfig (HOME is the test folder).
    let configured = try await Self.runGit(
      cli, ["config", "--global", "credential.https://git.example.com.helper", Self.helper])
    #expect(configured.status == 0, "\(configured.stderr)")
    let fill = try await Self.runGit(
      cli, ["credential", "fill"], input: "protocol=https\nhost=git.example.com\n\n")
    #expect(fill.status == 0, "\(fill.stderr)")
    #expect(
      fill.stdout == "protocol=https\nhost=git.example.com\nusername=alice\npassword=\(token)\n")
    #expect(fill.stderr.isEmpty, "\(fill.stderr)")

    // Another host: the helper answers nothing, so git goes on to ask (here: cannot).
    let other = try await Self.runGit(
      cli, ["-c", "credential.helper=\(Self.helper)", "credential", "fill"],
      input: "protocol=https\nhost=elsewhere.example.com\n\n")
    #expect(other.status != 0)
    #expect(other.stdout.isEmpty)
    #expect(other.stderr.contains("terminal prompts disabled"), "\(other.stderr)")
    #expect(!other.stderr.contains(token))

    // The helper alone: nothing on standard output, exit 0; store and erase do nothing.
    let alone = try await cli.run(
      ["git-credential", "get"], input: "protocol=https\nhost=elsewhere.example.com\n\n")
    #expect(alone.status == 0 && alone.stdout.isEmpty && alone.stderr.isEmpty)
    for action in ["store", "erase"] {
      let result = try await cli.run(
        ["git-credential", action],
        input: "protocol=https\nhost=git.example.com\nusername=alice\npassword=\(token)\n\n")
      #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
    }
    #expect(try await cli.accounts().map { $0["account"] as? String } == ["sandbox/alice"])
    await cli.stop()
  }

  @Test func withoutAnAgentOrAPassphraseVariableGetFailsWithoutPromptingAndGitGoesOn()
    async throws
  {
    let (cli, token) = try await Self.start(git: #""https://git.example.com": "sandbox/alice""#)
    let fill = try await Self.runGit(
      cli, ["-c", "credential.helper=\(Self.helper)", "credential", "fill"],
      input: "protocol=https\nhost=git.example.com\n\n", ["AUTHTUI_PASSPHRASE": nil])
    #expect(fill.status != 0)
    #expect(fill.stdout.isEmpty)
    #expect(
      fill.stderr.contains(
        "authtui: no agent runs for the vault and git's helper does not ask for the passphrase"),
      "\(fill.stderr)")
    #expect(fill.stderr.contains("terminal prompts disabled"))
    #expect(!fill.stderr.contains(token))
    let alone = try await cli.run(
      ["git-credential", "get"], ["AUTHTUI_PASSPHRASE": nil],
      input: "protocol=https\nhost=git.example.com\n\n")
    #expect(alone.status == 3)
    #expect(alone.stdout.isEmpty)

    // Through a running agent, no passphrase is needed.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let viaAgent = try await cli.run(
      ["git-credential", "get"], ["AUTHTUI_PASSPHRASE": nil],
      input: "protocol=https\nhost=git.example.com\n\n")
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    #expect(viaAgent.stdout == "username=alice\npassword=\(token)\n")
    _ = await agent.stop()
    await cli.stop()
  }

  @Test func aTokenRunningLowIsRefreshedFirstAndPathsNeedUseHttpPath() async throws {
    let cli = try await CLIHarness.start()
    try await cli.signInWithATokenRunningLow()
    try cli.folder.write(
      #"{"git": {"https://git.example.com/team": "sandbox/alice"}}"#, to: "config/config.json")
    let withPath = try await Self.runGit(
      cli,
      [
        "-c", "credential.helper=\(Self.helper)", "-c", "credential.useHttpPath=true", "credential",
        "fill",
      ], input: "url=https://git.example.com/team/app.git\n\n")
    #expect(withPath.status == 0, "\(withPath.stderr)")
    #expect(await cli.stat("refreshes") == 1)
    let token = try await cli.run(["token", "sandbox/alice"])
    #expect(
      withPath.stdout
        == "protocol=https\nhost=git.example.com\npath=team/app.git\nusername=alice\n"
        + "password=\(token.stdout)")
    #expect(await cli.stat("refreshes") == 1)

    let withoutPath = try await cli.run(
      ["git-credential", "get"], input: "protocol=https\nhost=git.example.com\n\n")
    #expect(withoutPath.status == 0 && withoutPath.stdout.isEmpty)
    #expect(
      withoutPath.stderr
        == "authtui: git sent no path for git.example.com, so the git entries with a path cannot "
        + "serve it: `git config --global credential.useHttpPath true` sends it\n")
    await cli.stop()
  }

  @Test func badInputAndABadGitEntryAreReportedOnStandardError() async throws {
    let (cli, _) = try await Self.start(git: #""git.example.com": "sandbox/alice""#)
    let bad = try await cli.run(["git-credential", "get"], input: "protocol=https\nhost\n\n")
    #expect(bad.status == 2)
    #expect(
      bad.stderr
        == "authtui: git-credential: line 2 of the input is not key=value (git-credential(1) "
        + "describes the format)\n")
    let entry = try await cli.run(
      ["git-credential", "get"], input: "protocol=https\nhost=git.example.com\n")
    #expect(entry.status == 0 && entry.stdout.isEmpty)
    #expect(
      entry.stderr.hasSuffix(
        "config.json:1: git.git.example.com: the URL is not a URL: write it with its scheme, "
          + "as git sees it (https://git.example.com)\n"), "\(entry.stderr)")
    let action = try await cli.run(["git-credential", "fetch"], input: "")
    #expect(action.status == 2)
    #expect(action.stderr.contains("unknown git-credential action 'fetch'"))
    let help = try await cli.run(["help", "git-credential"])
    #expect(
      help.stdout.contains(
        "git config --global credential.https://git.example.com.helper '!authtui git-credential'"
      ))
    await cli.stop()
  }

  /// `--config` and `--vault` given to the setup go into git's helper, absolute: git runs it
  /// without them (nor the variables that may have named them), and it still answers.
  @Test func setupKeepsTheConfigurationAndVaultItWasGivenInGitsHelper() async throws {
    let (cli, token) = try await Self.start(git: "")
    var path = cli.environment["PATH"] ?? "/usr/bin:/bin"
    path = URL(fileURLWithPath: Products.authtui).deletingLastPathComponent().path + ":" + path
    let config = cli.folder.file("config")
    let vault = cli.folder.file("vault.db")
    let elsewhere: [String: String?] = [
      "AUTHTUI_CONFIG_DIR": nil, "AUTHTUI_VAULT": nil, "PATH": path,
    ]
    let setup = try await cli.run(
      [
        "--config", config, "--vault", vault, "git-credential", "setup",
        "https://git.example.com", "sandbox/alice",
      ], elsewhere)
    #expect(setup.status == 0, "\(setup.stderr)")
    let helpers = try await Self.runGit(
      cli, ["config", "--global", "--get-all", "credential.https://git.example.com.helper"])
    #expect(
      helpers.stdout
        == "\n!authtui --config \(config) --vault \(vault) git-credential\n")
    let fill = try await Self.runGit(
      cli, ["credential", "fill"], input: "protocol=https\nhost=git.example.com\n\n",
      ["AUTHTUI_CONFIG_DIR": nil, "AUTHTUI_VAULT": nil])
    #expect(fill.status == 0, "\(fill.stderr)")
    #expect(fill.stdout.hasSuffix("password=\(token)\n"), "\(fill.stdout)")
    await cli.stop()
  }

  /// `git-credential setup URL ACCOUNT`, run with `authtui` on PATH: the entry goes into
  /// config.json beside what it holds (another entry for the same URL replaced in its place),
  /// git's global configuration gets the helper alone for the URL (and useHttpPath for a
  /// path), and `git credential fill` then answers with the account's token.
  @Test func setupWritesTheEntryAndGitsHelperThenGitGetsTheToken() async throws {
    let (cli, token) = try await Self.start(
      git: #""https://git.example.com:443": "sandbox/bob", "https://other.example.com": "x/y""#)
    try cli.folder.write(
      #"{"theme": "light", "git": {"https://git.example.com:443": "sandbox/bob"}}"#,
      to: "config/config.json")
    var path = cli.environment["PATH"] ?? "/usr/bin:/bin"
    path = URL(fileURLWithPath: Products.authtui).deletingLastPathComponent().path + ":" + path
    _ = try await Self.runGit(
      cli, ["config", "--global", "credential.https://git.example.com.helper", "store"])
    let setup = try await cli.run(
      ["git-credential", "setup", "https://git.example.com", "sandbox/alice"], ["PATH": path])
    #expect(setup.status == 0, "\(setup.stderr)")
    #expect(
      setup.stdout
        == "git now asks authtui for https://git.example.com: the token of sandbox/alice.\n"
        + "  ~/config/config.json: \"git\": {\"https://git.example.com\": …}\n"
        + "  git config --global: credential.https://git.example.com.helper (any helper set "
        + "there before for this URL is no longer asked)\n")
    let written = try String(contentsOfFile: cli.folder.file("config/config.json"), encoding: .utf8)
    #expect(
      written == """
        {
          "theme" : "light",
          "git" : {
            "https://git.example.com" : "sandbox/alice"
          }
        }

        """)
    let helpers = try await Self.runGit(
      cli, ["config", "--global", "--get-all", "credential.https://git.example.com.helper"])
    #expect(helpers.stdout == "\n\(Self.helper)\n")
    let fill = try await Self.runGit(
      cli, ["credential", "fill"], input: "protocol=https\nhost=git.example.com\n\n")
    #expect(fill.status == 0, "\(fill.stderr)")
    #expect(
      fill.stdout == "protocol=https\nhost=git.example.com\nusername=alice\npassword=\(token)\n")

    // A URL with a path: git is told to send paths for it, and the user name is kept.
    let team = try await cli.run(
      [
        "git-credential", "setup", "https://forge.example.com/team", "sandbox/alice",
        "--username", "oauth2",
      ], ["PATH": path])
    #expect(team.status == 0, "\(team.stderr)")
    let usesPath = try await Self.runGit(
      cli, ["config", "--global", "credential.https://forge.example.com/team.useHttpPath"])
    #expect(usesPath.stdout == "true\n")
    let teamFill = try await Self.runGit(
      cli, ["credential", "fill"],
      input: "protocol=https\nhost=forge.example.com\npath=team/app.git\n\n")
    #expect(teamFill.stdout.hasSuffix("username=oauth2\npassword=\(token)\n"), "\(teamFill)")

    // What cannot be an entry is refused before anything is written.
    for (arguments, message) in [
      (
        ["http://git.example.com", "sandbox/alice"],
        "authtui: the URL \"http://git.example.com\" uses plain http, which would send the "
          + "token unencrypted: use https (http only for 127.0.0.1, localhost and [::1])\n"
      ),
      (
        ["https://git.example.com/a\nb", "sandbox/alice"],
        "authtui: the URL \"https://git.example.com/a\\u{A}b\" holds a space or a control "
          + "character; give it as git sees it, percent-encoded (https://git.example.com/team%20a)\n"
      ),
      (
        ["https://alice:S3cret@git.example.com", "sandbox/alice"],
        "authtui: the URL names a user in it (`alice:…@`): give the URL without it, and the "
          + "user name with --username\n"
      ),
      (
        ["https://git.example.com", "sandbox"],
        "authtui: the account \"sandbox\" is not PROVIDER/LABEL (work/alice, as `authtui list` "
          + "shows it)\n"
      ),
      (
        ["https://git.example.com", "#1"],
        "authtui: the account \"#1\" is not PROVIDER/LABEL (work/alice, as `authtui list` "
          + "shows it)\n"
      ),
      (
        ["https://git.example.com"],
        "authtui: 'git-credential setup' needs URL and ACCOUNT (for example `authtui "
          + "git-credential setup https://git.example.com work/alice`)\n"
      ),
    ] {
      let refused = try await cli.run(["git-credential", "setup"] + arguments)
      #expect(refused.status == 2, "\(arguments)")
      #expect(refused.stderr == message)
    }
    // A provider authtui does not know: said with the closest ids, and nothing written.
    let before = try String(contentsOfFile: cli.folder.file("config/config.json"), encoding: .utf8)
    let unknown = try await cli.run(
      ["git-credential", "setup", "https://other.example.com", "sandbx/alice"])
    #expect(unknown.status == 4)
    #expect(unknown.stderr == "authtui: no provider sandbx; did you mean `sandbox`?\n")
    #expect(
      try String(contentsOfFile: cli.folder.file("config/config.json"), encoding: .utf8) == before)
    let extra = try await cli.run(["git-credential", "get", "https://git.example.com"], input: "")
    #expect(extra.status == 2)
    #expect(
      try String(contentsOfFile: cli.folder.file("config/config.json"), encoding: .utf8)
        .contains("https://forge.example.com/team"))
    await cli.stop()
  }

  /// An account the vault does not hold (a misspelt label) is refused as `token` refuses it,
  /// exit 4, before config.json or git's configuration is touched: git would otherwise ask a
  /// helper that fails at every push. Through a running agent, no passphrase is needed.
  @Test func setupRefusesAnAccountTheVaultDoesNotHold() async throws {
    let (cli, _) = try await Self.start(git: #""https://other.example.com": "sandbox/alice""#)
    let before = try String(contentsOfFile: cli.folder.file("config/config.json"), encoding: .utf8)
    let misspelt = try await cli.run(
      ["git-credential", "setup", "https://git.example.com", "sandbox/alcie"])
    #expect(misspelt.status == 4)
    #expect(misspelt.stdout.isEmpty)
    #expect(misspelt.stderr == "authtui: no account sandbox/alcie; did you mean `sandbox/alice`?\n")
    let token = try await cli.run(["token", "sandbox/alcie"])
    #expect(token.status == 4)
    #expect(token.stderr == misspelt.stderr)

    // A provider with no account yet: the sign-in to do first.
    let none = try await cli.run(
      ["git-credential", "setup", "https://git.example.com", "hivesigner/bob"])
    #expect(none.status == 4)
    #expect(
      none.stderr
        == "authtui: no account hivesigner/bob: you have no hivesigner account yet (`authtui login "
        + "hivesigner --label bob` signs in to one)\n")
    #expect(
      try String(contentsOfFile: cli.folder.file("config/config.json"), encoding: .utf8) == before)
    let helpers = try await Self.runGit(
      cli, ["config", "--global", "--get-all", "credential.https://git.example.com.helper"])
    #expect(helpers.status == 1 && helpers.stdout.isEmpty, "\(helpers)")

    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let viaAgent = try await cli.run(
      ["git-credential", "setup", "https://git.example.com", "sandbox/alcie"],
      ["AUTHTUI_PASSPHRASE": nil])
    #expect(viaAgent.status == 4)
    #expect(viaAgent.stderr == misspelt.stderr)
    _ = await agent.stop()
    await cli.stop()
  }

  @Test func aPathWithDotSegmentsGetsNoTokenFromAnEntryForAnotherPath() async throws {
    let server = try DumbGitServer()
    let origin = "http://127.0.0.1:\(server.port)"
    let (cli, token) = try await Self.start(git: #""\#(origin)/team/app": "sandbox/alice""#)
    await server.accept(username: "alice", password: token)
    let repository = try await server.makeRepository(cli) { try await Self.runGit(cli, $0) }
    let withPath = ["-c", "credential.helper=\(Self.helper)", "-c", "credential.useHttpPath=true"]

    // The issue's clone: `team/app`'s token must not go to what resolves to other/repo.git.
    let clone = try await Self.runGit(
      cli,
      withPath + [
        "clone", "-q", "\(origin)/team/app/%2e%2e/%2e%2e/other/repo.git", repository + "-dots",
      ])
    #expect(clone.status != 0)
    let statuses = await server.statuses
    #expect(!statuses.isEmpty && statuses.allSatisfy { $0 == 401 }, "\(statuses)")
    #expect(
      clone.stderr.contains(
        "authtui: git asked for 127.0.0.1:\(server.port)/team/app/../../other/repo.git, a path "
          + "with . or .. segments, which servers resolve differently, so no git entry serves "
          + "it: use the repository's URL without them"), "\(clone.stderr)")
    #expect(!clone.stderr.contains(token))

    // Every spelling of a dot segment, through `git credential fill`.
    for path in [
      "team/app/%2E%2E/%2E%2E/other/repo.git", "team/app/.%2e/.%2e/other/repo.git",
      "team/app/%2e./%2e./other/repo.git", "team/./app/repo.git", "team/app/../app/repo.git",
    ] {
      let fill = try await Self.runGit(
        cli, withPath + ["credential", "fill"], input: "url=\(origin)/\(path)\n\n")
      #expect(fill.status != 0, "\(path)")
      #expect(!fill.stdout.contains("password="), "\(path): \(fill.stdout)")
      #expect(fill.stderr.contains("a path with . or .. segments"), "\(path): \(fill.stderr)")
    }
    // The path itself still gets the token.
    let served = try await Self.runGit(
      cli, withPath + ["credential", "fill"], input: "url=\(origin)/team/app/repo.git\n\n")
    #expect(served.status == 0, "\(served.stderr)")
    #expect(served.stdout.contains("password=\(token)\n"))
    await server.stop()
    await cli.stop()
  }

  @Test func gitClonesOverHTTPWithTheTokenAndIsRefusedWithoutTheHelper() async throws {
    let server = try DumbGitServer()
    let origin = "http://127.0.0.1:\(server.port)"
    let (cli, token) = try await Self.start(
      git: #""\#(origin)": {"account": "sandbox/alice", "username": "oauth2"}"#)
    await server.accept(username: "oauth2", password: token)
    let repository = try await server.makeRepository(cli) { try await Self.runGit(cli, $0) }

    let refused = try await Self.runGit(
      cli, ["-c", "credential.helper=", "clone", "-q", "\(origin)/repo.git", repository + "-none"])
    #expect(refused.status != 0)
    #expect(!FileManager.default.fileExists(atPath: repository + "-none"))
    #expect(await server.statuses.allSatisfy { $0 == 401 })
    #expect(await server.statuses.count >= 1)

    let clone = try await Self.runGit(
      cli,
      [
        "-c", "credential.helper=\(Self.helper)", "clone", "-q", "\(origin)/repo.git",
        repository + "-clone",
      ])
    #expect(clone.status == 0, "\(clone.stderr)")
    let readme = try? String(contentsOfFile: repository + "-clone/README", encoding: .utf8)
    #expect(readme == "cloned with a token\n")
    #expect(await server.statuses.contains(200))
    #expect(!clone.stderr.contains(token))
    await server.stop()
    await cli.stop()
  }
}

/// A bare repository served over git's "dumb" HTTP protocol (static files after
/// `git update-server-info`), answering 401 with a Basic challenge unless the request carries
/// `Authorization: Basic` with the accepted user name and password.
final class DumbGitServer: Sendable {
  private let state = State()
  private let loopback: LoopbackServer
  let root: TemporaryDirectory

  actor State {
    var accepted: String?
    var statuses: [Int] = []
    func record(_ status: Int) { statuses.append(status) }
    func accept(_ header: String) { accepted = header }
  }

  var port: UInt16 { loopback.port }
  var statuses: [Int] { get async { await state.statuses } }

  init() throws {
    let root = try TemporaryDirectory()
    let state = state
    self.root = root
    loopback = try LoopbackServer { request in
      let expected = await state.accepted
      let given = request.headers.first { $0.name.lowercased() == "authorization" }?.value
      guard let expected, given == expected else {
        await state.record(401)
        return HTTPResponse(
          status: 401, headers: [("WWW-Authenticate", #"Basic realm="test""#)],
          body: Array("authentication required\n".utf8))
      }
      let path = request.path.removingPercentEncoding ?? ""
      guard !path.split(separator: "/").contains(".."),
        let data = FileManager.default.contents(atPath: root.path + path)
      else {
        await state.record(404)
        return .text("not found\n", status: 404)
      }
      await state.record(200)
      return HTTPResponse(
        status: 200, headers: [("Content-Type", "application/octet-stream")], body: Array(data))
    }
  }

  func accept(username: String, password: String) async {
    await state.accept("Basic " + Data("\(username):\(password)".utf8).base64EncodedString())
  }

  /// Makes `repo.git` (one commit holding README) in the served folder; returns a path
  /// beside it for clones.
  func makeRepository(
    _ cli: CLIHarness, git: ([String]) async throws -> ChildProcess.Result
  ) async throws -> String {
    let work = root.file("work")
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    try root.write("cloned with a token\n", to: "work/README")
    let identity = ["-c", "user.name=Test", "-c", "user.email=test@example.com"]
    for arguments in [
      ["init", "-q", "-b", "main", work], ["-C", work, "add", "README"],
      identity + ["-C", work, "commit", "-q", "-m", "first"],
      ["clone", "-q", "--bare", work, root.file("repo.git")],
      ["--git-dir", root.file("repo.git"), "update-server-info"],
    ] {
      let result = try await git(arguments)
      #expect(result.status == 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
    }
    return cli.folder.file("clones")
  }

  func stop() async { await loopback.stop() }
}
