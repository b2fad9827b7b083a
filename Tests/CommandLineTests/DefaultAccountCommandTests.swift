import Foundation
import TestSupport
import Testing

/// `authtui default` with the built binaries against `authtui-sandbox`: a bare PROVIDER with
/// several accounts is refused with a short list until one is the default, then names it, in
/// `token`, through the agent and in `list`.
@Suite struct DefaultAccountCommandTests {
  @Test func defaultThenTokenProviderGivesTheDefaultAccountsToken() async throws {
    let cli = try await CLIHarness.start()
    for user in ["alice", "bob", "user2", "user10", "carol", "dave", "erin"] {
      try await cli.login("sandbox", as: user)
    }

    let refused = try await cli.run(["token", "sandbox"])
    #expect(refused.status == 4)
    #expect(
      refused.stderr == """
        authtui: sandbox has 7 accounts and none is its default; name one, for example:
          sandbox/alice
          sandbox/bob
          sandbox/carol
          sandbox/dave
          sandbox/erin
          … and 2 more (`authtui list` shows them all)
        or make one the default: `authtui default sandbox/LABEL`

        """)

    let marked = try await cli.run(["default", "sandbox/user10"])
    #expect(marked.status == 0, "\(marked.stderr)")
    #expect(
      marked.stdout
        == "sandbox/user10 is now sandbox's default account: `authtui token sandbox` gives its "
        + "token.\n")
    let token = try await cli.run(["token", "sandbox"])
    #expect(token.status == 0, "\(token.stderr)")
    #expect(token.stdout == (try await cli.storedToken("sandbox", "user10") ?? "none") + "\n")

    let again = try await cli.run(["default", "sandbox"])
    #expect(again.stdout == "sandbox/user10 is already sandbox's default account.\n")
    let moved = try await cli.run(["default", "sandbox/bob"])
    #expect(
      moved.stdout
        == "sandbox/bob is now sandbox's default account in place of sandbox/user10: "
        + "`authtui token sandbox` gives its token.\n")

    // The running agent reads the same mark from the vault: no passphrase needed.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let viaAgent = try await cli.run(["token", "sandbox"], ["AUTHTUI_PASSPHRASE": nil])
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    #expect(viaAgent.stdout == (try await cli.storedToken("sandbox", "bob") ?? "none") + "\n")
    let listed = try await cli.run(["list"], ["AUTHTUI_PASSPHRASE": nil])
    #expect(listed.stdout.contains("sandbox/bob (default) "))
    #expect(!listed.stdout.contains("sandbox/user10 (default)"))
    // The agent moves and clears the mark itself: no passphrase is asked, and none could open
    // the vault here.
    let wrong: [String: String?] = ["AUTHTUI_PASSPHRASE": "not the passphrase"]
    let movedByAgent = try await cli.run(["default", "sandbox/carol"], wrong)
    #expect(movedByAgent.status == 0, "\(movedByAgent.stderr)")
    #expect(
      movedByAgent.stdout
        == "sandbox/carol is now sandbox's default account in place of sandbox/bob: "
        + "`authtui token sandbox` gives its token.\n")
    let typo = try await cli.run(["default", "sandbox/carl"], wrong)
    #expect(typo.status == 4, "\(typo.stderr)")
    // The same refusal as without the agent, through it.
    #expect(
      typo.stderr.hasPrefix("authtui: no account sandbox/carl; did you mean")
        && typo.stderr.contains("sandbox/carol"), "\(typo.stderr)")
    let clearedByAgent = try await cli.run(["default", "--clear", "sandbox"], wrong)
    #expect(clearedByAgent.stdout == "sandbox has no default account now (it was sandbox/carol).\n")
    #expect(
      try await cli.run(["default", "sandbox/bob"], wrong).stdout.hasPrefix(
        "sandbox/bob is now sandbox's default account: "))
    #expect(await agent.stop().status == 0)

    let rows = try await cli.accounts()
    #expect(
      rows.filter { $0["default"] as? Bool == true }.map { $0["account"] as? String }
        == ["sandbox/bob"])
    #expect(rows.allSatisfy { $0["default"] is Bool })

    let cleared = try await cli.run(["default", "--clear", "sandbox"])
    #expect(cleared.stdout == "sandbox has no default account now (it was sandbox/bob).\n")
    #expect(try await cli.run(["token", "sandbox"]).status == 4)
    let none = try await cli.run(["default", "--clear", "sandbox"])
    #expect(none.stdout == "sandbox had no default account; nothing changed.\n")
    await cli.stop()
  }

  @Test func signingTheDefaultOutLeavesTheProviderWithoutOne() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try await cli.login("sandbox", as: "bob")
    #expect(try await cli.run(["default", "sandbox/alice"]).status == 0)
    #expect(try await cli.run(["logout", "sandbox/alice", "--local-only"]).status == 0)
    // One account left: the bare name reaches it as before, with no mark.
    let token = try await cli.run(["token", "sandbox"])
    #expect(token.stdout == (try await cli.storedToken("sandbox", "bob") ?? "none") + "\n")
    #expect(try await cli.accounts().allSatisfy { $0["default"] as? Bool == false })
    await cli.stop()
  }

  @Test func mistakesAreRefusedWithTheFix() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try await cli.login("sandbox", as: "alicia")
    let typo = try await cli.run(["default", "sandbox/alcie"])
    #expect(typo.status == 4)
    #expect(
      typo.stderr == """
        authtui: no account sandbox/alcie; did you mean one of these?
          sandbox/alice
          sandbox/alicia

        """)
    let clearAccount = try await cli.run(["default", "--clear", "sandbox/alice"])
    #expect(clearAccount.status == 2)
    #expect(
      clearAccount.stderr
        == "authtui: --clear takes a provider, not an account: `authtui default --clear sandbox`\n"
    )
    let unknown = try await cli.run(["default", "--clear", "sandbx"])
    #expect(unknown.status == 4)
    #expect(unknown.stderr == "authtui: no provider sandbx; did you mean `sandbox`?\n")
    let missing = try await cli.run(["default"])
    #expect(missing.status == 2)
    await cli.stop()
  }
}
