import Foundation
import Sandbox
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `login`, `token`, `list`, `logout` and `export` as scripts use them: the built binary
/// against `authtui-sandbox`, the user played by `authtui-test-browser` submitting the
/// sandbox's own forms.
@Suite struct AccountCommandTests {
  @Test func signsInToEverySandboxProfileWithEveryFlowItOffers() async throws {
    let cli = try await CLIHarness.start()
    for (provider, user, flow) in [
      ("sandbox", "alice", "pkce"), ("sandbox", "bob", "device"), ("hivesigner", "carol", "pkce"),
      ("muhajir", "dan", "pkce"), ("simkl", "eve", "pkce"),
    ] {
      let result = try await cli.login(provider, as: user, ["--flow", flow])
      #expect(result.status == 0, "\(provider) \(flow): \(result.stderr)")
      #expect(result.stdout.hasPrefix("Signed in as \(provider)/\(user)."))
    }
    // Simkl's PIN: the code is only known once the flow has started, so the "person" reads it
    // from the user_code event.
    let codeFile = cli.folder.file("pin-code")
    var environment = cli.environment
    environment["AUTHTUI_TEST_BROWSER_USER"] = "frank"
    environment["AUTHTUI_TEST_BROWSER_USER_CODE_FILE"] = codeFile
    let pin = try RunningChild(
      Products.authtui, ["login", "simkl", "--flow", "pin", "--json"], environment: environment)
    let event = try #require(await pin.nextLine(timeout: 30))
    let code = try #require(
      (try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any])?["user_code"]
        as? String)
    try cli.folder.write(code, to: "pin-code")
    let signedIn = try #require(await pin.nextLine(timeout: 30))
    #expect(signedIn == #"{"event":"signed_in","account":"simkl/frank","expires_at":null}"#)
    #expect(await pin.wait(timeout: 30) == 0)

    let accounts = try await cli.accounts()
    #expect(
      accounts.map { $0["account"] as? String } == [
        "hivesigner/carol", "muhajir/dan", "sandbox/alice", "sandbox/bob", "simkl/eve",
        "simkl/frank",
      ])
    #expect(accounts.allSatisfy { $0["status"] as? String == "valid" })
    #expect(
      accounts.map { $0["label"] as? String } == ["carol", "dan", "alice", "bob", "eve", "frank"])
    #expect(accounts.map { $0["refreshable"] as? Bool } == [false, true, true, true, false, false])
    await cli.stop()
  }

  /// Foundation makes a URL cache folder and a cookie folder in the home folder when a
  /// session is configured, though authtui keeps neither: a sign-in, a refresh and a sign-out
  /// leave no folder behind there.
  @Test func theNetworkLeavesNoFoldersInTheHomeFolder() async throws {
    let cli = try await CLIHarness.start()
    let home = cli.folder.path
    let cacheless: [String: String?] = ["XDG_CACHE_HOME": nil, "XDG_DATA_HOME": nil]
    #expect(try await cli.run(["login", "sandbox"], cacheless).status == 0)
    let token = try await cli.run(["token", "sandbox/alice", "--min-valid", "86400"], cacheless)
    #expect(token.status == 0, "\(token.stderr)")
    #expect(await cli.stat("refreshes") == 1)
    #expect(try await cli.run(["logout", "sandbox/alice"], cacheless).status == 0)
    #expect(!FileManager.default.fileExists(atPath: home + "/.cache"))
    #expect(!FileManager.default.fileExists(atPath: home + "/.local"))
    await cli.stop()
  }

  @Test func aDeviceSignInWhosePollGetsA500RetriesAndStillSignsIn() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "oidc", "device_interval": 1}"#)
    await cli.hook("fault", #"{"path": "/oidc/token", "kind": "status500", "count": 1}"#)
    let result = try await cli.run(
      ["login", "sandbox", "--flow", "device", "--json"], ["AUTHTUI_TEST_BROWSER_USER": "bob"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(result.stdout)")
    #expect(lines.first?.hasPrefix(#"{"event":"user_code","#) == true)
    #expect(
      lines.dropFirst().first
        == #"{"event":"retrying","reason":"http_status","message":"provider unreachable, retrying (HTTP 500)"}"#
    )
    #expect(lines.last?.hasPrefix(#"{"event":"signed_in","account":"sandbox/bob","#) == true)
    #expect(
      result.stderr.contains(
        "Provider unreachable, retrying (HTTP 500); the code stays valid until it expires."))
    #expect(await cli.stat("faults") == 1)
    await cli.stop()
  }

  @Test func writesLoginEventsAsJSONLines() async throws {
    let cli = try await CLIHarness.start()
    let result = try await cli.run(["login", "sandbox", "--json"])
    #expect(result.status == 0)
    let events = result.stdout.split(separator: "\n").map {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) ?? [:]
    }
    #expect(events.map { $0["event"] as? String } == ["authorize", "signed_in"])
    #expect((events[0]["url"] as? String)?.contains("/oidc/authorize?") == true)
    #expect(events[1]["account"] as? String == "sandbox/alice")
    #expect(events[1]["expires_at"] is String)

    let denied = try await cli.run(
      ["login", "sandbox", "--json"], ["AUTHTUI_TEST_BROWSER_ACTION": "deny"])
    #expect(denied.status == 6)
    let error = try #require(
      try JSONSerialization.jsonObject(
        with: Data((denied.stdout.split(separator: "\n").last ?? "").utf8))
        as? [String: Any])
    #expect(error["event"] as? String == "error")
    #expect(error["error"] as? String == "access_denied")
    await cli.stop()
  }

  @Test func refreshesOnceWhenTheTokenRunsLowAndKeepsTheRotatedRefreshToken() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "oidc", "access_token_lifetime": 30}"#)
    try await cli.login("sandbox")
    let first = try await cli.run(["token", "sandbox/alice", "--min-valid", "10"])
    #expect(first.status == 0)
    #expect(await cli.stat("refreshes") == 0)

    let second = try await cli.run(["token", "sandbox/alice", "--min-valid", "60"])
    #expect(second.status == 0)
    #expect(second.stdout != first.stdout)
    #expect(await cli.stat("refreshes") == 1)

    let third = try await cli.run(["token", "sandbox", "--min-valid", "10"])
    #expect(third.stdout == second.stdout)
    #expect(await cli.stat("refreshes") == 1)

    // The stored refresh token is the rotated one: refreshing again is no reuse.
    let fourth = try await cli.run(["token", "sandbox/alice", "--min-valid", "60"])
    #expect(fourth.status == 0)
    #expect(await cli.stat("refreshes") == 2)
    #expect(await cli.stat("reuse_detections") == 0)
    await cli.stop()
  }

  @Test func refreshesOnceForThirtyTwoProcessesAskingAtTheSameMoment() async throws {
    let cli = try await CLIHarness.start()
    try await cli.signInWithATokenRunningLow()
    let outputs = try await cli.runAtOnce(
      32, ["token", "sandbox/alice", "--min-valid", "60"], changes: { _ in [:] })
    await cli.expectOneSharedRefresh(outputs)
    await cli.stop()
  }

  @Test func asksForANewSignInWhenTheProviderRefusesTheRefreshToken() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    await cli.hook("invalidate", #"{"profile": "oidc"}"#)
    let refused = try await cli.run(["token", "sandbox/alice", "--min-valid", "100000"])
    #expect(refused.status == 5)
    #expect(refused.stdout.isEmpty)
    #expect(refused.stderr.contains("sign in again with `authtui login sandbox --label alice`"))
    #expect(try await cli.accounts().first?["status"] as? String == "sign_in_needed")
    let again = try await cli.run(["token", "sandbox/alice"])
    #expect(again.status == 5)
    await cli.stop()
  }

  @Test func revokesOnLogoutAndRemovesTheAccountEvenWhenRevocationFails() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try await cli.login("sandbox", as: "bob")
    let logout = try await cli.run(["logout", "sandbox/alice"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stdout.contains("the provider revoked its tokens"))
    #expect(logout.stderr.contains("Opened the provider's sign-out page"))
    #expect(await cli.stat("revocations") == 2)

    await cli.hook("fault", #"{"path": "/oidc/revoke", "kind": "status500", "count": 2}"#)
    let failing = try await cli.run(["logout", "sandbox/bob"])
    #expect(failing.status == 7)
    #expect(failing.stderr.contains("may keep working until they expire"))
    #expect(try await cli.accounts().isEmpty)
    await cli.stop()
  }

  @Test func removesADamagedAccountByIDSoThatItsLabelSignsInAgain() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try await cli.login("sandbox", as: "bob")
    try await VaultFileEditor.flipBit(
      inCell: "access_token", ofAccount: 2, vaultAt: cli.workspace.vaultPath)

    let listed = try await cli.run(["list"])
    #expect(listed.stderr.contains("account #2 (sandbox/bob) is damaged"))
    #expect(listed.stderr.contains("remove it with `authtui logout '#2' --local-only`"))
    let again = try await cli.login(
      "sandbox", as: "bob", ["--label", "bob"], expectedStatus: 1)
    #expect(again.status == 1)
    #expect(
      again.stderr.contains(
        "sandbox/bob is account #2, which is damaged (its sealed access_token cell failed "
          + "authentication (altered, or copied from elsewhere)); remove it with "
          + "`authtui logout '#2' --local-only`, then sign in again"))
    let revoking = try await cli.run(["logout", "#2"])
    #expect(revoking.status == 1)
    #expect(revoking.stderr.contains("its tokens cannot be read, so they cannot be revoked"))
    #expect(revoking.stderr.contains("`authtui logout '#2' --local-only`"))

    let removed = try await cli.run(["logout", "#2", "--local-only"])
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(
      removed.stdout.hasPrefix("Removed the damaged account #2 (sandbox/bob) from this vault."))
    let afterwards = try await cli.run(["list"])
    #expect(afterwards.stderr.isEmpty)
    #expect(!afterwards.stdout.contains("bob"))
    let signedIn = try await cli.login("sandbox", as: "bob")
    #expect(signedIn.status == 0, "\(signedIn.stderr)")
    #expect(
      try await cli.accounts().map { $0["account"] as? String } == ["sandbox/alice", "sandbox/bob"])

    // A damaged label cell: the name cannot be confirmed, so the name points to the id.
    try await VaultFileEditor.flipBit(
      inCell: "label", ofAccount: 3, vaultAt: cli.workspace.vaultPath)
    let byName = try await cli.run(["logout", "sandbox/bob", "--local-only"])
    #expect(byName.status == 1)
    #expect(
      byName.stderr.contains("name it by id to remove it, `authtui logout '#3' --local-only`"))
    #expect(try await cli.run(["logout", "#3", "--local-only"]).status == 0)
    #expect(try await cli.login("sandbox", as: "bob").status == 0)

    // Nothing of #4's name reads: no lookup can tell it was sandbox/bob, so a sign-in under that
    // name goes ahead, and says so.
    for column in ["provider_id", "label"] {
      try await VaultFileEditor.flipBit(
        inCell: column, ofAccount: 4, vaultAt: cli.workspace.vaultPath)
    }
    try await VaultFileEditor.sqlite(
      cli.workspace.vaultPath, "UPDATE accounts SET name_index = X'00' WHERE id = 4")
    let beside = try await cli.login("sandbox", as: "bob")
    #expect(beside.status == 0, "\(beside.stderr)")
    #expect(
      beside.stderr.contains(
        "account #4 is damaged and its name cannot be read, so authtui cannot tell whether it "
          + "was sandbox/bob too; if it was, remove it with `authtui logout '#4' --local-only`"))
    await cli.stop()
  }

  @Test func exportsToAnEnvFileThatAShellReadsBack() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let file = cli.folder.file("tokens.env")
    try "# my settings\nEDITOR='vi'\nMY_TOKEN='stale'\nexport OTHER=1\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    chmod(file, 0o644)
    let export = try await cli.run([
      "export", "sandbox/alice", "--env-file", file, "--var", "MY_TOKEN",
    ])
    #expect(export.status == 0, "\(export.stderr)")
    let token = try await cli.run(["token", "sandbox/alice"]).stdout
    let read = try await ChildProcess.run(
      "/bin/sh", ["-c", ". \"$1\"; printf %s \"$MY_TOKEN|$EDITOR|$OTHER\"", "sh", file])
    #expect(read.stdout == token.dropLast() + "|vi|1")
    var info = stat()
    stat(file, &info)
    #expect(info.st_mode & 0o777 == 0o600)
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.hasPrefix("# my settings\nEDITOR='vi'\nexport OTHER=1\nMY_TOKEN='"))
    #expect(text.contains("MY_TOKEN_EXPIRES_AT='"))
    await cli.stop()
  }

  @Test func exportsThroughASymlinkAndIntoACRLFFileButRefusesAFIFOAndAFolder() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let token = try await cli.run(["token", "sandbox/alice"]).stdout.dropLast()

    // A dotfiles link: the target gets the token, the link stays a link.
    try FileManager.default.createDirectory(
      atPath: cli.folder.file("dotfiles"), withIntermediateDirectories: false)
    let target = cli.folder.file("dotfiles/tokens.env")
    try cli.folder.write("EDITOR='vi'\n", to: "dotfiles/tokens.env")
    chmod(target, 0o644)
    let link = cli.folder.file("tokens.env")
    #expect(symlink(target, link) == 0)
    let linked = try await cli.run(["export", "sandbox/alice", "--env-file", link])
    #expect(linked.status == 0, "\(linked.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    var info = stat()
    #expect(lstat(target, &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o777 == 0o600)
    let read = try await ChildProcess.run(
      "/bin/sh", ["-c", ". \"$1\"; printf %s \"$SANDBOX_TOKEN|$EDITOR\"", "sh", link])
    #expect(read.stdout == token + "|vi")

    // CRLF lines: the old token's line goes, the others stay byte for byte.
    let crlf = cli.folder.file("crlf.env")
    try cli.folder.write("FOO=bar\r\nSANDBOX_TOKEN=old\n", to: "crlf.env")
    #expect(try await cli.run(["export", "sandbox/alice", "--env-file", crlf]).status == 0)
    let crlfText = try String(contentsOfFile: crlf, encoding: .utf8)
    #expect(crlfText.hasPrefix("FOO=bar\r\nSANDBOX_TOKEN='\(token)'\nSANDBOX_TOKEN_EXPIRES_AT='"))
    #expect(!crlfText.contains("SANDBOX_TOKEN=old"))

    // A FIFO is never opened (that would wait for a writer): refused at once, still a FIFO.
    // Should it regress and block, the harness kills the run after its bounded timeout.
    let fifo = cli.folder.file("pipe.env")
    try #require(mkfifo(fifo, 0o600) == 0)
    let piped = try await cli.run(["export", "sandbox/alice", "--env-file", fifo])
    #expect(!piped.timedOut)
    #expect(piped.status == 1)
    #expect(
      piped.stderr
        == "authtui: cannot write \(fifo): it is a FIFO (named pipe), not a regular file: "
        + "give the path of an env file\n")
    #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)

    // `/dev/stdout` under a pipe links to `pipe:[…]`, which has no path: a pipe, not a
    // dangling link, and `token` is the command that writes there.
    let stdout = try await cli.run(["export", "sandbox/alice", "--env-file", "/dev/stdout"])
    #expect(stdout.status == 1)
    #expect(stdout.stdout.isEmpty)
    #expect(
      stdout.stderr
        == "authtui: cannot write /dev/stdout: it is a symlink to /proc/self/fd/1, which is a "
        + "pipe, not a regular file: export writes files only (`authtui token ACCOUNT` prints "
        + "the token on standard output); give the path of an env file\n")

    let folder = cli.folder.file("a-folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let refused = try await cli.run(["export", "sandbox/alice", "--env-file", folder])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("it is a folder, not a regular file"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    #expect(
      !(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path)
        .contains { $0.hasSuffix(".tmp") }))
    await cli.stop()
  }

  @Test func givesEachExitCodeForItsCause() async throws {
    let cli = try await CLIHarness.start()
    // Before the first sign-in, the one that makes it.
    let first = try await cli.run(["token", "sandbox"])
    #expect(first.status == 4)
    #expect(
      first.stderr
        == "authtui: no account sandbox: you have no sandbox account yet (`authtui login sandbox` "
        + "signs in to one)\n")
    try await cli.login("sandbox")
    #expect(try await cli.run(["token", "sandbox/alice"]).status == 0)
    #expect(
      try await cli.run(["export", "sandbox/alice", "--env-file", "/nonexistent/dir/x.env"]).status
        == 1)
    #expect(try await cli.run(["token"]).status == 2)
    #expect(try await cli.run(["login", "sandbox", "--flow", "implicit"]).status == 2)
    let wrong = try await cli.run(["token", "sandbox/alice"], ["AUTHTUI_PASSPHRASE": "wrong"])
    #expect(wrong.status == 3)
    #expect(wrong.stderr.contains("AUTHTUI_PASSPHRASE does not open the vault"))
    let missing = try await cli.run(["token", "sandbox/alcie"])
    #expect(missing.status == 4)
    #expect(missing.stderr == "authtui: no account sandbox/alcie; did you mean `sandbox/alice`?\n")
    #expect(try await cli.run(["login", "nowhere"]).status == 4)
    await cli.hook("invalidate", #"{"profile": "oidc"}"#)
    #expect(try await cli.run(["token", "sandbox/alice", "--min-valid", "100000"]).status == 5)
    let denied = try await cli.run(["login", "sandbox"], ["AUTHTUI_TEST_BROWSER_ACTION": "deny"])
    #expect(denied.status == 6)
    try await cli.login("sandbox", as: "bob")
    await cli.hook("fault", #"{"path": "/oidc/token", "kind": "status500", "count": 1}"#)
    let down = try await cli.run(["token", "sandbox/bob", "--min-valid", "100000"])
    #expect(down.status == 7)
    #expect(down.stderr.contains("500"))
    #expect(try await cli.run(["token", "sandbox/bob", "--min-valid", "10"]).status == 0)
    await cli.stop()
  }

  @Test func printsNoTokenAnywhereButTokensOwnStandardOutput() async throws {
    let cli = try await CLIHarness.start()
    var outputs: [String] = []
    func record(_ result: ChildProcess.Result) {
      outputs += [result.stdout, result.stderr]
    }
    record(try await cli.run(["login", "sandbox", "--json"]))
    record(
      try await cli.run(
        ["login", "sandbox", "--flow", "device"], ["AUTHTUI_TEST_BROWSER_USER": "bob"]))
    record(try await cli.run(["list"]))
    record(try await cli.run(["list", "--json"]))
    record(try await cli.run(["export", "sandbox/alice", "--env-file", cli.folder.file("t.env")]))
    record(try await cli.run(["vault", "status"]))
    record(try await cli.run(["providers", "--json"]))
    let first = try await cli.run(["token", "sandbox/alice"])
    let refreshed = try await cli.run(["token", "sandbox/alice", "--min-valid", "100000"])
    let bob = try await cli.run(["token", "sandbox/bob"])
    record(try await cli.run(["logout", "sandbox/bob"]))
    record(try await cli.run(["token", "sandbox/bob"]))
    let tokens = [first.stdout, refreshed.stdout, bob.stdout].map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(tokens.allSatisfy { $0.count > 20 })
    for output in outputs {
      for token in tokens {
        #expect(!output.contains(token))
      }
    }
    let envFile = try String(contentsOfFile: cli.folder.file("t.env"), encoding: .utf8)
    #expect(envFile.contains(tokens[0]))
    await cli.stop()
  }
}

