import Foundation
import JSON
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A provider of one's own from the UI, in tmux against `authtui-sandbox`: "Other provider…"
/// from an empty configuration to a signed-in account, and provider files written by other
/// processes showing in the open UI.
@Suite struct OtherProviderUITests {
  @Test func otherProviderFromAnEmptyConfigurationToASignedInAccount() async throws {
    let fixture = try await UIFixture.start()
    let workspace = fixture.workspace
    // Nothing configured: only the presets (none with a client id) and "Other provider…".
    try FileManager.default.removeItem(atPath: workspace.configPath)
    let issuer = "http://127.0.0.1:\(workspace.port)/dynamic"
    try await fixture.runUnlocked { tmux in
      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Other provider…")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("Any OpenID Connect or OAuth 2 server, from its issuer URL")
      try await tmux.type(issuer)
      try await tmux.sendKeys("Enter")
      let found = try await tmux.waitFor(
        "✓ authtui can register itself there, as a public client (RFC 7591).")
      #expect(found.contains { $0.contains("registration     offered (RFC 7591)") })
      #expect(found.contains { $0.contains("sign-in          browser (pkce), code on another") })
      #expect(found.contains { $0.contains("Provider id   dynamic") })
      try await tmux.sendKeys("Enter")
      // Registered and saved, the sign-in goes on: two flows, the browser first.
      try await tmux.waitFor("How do you want to sign in to dynamic?")
      let signedIn = try await tmux.press("Enter", thenWaitFor: "signed in: dynamic/alice")
      #expect(signedIn.contains { $0.hasPrefix(" › alice") && $0.contains("● valid") })
      try await tmux.quit()
    }
    let file = workspace.configPath + "/providers/dynamic.json"
    var status = stat()
    #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
    #expect(
      stat(workspace.configPath + "/providers", &status) == 0 && status.st_mode & 0o777 == 0o700)
    guard
      case .object(let members) = try JSONParser.parse(
        try String(contentsOfFile: file, encoding: .utf8)
      ).ordered
    else {
      Issue.record("dynamic.json is no object")
      return
    }
    let names = members.map(\.0)
    #expect(
      names == [
        "issuer", "client_id", "flows", "scopes", "redirect_port", "registration_client_uri",
        "registration_access_token",
      ])
    #expect(members.first?.1 == .string(issuer))
    #expect(try await fixture.accessToken(provider: "dynamic", label: "alice") != nil)
    await fixture.stop()
  }

  @Test func aDiscoveryFailureIsSaidInTheFormWhichKeepsWhatWasTyped() async throws {
    let fixture = try await UIFixture.start()
    // The sandbox answers 404 there: no metadata of any kind.
    let issuer = "http://127.0.0.1:\(fixture.workspace.port)/nothing-here"
    try await fixture.runUnlocked { tmux in
      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Other provider…")
      try await tmux.sendKeys("Enter")
      try await tmux.type(issuer)
      try await tmux.sendKeys("Enter")
      let refused = try await tmux.waitFor(
        "✗ \(issuer) publishes neither OpenID discovery nor")
      #expect(refused.contains { $0.contains("Issuer URL    \(issuer)") })
      // Esc leaves the form, then the sign-in.
      try await tmux.sendKeys("Escape")
      try await tmux.sendKeys("Escape")
      try await tmux.waitFor("No accounts yet.")
      try await tmux.quit()
    }
    await fixture.stop()
  }

  /// The list looks at the files twice a second (`ProviderWatchReducerTests`), so a file shows
  /// well within two seconds; the waits below are bounds that only matter when it never shows,
  /// long enough for a machine busy with the whole test suite.
  @Test func aProviderFileWrittenByAnotherProcessShowsInTheOpenList() async throws {
    let fixture = try await UIFixture.start()
    let providers = fixture.workspace.configPath + "/providers"
    try await fixture.runUnlocked { tmux in
      try await tmux.sendKeys("a")
      try await tmux.waitFor("Choose a provider")
      #expect(!(try await tmux.capture()).contains { $0.contains("Corp SSO") })
      // Written as an editor saves: a new file renamed into place.
      let text = """
        {"name": "Corp SSO", "issuer": "http://127.0.0.1:\(fixture.workspace.port)/oidc",
         "client_id": "sandbox-client"}
        """
      try Data(text.utf8).write(to: URL(fileURLWithPath: providers + "/.corp.json.tmp"))
      try FileManager.default.moveItem(
        atPath: providers + "/.corp.json.tmp", toPath: providers + "/corp.json")
      try await tmux.waitUntil("Corp SSO in the provider list") { screen in
        screen.contains { $0.contains("Corp SSO") && $0.contains("Browser") }
      }

      // Removed, it goes again.
      try FileManager.default.removeItem(atPath: providers + "/corp.json")
      try await tmux.waitUntil("Corp SSO gone") { screen in
        !screen.contains { $0.contains("Corp SSO") }
      }
      // One that cannot be read is named on the status line, with why.
      try Data("{\"name\": ".utf8).write(to: URL(fileURLWithPath: providers + "/broken.json"))
      try await tmux.waitUntil("the unreadable file named") { screen in
        screen.contains { $0.contains("left out a provider file that cannot be read") }
          && screen.contains { $0.contains("broken.json") }
      }
      try await tmux.sendKeys("Escape")
      try await tmux.quit()
    }
    await fixture.stop()
  }

  /// `authtui demo` offers the sandbox's server that registers clients: a newcomer presses
  /// Enter three times and signs in to a provider added from its issuer URL.
  @Test func theDemoOffersTheSandboxsRegisteringServer() async throws {
    try await InteractiveUITests.runDemo { tmux in
      try await tmux.waitFor("No accounts yet.")
      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Other provider…")
      try await tmux.waitFor("In the demo, try http://127.0.0.1:")
      try await tmux.sendKeys("Enter")
      let form = try await tmux.waitFor("Issuer URL    http://127.0.0.1:")
      #expect(form.contains { $0.contains("/dynamic") && $0.contains("Issuer URL") })
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("✓ authtui can register itself there")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("How do you want to sign in to dynamic?")
      try await tmux.sendKeys("Enter")
      try await tmux.waitUntil("dynamic/demo-user signed in", timeout: .seconds(90)) {
        $0.contains { $0.contains("demo-user") && $0.contains("valid") }
      }
      try await tmux.quit()
    }
  }
}
