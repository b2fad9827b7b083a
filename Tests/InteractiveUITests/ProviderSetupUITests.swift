import Foundation
import JSON
import Sandbox
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A first run in tmux against `authtui-sandbox`: no vault, a provider without a client id,
/// and a signed-in account at the end, all inside the UI.
@Suite struct ProviderSetupUITests {
  @Test func fromNoVaultAndNoClientIDToASignedInAccountWithoutAnEditor() async throws {
    let fixture = try await UIFixture.start(withoutClientID: ["hivesigner.json"])
    let workspace = fixture.workspace
    // Nothing yet: the vault is created in the UI.
    try FileManager.default.removeItem(atPath: workspace.vaultPath)
    let file = workspace.configPath + "/providers/hivesigner.json"
    let before = try String(contentsOfFile: file, encoding: .utf8)
    #expect(!before.contains("client_id"))
    try await TmuxSession.run(fixture.command, environment: fixture.environment()) { tmux in
      try await tmux.waitFor("Create your vault")
      try await tmux.type(UIFixture.passphrase)
      try await tmux.sendKeys("Tab")
      try await tmux.type(UIFixture.passphrase)
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("No accounts yet. Press a to sign in to a provider.")
      try await tmux.waitFor("Or try `authtui demo` first, with nothing to set up.")

      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Hivesigner")
      try await tmux.waitUntil("Hivesigner selected, with no client id") { screen in
        screen.contains {
          $0.hasPrefix(" › Hivesigner") && $0.contains("✗ no client id yet: Enter sets one up")
        }
      }
      try await tmux.sendKeys("Enter")
      let form = try await tmux.waitFor("Hivesigner needs a client id of your own")
      #expect(form.contains { $0.contains("1. Register an application at https://hivesigner.com") })
      #expect(!form.contains { $0.contains("Redirect port") })
      // Enter on the empty field says what is missing, in the form.
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor(
        "✗ the client id is empty: give the one the provider gave your application")
      try await tmux.type("sandbox-client")
      try await tmux.sendKeys("Enter")

      // Saved, the sign-in goes on by itself: the test browser approves as alice.
      let signedIn = try await tmux.waitFor("signed in: hivesigner/alice")
      #expect(signedIn.contains { $0.hasPrefix(" › alice") && $0.contains("● valid") })
      try await tmux.quit()
    }
    let written = try String(contentsOfFile: file, encoding: .utf8)
    let document = try JSONParser.parse(written)
    guard case .object(let members) = document.ordered else {
      Issue.record("not an object: \(written)")
      return
    }
    let names = members.map(\.0)
    #expect(names.last == "client_id")
    #expect(members.last?.1 == .string("sandbox-client"))
    // Every field the file had stays, in its order.
    guard case .object(let old) = try JSONParser.parse(before).ordered else { return }
    #expect(Array(names.dropLast()) == old.map(\.0))
    var status = stat()
    #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
    #expect(try await fixture.accountCount() == 1)
    #expect(try await fixture.accessToken(provider: "hivesigner", label: "alice") != nil)
    await fixture.stop()
  }

  /// Google's form asks for the Desktop app's client secret as well; saved, the sign-in goes
  /// through the sandbox's Google profile, which refuses a token request without it.
  @Test func googlesFormTakesTheClientSecretAndTheSignInThenWorks() async throws {
    let fixture = try await UIFixture.start(withoutClientID: ["google.json"])
    let file = fixture.workspace.configPath + "/providers/google.json"
    guard
      case .object(let members) = try JSONParser.parse(
        try String(contentsOfFile: file, encoding: .utf8)
      ).ordered
    else {
      Issue.record("google.json is no object")
      return
    }
    let withoutSecret = OrderedJSON.object(members.filter { $0.0 != "client_secret" })
    try Data(withoutSecret.prettyText.utf8).write(to: URL(fileURLWithPath: file))
    let secret = SandboxProfile.googleClientSecret
    try await TmuxSession.run(fixture.command, environment: fixture.environment()) { tmux in
      try await tmux.unlock()
      try await tmux.waitFor("No accounts yet. Press a to sign in to a provider.")
      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Google")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("Google needs a client id and secret of your own")
      try await tmux.type(SandboxProfile.defaultClientID)
      try await tmux.sendKeys("Tab")
      try await tmux.type(secret)
      let typed = try await tmux.waitFor("Client secret  •")
      #expect(!typed.contains { $0.contains(secret) })
      try await tmux.press("Enter", thenWaitFor: "signed in: google/alice@example.com")
      try await tmux.quit()
    }
    let written = try String(contentsOfFile: file, encoding: .utf8)
    #expect(written.contains("\"client_secret\" : \"\(secret)\""))
    var status = stat()
    #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
    #expect(try await fixture.accessToken(provider: "google", label: "alice@example.com") != nil)
    await fixture.stop()
  }
}
