import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A new user's first `authtui login` on a real terminal (tmux), before any vault exists:
/// it creates the vault as `vault init` does, asking for the passphrase twice, then signs in,
/// as the README's tour (`providers add`, then `login`) expects.
@Suite(.serialized) struct FirstLoginTests {
  @Test func aFirstLoginAtATerminalCreatesTheVaultThenSignsIn() async throws {
    let cli = try await CLIHarness.start()
    let vault = cli.folder.file("first/vault.db")
    var changes = cli.workspace.environmentChanges()
    changes["AUTHTUI_VAULT"] = vault
    let passphrase = "first login passphrase"
    // Each line is checked on the screen it first shows on: in a 240×100 pane with no
    // history, tmux 3.3 drops the first row once the long sign-in address wraps.
    let (first, created, screen) = try await TmuxSession.run(
      "'\(Products.authtui)' login sandbox", columns: 240, rows: 100, environment: changes
    ) { session in
      func answer(_ text: String) async throws {
        try await session.type(text)
        try await session.sendKeys("Enter")
      }
      let first = try await session.waitFor("New vault passphrase:")
      // Two that differ are asked again, as `vault init` asks them.
      try await answer("one")
      try await session.waitFor("Repeat the passphrase:")
      try await answer("two")
      try await session.waitFor("The two passphrases differ; once more.")
      try await answer(passphrase)
      try await session.waitUntil("the second confirmation") {
        $0.filter { $0.hasPrefix("Repeat the passphrase:") }.count == 2
      }
      try await answer(passphrase)
      let created = try await session.waitFor("Created the vault")
      return (first, created, try await session.waitFor("Signed in as sandbox/alice."))
    }
    #expect(
      first.first
        == "There is no vault at \(vault) yet: authtui creates it now, as `authtui vault init` "
        + "does (Ctrl-C stops here). Choose its passphrase.")
    #expect(created.contains { $0 == "Created the vault \(vault)" })
    #expect(!screen.joined().contains(passphrase))
    var status = stat()
    #expect(stat(vault, &status) == 0 && status.st_mode & 0o777 == 0o600)
    #expect(stat(cli.folder.file("first"), &status) == 0 && status.st_mode & 0o777 == 0o700)
    let list = try await cli.run(
      ["list"], ["AUTHTUI_VAULT": vault, "AUTHTUI_PASSPHRASE": passphrase])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("sandbox/alice"))

    // A script (a passphrase from a variable) is still told that there is no vault: a
    // mistyped --vault must not become a new vault.
    let elsewhere = cli.folder.file("typo/vault.db")
    let script = try await cli.run(["login", "sandbox"], ["AUTHTUI_VAULT": elsewhere])
    #expect(script.status == 1)
    #expect(script.stderr.hasPrefix("authtui: there is no vault at \(elsewhere)"))
    #expect(!FileManager.default.fileExists(atPath: cli.folder.file("typo")))
    await cli.stop()
  }

  /// `login` of a preset without a client id, at a terminal: it says where to register an
  /// application and asks for the client id, writes it into the preset's file, and signs in.
  @Test func aPresetWithoutAClientIDIsAskedForOneThenSignedInTo() async throws {
    let cli = try await CLIHarness.start()
    let file = cli.workspace.configPath + "/providers/simkl.json"
    var fields = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
        as? [String: Any])
    let clientID = try #require(fields.removeValue(forKey: "client_id") as? String)
    try JSONSerialization.data(withJSONObject: fields).write(to: URL(fileURLWithPath: file))
    var changes = cli.workspace.environmentChanges()
    changes["AUTHTUI_PASSPHRASE"] = SandboxWorkspace.passphrase
    let (asked, screen) = try await TmuxSession.run(
      "'\(Products.authtui)' login simkl", columns: 200, rows: 60, environment: changes
    ) { session in
      let asked = try await session.waitFor("Its client id (Enter alone to stop):")
      try await session.type(clientID)
      try await session.sendKeys("Enter")
      return (asked, try await session.waitFor("Signed in as simkl/"))
    }
    #expect(asked.first == "Simkl needs a client id of your own, once.")
    #expect(
      asked.contains {
        $0
          == "To get a client id, register an application at https://simkl.com/settings/developer/:"
      })
    #expect(screen.contains { $0 == "Its client id (Enter alone to stop): \(clientID)" })
    let written = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
        as? [String: Any])
    #expect(written["client_id"] as? String == clientID)

    // Without a terminal nothing is asked: the provider is not ready, and says how to fix it.
    try JSONSerialization.data(withJSONObject: fields).write(to: URL(fileURLWithPath: file))
    let script = try await cli.run(["login", "simkl"])
    #expect(script.status == 1)
    #expect(script.stderr.contains("then run `authtui providers add simkl --client-id ID`"))
    await cli.stop()
  }
}
