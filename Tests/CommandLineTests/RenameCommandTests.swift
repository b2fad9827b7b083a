import Foundation
import TestSupport
import Testing

/// Names people recognise, with the built binaries against `authtui-sandbox`: `login` says
/// how to rename an account the provider names only by an opaque `sub`, and `authtui rename`
/// renames, in the vault and through a running agent.
@Suite struct RenameCommandTests {
  @Test func loginSaysHowToRenameAnAccountNamedOnlyByItsSubject() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "oidc", "subject_only_claims": true}"#)
    let login = try await cli.login("sandbox")
    let label = try #require(
      login.stdout.split(separator: " ").dropFirst(3).first.map {
        String($0.dropFirst("sandbox/".count).dropLast())
      })
    #expect(login.stdout.hasPrefix("Signed in as sandbox/\(label). "))
    #expect(label.allSatisfy { $0.isNumber })
    #expect(
      login.stderr.hasSuffix(
        "\nauthtui: the provider names this account only by an opaque id, so its label is "
          + "\(label); give it one you will recognise: `authtui rename sandbox/\(label) LABEL`\n"),
      "\(login.stderr)")

    let renamed = try await cli.run(["rename", "sandbox/\(label)", "alice"])
    #expect(renamed.status == 0, "\(renamed.stderr)")
    #expect(renamed.stdout == "sandbox/\(label) is now sandbox/alice.\n")
    #expect(try await cli.accounts().map { $0["account"] as? String } == ["sandbox/alice"])
    let token = try await cli.run(["token", "sandbox/alice"])
    #expect(token.status == 0, "\(token.stderr)")

    // Signing in again without --label reaches the renamed account, and says nothing more.
    let again = try await cli.login("sandbox")
    #expect(again.stdout.hasPrefix("Signed in as sandbox/alice. "))
    #expect(!again.stderr.contains("rename"))
    await cli.stop()
  }

  @Test func aNamedAccountGetsNoRenameHint() async throws {
    let cli = try await CLIHarness.start()
    let login = try await cli.login("sandbox")
    #expect(login.stdout.hasPrefix("Signed in as sandbox/alice. "))
    #expect(!login.stderr.contains("rename"))
    await cli.stop()
  }

  @Test func renameRefusesBadLabelsAndTakenOnesAndWorksThroughTheAgent() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try await cli.login("sandbox", as: "bob")

    let slash = try await cli.run(["rename", "sandbox/alice", "work/alt"])
    #expect(slash.status == 2)
    #expect(
      slash.stderr
        == "authtui: the label \"work/alt\" holds /, which separates the provider from the label "
        + "in PROVIDER/LABEL; choose a label without it, such as \"work-alt\"\n")
    let taken = try await cli.run(["rename", "sandbox/alice", "bob"])
    #expect(taken.status == 1)
    #expect(
      taken.stderr
        == "authtui: an account sandbox/bob already exists; choose another label, or sign out "
        + "of that account first\n")
    let usage = try await cli.run(["rename", "sandbox/alice"])
    #expect(usage.status == 2)
    #expect(
      usage.stderr == "authtui: 'rename' needs LABEL (usage: authtui rename ACCOUNT LABEL)\n")

    // The agent renames without a passphrase; none could open the vault here.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let wrong: [String: String?] = ["AUTHTUI_PASSPHRASE": "not the passphrase"]
    let byAgent = try await cli.run(["rename", "sandbox/alice", "work"], wrong)
    #expect(byAgent.status == 0, "\(byAgent.stderr)")
    #expect(byAgent.stdout == "sandbox/alice is now sandbox/work.\n")
    let typo = try await cli.run(["rename", "sandbox/alise", "home"], wrong)
    #expect(typo.status == 4)
    #expect(typo.stderr.hasPrefix("authtui: no account sandbox/alise; did you mean"))
    let takenByAgent = try await cli.run(["rename", "sandbox/work", "bob"], wrong)
    #expect(takenByAgent.status == 1)
    #expect(takenByAgent.stderr == taken.stderr)
    #expect(await agent.stop().status == 0)
    let names = try await cli.accounts().compactMap { $0["account"] as? String }
    #expect(names.sorted() == ["sandbox/bob", "sandbox/work"])

    // The new name whole, of the account's own provider, is its label.
    let whole = try await cli.run(["rename", "sandbox/work", "sandbox/home"])
    #expect(whole.status == 0, "\(whole.stderr)")
    #expect(whole.stdout == "sandbox/work is now sandbox/home.\n")
    let byProvider = try await cli.run(["rename", "sandbox/home", "github/home"])
    #expect(byProvider.status == 2)
    #expect(byProvider.stderr.hasPrefix("authtui: the label \"github/home\" holds /"))
    await cli.stop()
  }
}
