import Crypto
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui exec ACCOUNT -- COMMAND` and `authtui token ACCOUNT --header` with the built
/// binaries against `authtui-sandbox`: the child sees the token (as a hash, so the test
/// compares it without printing it), its exit status and signals pass through, and curl sends
/// the header the sandbox's userinfo endpoint accepts.
@Suite struct ExecCommandTests {
  /// A child that prints the SHA-256 of `$VARIABLE` and the value of `$VARIABLE_EXPIRES_AT`.
  static func hashing(_ variable: String = "AUTHTUI_TOKEN") -> [String] {
    [
      "/bin/sh", "-c",
      #"printf %s "$\#(variable)" | sha256sum | cut -d' ' -f1; printf '%s\n' "${\#(variable)_EXPIRES_AT-unset}""#,
    ]
  }

  static func hex(_ text: String) -> String {
    SHA256.hash(text).map { String(format: "%02x", $0) }.joined()
  }

  /// The stored token's hash and its expiry as `export --env-file` writes it.
  static func stored(_ cli: CLIHarness) async throws -> (hash: String, expiry: String) {
    let record = try await cli.workspace.withVault { vault in
      try await vault.account(providerID: "sandbox", label: "alice")
    }
    let tokens = try #require(record?.tokens)
    let token = try #require(tokens.accessToken)
    let expiry = try #require(tokens.expiresAt)
    return (hex(token), String(Int(expiry.timeIntervalSince1970)))
  }

  @Test func theChildGetsTheStoredTokenAndItsExpiryInItsEnvironment() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let (hash, expiry) = try await Self.stored(cli)

    let result = try await cli.run(["exec", "sandbox/alice", "--"] + Self.hashing())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "\(hash)\n\(expiry)\n")
    #expect(result.stderr == "")

    // --var names the variable; the default one is then not set.
    let named = try await cli.run(
      ["exec", "sandbox", "--var", "API_TOKEN", "--"]
        + [
          "/bin/sh", "-c",
          #"printf %s "$API_TOKEN" | sha256sum | cut -d' ' -f1; echo "${AUTHTUI_TOKEN-none}" "$API_TOKEN_EXPIRES_AT""#,
        ])
    #expect(named.status == 0, "\(named.stderr)")
    #expect(named.stdout == "\(hash)\nnone \(expiry)\n")

    // The token is in no argument of the child (`ps` shows those to every user).
    let argv = try await cli.run(
      ["exec", "sandbox/alice", "--", "sh", "-c", #"tr '\0' '\n' < /proc/$$/cmdline"#])
    #expect(argv.status == 0)
    #expect(argv.stdout == "sh\n-c\ntr '\\0' '\\n' < /proc/$$/cmdline\n")

    // Options after `--` belong to COMMAND, even authtui's own.
    let options = try await cli.run(["exec", "sandbox/alice", "--", "echo", "--help", "--var"])
    #expect(options.status == 0)
    #expect(options.stdout == "--help --var\n")
    await cli.stop()
  }

  @Test func minValidRefreshesFirstAndTheChildGetsTheNewToken() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let before = try await Self.stored(cli)
    let result = try await cli.run(
      ["exec", "sandbox/alice", "--min-valid", "100000", "--"] + Self.hashing())
    // The sandbox's tokens last an hour: asked for more, the refresh happens and its token,
    // obtained during this call, is the one given.
    #expect(result.status == 0, "\(result.stderr)")
    let after = try await Self.stored(cli)
    #expect(after.hash != before.hash)
    #expect(result.stdout == "\(after.hash)\n\(after.expiry)\n")
    #expect(await cli.stat("refreshes") == 1)
    await cli.stop()
  }

  @Test func theExitStatusIsTheChildsAndASignalDeathIsReportedAsShellsDo() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    #expect(try await cli.run(["exec", "sandbox", "--", "sh", "-c", "exit 7"]).status == 7)
    #expect(try await cli.run(["exec", "sandbox", "--", "true"]).status == 0)
    #expect(try await cli.run(["exec", "sandbox", "--", "false"]).status == 1)
    // Killed by SIGKILL (which no one can forward or trap): 128 + 9.
    #expect(try await cli.run(["exec", "sandbox", "--", "sh", "-c", "kill -9 $$"]).status == 137)
    await cli.stop()
  }

  @Test func sigtermReachesTheChildAndAuthtuiWaitsForItAndExitsWithItsStatus() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let marker = cli.folder.file("terminated")
    // The child says `ready` once its trap is set; `wait` returns as soon as TERM comes.
    let script = """
      trap 'echo "got TERM" > "$1"; kill $! 2>/dev/null; exit 3' TERM
      sleep 1000 </dev/null >/dev/null 2>&1 &
      echo ready
      wait $!
      exit 9
      """
    let child = try RunningChild(
      Products.authtui, ["exec", "sandbox/alice", "--", "sh", "-c", script, "sh", marker],
      environment: cli.environment)
    #expect(await child.nextLine(timeout: 60) == "ready")
    await child.kill(SIGTERM)
    #expect(await child.wait(timeout: 60) == 3)
    #expect(try String(contentsOfFile: marker, encoding: .utf8) == "got TERM\n")
    await cli.stop()
  }

  /// SIGQUIT, SIGUSR1 and SIGUSR2 end a process that does not catch them: authtui died of each
  /// and left COMMAND running, with no one to report how it ended. Each now reaches COMMAND,
  /// and authtui keeps waiting and exits with COMMAND's status.
  @Test func sigquitSigusr1AndSigusr2ReachTheChildAndAuthtuiKeepsWaitingForIt() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let log = cli.folder.file("signals")
    // Each trap logs its signal and says so on standard output (the test's cue for the next
    // one); `wait` returns as soon as a trapped signal comes, and the loop waits again. USR2
    // ends the child with a status of its own.
    let script = """
      trap 'echo QUIT >> "$1"; echo got QUIT' QUIT
      trap 'echo USR1 >> "$1"; echo got USR1' USR1
      trap 'echo USR2 >> "$1"; kill $! 2>/dev/null; exit 5' USR2
      sleep 1000 </dev/null >/dev/null 2>&1 &
      echo ready
      while :; do wait $!; done
      """
    let child = try RunningChild(
      Products.authtui, ["exec", "sandbox/alice", "--", "sh", "-c", script, "sh", log],
      environment: cli.environment)
    #expect(await child.nextLine(timeout: 60) == "ready")
    await child.kill(SIGQUIT)
    #expect(await child.nextLine(timeout: 60) == "got QUIT")
    await child.kill(SIGUSR1)
    #expect(await child.nextLine(timeout: 60) == "got USR1")
    await child.kill(SIGUSR2)
    #expect(await child.wait(timeout: 60) == 5)
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "QUIT\nUSR1\nUSR2\n")
    await cli.stop()
  }

  /// The descriptors a child's shell has open, as numbers: `ls` runs as a child of that shell
  /// (the `; true` keeps the shell from replacing itself with it), so `ls`'s own are not
  /// counted.
  static let openDescriptors = ["sh", "-c", #"ls /proc/$$/fd; true"#]

  static func numbers(_ listing: String) -> [Int] {
    listing.split(separator: "\n").compactMap { Int($0) }.sorted()
  }

  @Test func theChildGetsOnlyItsStandardDescriptorsAndThoseHandedToAuthtui() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    // `--min-valid` above the token's lifetime: the refresh happens in this very process, so
    // URLSession's socket pairs (opened without close-on-exec) exist when COMMAND starts.
    let result = try await cli.run(
      ["exec", "sandbox/alice", "--min-valid", "100000", "--"] + Self.openDescriptors)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(await cli.stat("refreshes") == 1)
    #expect(Self.numbers(result.stdout) == [0, 1, 2], "\(result.stdout)")

    // What a shell hands to authtui (`7</dev/null 9>/dev/null`) is the command's, as a shell
    // would hand it: under the same numbers, and nothing else with them.
    let handed = try await cli.run(
      [
        "-c", #"exec "$0" exec sandbox/alice --min-valid 100000 -- "$@" 7</dev/null 9>/dev/null"#,
        Products.authtui,
      ] + Self.openDescriptors, executable: "/bin/sh")
    #expect(handed.status == 0, "\(handed.stderr)")
    #expect(await cli.stat("refreshes") == 2)
    #expect(Self.numbers(handed.stdout) == [0, 1, 2, 7, 9], "\(handed.stdout)")
    await cli.stop()
  }

  /// `--var LD_PRELOAD` made ld.so print the token on standard error, `--var PATH` left
  /// COMMAND's shell without programs, `--var AUTHTUI_TOKEN_TYPE` lost the token to its
  /// scheme: such names are refused before anything runs, with the reason and a way out.
  @Test func refusesVariablesTheLoaderTheShellOrAuthtuiReads() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let (hash, _) = try await Self.stored(cli)
    let loader =
      "the dynamic loader or the C library reads it as COMMAND starts, and may print or act on "
      + "the token"
    let shell = "the shell and the programs COMMAND starts read it"
    let own =
      "authtui sets or reads AUTHTUI_ variables (exec sets AUTHTUI_TOKEN_TYPE and "
      + "NAME_EXPIRES_AT), and the token would replace one or be replaced"
    for (name, reason) in [
      ("LD_PRELOAD", loader), ("LD_LIBRARY_PATH", loader), ("MALLOC_CHECK_", loader),
      ("GCONV_PATH", loader), ("PATH", shell), ("HOME", shell), ("IFS", shell),
      ("SHELL", shell), ("ENV", shell), ("BASH_ENV", shell), ("LC_ALL", shell),
      ("AUTHTUI_TOKEN_TYPE", own), ("AUTHTUI_TOKEN_EXPIRES_AT", own),
      ("AUTHTUI_PASSPHRASE", own),
    ] {
      let result = try await cli.run(["exec", "sandbox/alice", "--var", name, "--", "env"])
      #expect(result.status == 2, "\(name): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(name)")
      #expect(
        result.stderr
          == "authtui: --var \(name) cannot hold the token: \(reason); choose a name of your "
          + "own, for example --var MY_TOKEN\n")
    }
    // The default may be named, and a name of the user's own is taken as it is.
    for name in ["AUTHTUI_TOKEN", "MY_TOKEN", "PATH_TOKEN"] {
      let result = try await cli.run(
        ["exec", "sandbox/alice", "--var", name, "--"] + Self.hashing(name))
      #expect(result.status == 0, "\(name): \(result.stderr)")
      #expect(result.stdout.hasPrefix(hash + "\n"), "\(name)")
    }
    await cli.stop()
  }

  /// `help exec` names the expiry variable as exec sets it: NAME_EXPIRES_AT with --var.
  @Test func helpNamesTheExpiryVariableThatVarGives() async throws {
    let help = try await ChildProcess.run(Products.authtui, ["help", "exec"])
    #expect(help.status == 0)
    let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("expiry in AUTHTUI_TOKEN_EXPIRES_AT (NAME_EXPIRES_AT with --var;"))
  }

  @Test func theChildGetsNoPassphraseVariable() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let passphraseFile = cli.folder.file("passphrase")
    try (SandboxWorkspace.passphrase + "\n").write(
      toFile: passphraseFile, atomically: true, encoding: .utf8)
    let result = try await cli.run(
      ["exec", "sandbox/alice", "--", "env"],
      ["AUTHTUI_PASSPHRASE_FILE": passphraseFile, "AUTHTUI_NEW_PASSPHRASE": "new", "KEPT": "yes"])
    #expect(result.status == 0, "\(result.stderr)")
    let names = result.stdout.split(separator: "\n").map { $0.prefix { $0 != "=" } }
    #expect(!names.contains { $0.hasPrefix("AUTHTUI_PASSPHRASE") || $0.hasPrefix("AUTHTUI_NEW_") })
    #expect(names.contains("AUTHTUI_TOKEN"))
    #expect(names.contains("AUTHTUI_TOKEN_EXPIRES_AT"))
    #expect(names.contains("KEPT"))
    #expect(!result.stdout.contains(SandboxWorkspace.passphrase))
    await cli.stop()
  }

  @Test func aCommandNotFoundExits127AndAccountErrorsAreTokensOwn() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let missing = try await cli.run(["exec", "sandbox/alice", "--", "no-such-program-here", "x"])
    #expect(missing.status == 127)
    #expect(
      missing.stderr
        == "authtui: no-such-program-here: command not found (exec looks for it on PATH)\n")
    let notExecutable = try await cli.run(["exec", "sandbox/alice", "--", cli.folder.path])
    #expect(notExecutable.status == 126)
    #expect(notExecutable.stderr.contains("cannot be run"))

    // The same status and line as `token` for the same account problem.
    for account in ["sandbox/nobody", "nosuchprovider/alice"] {
      let token = try await cli.run(["token", account])
      let exec = try await cli.run(["exec", account, "--", "true"])
      #expect(token.status != 0)
      #expect(exec.status == token.status, "\(account)")
      #expect(exec.stderr == token.stderr, "\(account)")
      #expect(exec.stdout == "")
    }
    let locked = try await cli.run(
      ["exec", "sandbox/alice", "--", "true"], ["AUTHTUI_PASSPHRASE": "wrong"])
    #expect(locked.status == 3)
    #expect(
      locked.stderr
        == (try await cli.run(["token", "sandbox/alice"], ["AUTHTUI_PASSPHRASE": "wrong"])).stderr)
    await cli.stop()
  }

  @Test func usageErrorsShowTheUsageLine() async throws {
    let cli = try await CLIHarness.start()
    let usage =
      "(usage: authtui exec ACCOUNT [--var NAME] [--min-valid SECONDS] -- COMMAND [ARGS...])"
    let cases: [([String], String)] = [
      (["exec", "sandbox"], "'exec' needs `--` and the command to run after ACCOUNT"),
      (["exec", "sandbox", "true"], "'exec' needs `--` and the command to run after ACCOUNT"),
      (["exec", "sandbox", "--"], "'exec' needs the command to run after `--`"),
      (["exec", "--", "true"], "'exec' needs ACCOUNT before `--`"),
      (["exec", "sandbox", "extra", "--", "true"], "'exec' takes only ACCOUNT before `--`"),
    ]
    for (arguments, problem) in cases {
      let result = try await cli.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr == "authtui: \(problem) \(usage)\n", "\(arguments)")
    }
    // An option of the command, without `--`, is pointed there.
    let withoutSeparator = try await cli.run(["exec", "sandbox", "sh", "-c", "true"])
    #expect(withoutSeparator.status == 2)
    #expect(
      withoutSeparator.stderr
        == "authtui: unknown option '-c' for 'exec' (the command to run and its options go "
        + "after `--`: authtui exec ACCOUNT [--var NAME] [--min-valid SECONDS] -- COMMAND "
        + "[ARGS...])\n")
    // --var follows export's rule.
    let badName = try await cli.run(["exec", "sandbox", "--var", "1BAD", "--", "true"])
    let exportBadName = try await cli.run(
      ["export", "sandbox", "--env-file", cli.folder.file("e"), "--var", "1BAD"])
    #expect(badName.status == 2)
    #expect(badName.stderr == exportBadName.stderr)
    let help = try await cli.run(["help", "exec"])
    #expect(help.stdout.hasPrefix("Usage: authtui exec ACCOUNT [--var NAME]"))
    await cli.stop()
  }

  @Test func throughTheAgentNoPassphraseIsNeeded() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let (hash, expiry) = try await Self.stored(cli)
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let result = try await cli.run(
      ["exec", "sandbox/alice", "--"] + Self.hashing(), ["AUTHTUI_PASSPHRASE": "wrong"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "\(hash)\n\(expiry)\n")
    // --min-valid travels to the agent, which refreshes.
    let refreshed = try await cli.run(
      ["exec", "sandbox/alice", "--min-valid", "100000", "--"] + Self.hashing(),
      ["AUTHTUI_PASSPHRASE": "wrong"])
    #expect(refreshed.status == 0, "\(refreshed.stderr)")
    let after = try await Self.stored(cli)
    #expect(after.hash != hash)
    #expect(refreshed.stdout == "\(after.hash)\n\(after.expiry)\n")
    // An account error from the agent is the one `token` gives.
    let missing = try await cli.run(
      ["exec", "sandbox/nobody", "--", "true"], ["AUTHTUI_PASSPHRASE": "wrong"])
    let tokenMissing = try await cli.run(
      ["token", "sandbox/nobody"], ["AUTHTUI_PASSPHRASE": "wrong"])
    #expect(missing.status == 4)
    #expect(missing.stderr == tokenMissing.stderr)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  /// The real curl, which `.ci/run` installs.
  static let curl: String? = ["/usr/bin/curl", "/bin/curl"].first { (path: String) in
    access(path, X_OK) == 0
  }

  @Test(.enabled(if: curl != nil, "curl is not installed (.ci/run installs it)"))
  func tokenHeaderIsOneLineCurlSendsToAnEndpointThatNeedsTheToken() async throws {
    let curl = try #require(Self.curl)
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let token = try #require(try await cli.storedToken("sandbox", "alice"))
    let header = try await cli.run(["token", "sandbox/alice", "--header"])
    #expect(header.status == 0, "\(header.stderr)")
    #expect(header.stdout == "Authorization: Bearer \(token)\n")

    let userinfo = "http://127.0.0.1:\(cli.workspace.port)/oidc/userinfo"
    let script = #""$1" token sandbox/alice --header | "$2" -sS -f -H @- "$3""#
    let piped = try await cli.run(
      ["-c", script, "sh", Products.authtui, curl, userinfo], executable: "/bin/sh")
    #expect(piped.status == 0, "\(piped.stderr)")
    let answer = try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [String: Any]
    #expect(answer?["sub"] != nil, "\(piped.stdout)")

    // The endpoint refuses a request without the header, and one with another token.
    let bare = try await cli.run(["-sS", "-f", "-o", "/dev/null", userinfo], executable: curl)
    #expect(bare.status == 22)
    let wrong = try await cli.run(
      ["-sS", "-f", "-o", "/dev/null", "-H", "Authorization: Bearer not-the-token", userinfo],
      executable: curl)
    #expect(wrong.status == 22)

    // Through the agent too (the front passes --header to the full program).
    let agent = try await AgentProcess.start(cli)
    let viaAgent = try await cli.run(
      ["token", "sandbox/alice", "--header"], ["AUTHTUI_PASSPHRASE": "wrong"])
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    #expect(viaAgent.stdout == header.stdout)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }
}