@Suite struct LoginPasteTests {
  /// The SSH case: the browser runs elsewhere and cannot reach this machine's listener, so the
  /// person pastes the address it ended on; a wrong paste is refused and the wait goes on.
  @Test func signsInFromAPastedRedirectAfterRefusingABadOne() async throws {
    let cli = try await CLIHarness.start()
    let login = try RunningChild(
      Products.authtui, ["login", "sandbox", "--flow", "pkce", "--no-browser", "--json"],
      environment: cli.environment
    )
    let authorize = try #require(await login.nextLine(timeout: 30))
    let errors = await login.standardError()
    let url = try #require(
      (try JSONSerialization.jsonObject(with: Data(authorize.utf8)) as? [String: Any])?["url"]
        as? String, "first line: \(authorize); \(errors)")
    let person = ScriptedBrowser(
      script: ScriptedBrowser.Script(username: "alice", onAnotherMachine: true))
    let visit = await person.visit(url)
    #expect(visit.finalURL.contains("/callback?code="))

    #expect(await login.send("http://127.0.0.1:1/callback?code=x&state=forged"))
    #expect(await login.send(visit.finalURL))
    let signedIn = try #require(await login.nextLine(timeout: 30))
    #expect(signedIn.hasPrefix(#"{"event":"signed_in","account":"sandbox/alice""#))
    #expect(await login.wait(timeout: 30) == 0)
    #expect(await login.standardError().contains("That address was not accepted"))
    await cli.stop()
  }
}
