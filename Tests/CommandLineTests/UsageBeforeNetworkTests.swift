import Foundation
import TestSupport
import Testing

/// Usage errors that need the provider catalog or the vault to tell (a label, a flow, a
/// timeout, a variable name) still end with exit 2 before any request: no browser opens, no
/// discovery, no code, no refresh. The sandbox's request counter proves it.
@Suite struct UsageBeforeNetworkTests {
  @Test func loginRefusesABadLabelFlowOrTimeoutWithExitTwoAndNoRequest() async throws {
    let cli = try await CLIHarness.start()
    let cases: [([String], String)] = [
      (
        ["--label", ""],
        "authtui: an account label cannot be empty; give one such as work, or none at all to "
          + "take the provider's name for you\n"
      ),
      (
        ["--label", "#7"],
        "authtui: the label \"#7\" starts with #, which names an account by its number in the "
          + "vault (`#7`, as `authtui list` names a damaged one); choose a label without the #, "
          + "such as \"7\"\n"
      ),
      (
        ["--label", "work/alt"],
        "authtui: the label \"work/alt\" holds /, which separates the provider from the label "
          + "in PROVIDER/LABEL; choose a label without it, such as \"work-alt\"\n"
      ),
      (
        ["--label", "alice\u{1B}[2J"],
        "authtui: the label \"alice\\u{1B}[2J\" holds U+1B, a character that does not show; "
          + "leave it out, such as \"alice[2J\"\n"
      ),
      (
        ["--flow", "pin"],
        "authtui: sandbox does not offer the pin flow; use --flow pkce or device\n"
      ),
      (
        ["--timeout", "9"],
        "authtui: --timeout must be at least 10 seconds, not 9 (for example --timeout 300, or "
          + "leave it out for the provider's)\n"
      ),
    ]
    for (options, message) in cases {
      let result = try await cli.run(["login", "sandbox"] + options)
      #expect(result.status == 2, "\(options): \(result.stderr)")
      #expect(result.stderr == message, "\(options)")
      #expect(result.stdout.isEmpty, "\(options)")
    }
    let json = try await cli.run(["login", "sandbox", "--label", "#7", "--json"])
    #expect(json.status == 2)
    #expect(
      json.stdout.hasPrefix(#"{"event":"error","error":"invalid_label","message":"the label"#))
    #expect(await cli.stat("requests") == 0)
    #expect(try await cli.accounts().isEmpty)

    // The same label rules do not lock out a valid label: the sign-in then goes ahead.
    try await cli.login("sandbox", ["--label", "n7", "--timeout", "120"])
    #expect(try await cli.accounts().map { $0["account"] as? String } == ["sandbox/n7"])
    await cli.stop()
  }

  /// A new user's first `login` names a provider that is mistyped or has no client id yet:
  /// that is what it says, before it says there is no vault (which would have them create one
  /// only to learn it next), and it touches no vault and no network.
  @Test func loginSaysWhatIsWrongWithTheProviderBeforeItLooksForTheVault() async throws {
    let cli = try await CLIHarness.start()
    let missing = cli.folder.file("new/vault.db")
    // A provider file written before its client was registered.
    let draft = #"{"id": "draft", "name": "Draft", "issuer": "https://draft.example"}"#
    try Data(draft.utf8).write(
      to: URL(fileURLWithPath: cli.workspace.configPath + "/providers/draft.json"))
    let cases: [([String], Int32, String)] = [
      (["nosuch"], 4, "authtui: no provider nosuch; `authtui providers` lists them\n"),
      (["sandbx"], 4, "authtui: no provider sandbx; did you mean `sandbox`?\n"),
      (["Sandbox"], 4, "authtui: no provider Sandbox; did you mean `sandbox`?\n"),
      (
        ["sandbox", "--flow", "pin"], 2,
        "authtui: sandbox does not offer the pin flow; use --flow pkce or device\n"
      ),
      (["draft"], 1, "authtui: the provider draft is not ready: no client_id"),
      (
        ["sandbox"], 1,
        "authtui: there is no vault at \(missing); create one with `authtui vault init`"
      ),
    ]
    for (arguments, status, message) in cases {
      let result = try await cli.run(["login"] + arguments, ["AUTHTUI_VAULT": missing])
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments)")
    }
    #expect(!FileManager.default.fileExists(atPath: cli.folder.file("new")))
    #expect(await cli.stat("requests") == 0)

    // Without a browser the sandbox's second flow is taken, and said so once the vault is
    // open, just before the sign-in starts (here its first request fails).
    let noVault = try await cli.run(
      ["login", "sandbox", "--no-browser"], ["AUTHTUI_VAULT": missing])
    #expect(noVault.stderr.hasPrefix("authtui: there is no vault at \(missing)"))
    await cli.hook(
      "fault", #"{"path": "/oidc/device_authorization", "kind": "status500", "count": 1}"#)
    let fellBack = try await cli.run(["login", "sandbox", "--no-browser"])
    #expect(fellBack.status == 7)
    #expect(
      fellBack.stderr.hasPrefix(
        "No browser here: using the device flow (--flow pkce to paste a redirect instead).\n"
          + "authtui: "))
    await cli.stop()
  }

  @Test func exportRefusesAVariableNameBeforeUnlockingOrRefreshing() async throws {
    let cli = try await CLIHarness.start()
    // A token with 30 s left: an export that got as far as the token would refresh it.
    try await cli.signInWithATokenRunningLow()
    let before = await cli.stat("requests")
    let file = cli.folder.file("token.env")
    let result = try await cli.run(
      ["export", "sandbox/alice", "--env-file", file, "--var", "bad-name"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "authtui: \"bad-name\" is not a shell variable name; use letters, digits and _ (not "
        + "starting with a digit), for example --var SIMKL_TOKEN\n")
    // A name the shell that loads the file reads (an env file with PATH='token' leaves it
    // unable to find a program) is refused as `exec --var` refuses it.
    let path = try await cli.run(["export", "sandbox/alice", "--env-file", file, "--var", "PATH"])
    #expect(path.status == 2)
    #expect(
      path.stderr
        == "authtui: --var PATH cannot hold the token: the shell that loads the file, and every "
        + "program it starts, read it; choose a name of your own, for example --var MY_TOKEN\n")
    #expect(await cli.stat("requests") == before)
    #expect(await cli.stat("refreshes") == 0)
    #expect(!FileManager.default.fileExists(atPath: file))
    await cli.stop()
  }

  @Test func loginsHelpStatesTheShortestTimeout() async throws {
    let result = try await ChildProcess.run(Products.authtui, ["login", "--help"])
    #expect(result.status == 0)
    #expect(
      result.stdout.contains(
        "how long the browser flow waits, at least 10 (default: the\n"
          + "                             provider's)"))
  }
}
