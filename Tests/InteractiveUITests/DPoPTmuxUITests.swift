import Foundation
import TestSupport
import Testing

/// Issue 26: a DPoP-bound account in the real UI, against the sandbox: its details show the
/// thumbprint of the key the vault holds for it, and `c` refuses its token with the command
/// line's reason, leaving tmux's buffer empty.
@Suite struct DPoPTmuxUITests {
  @Test func theDetailsShowTheKeysThumbprintAndCopyRefusesTheToken() async throws {
    let fixture = try await UIFixture.start()
    let settings = await fixture.workspace.hook(
      "settings", #"{"profile": "oidc", "dpop": "required"}"#)
    #expect(settings.status == 200, "\(settings.body)")
    try await LiveUITests.authtui(["login", "sandbox", "--label", "work"], in: fixture)
    let jkt = try await fixture.workspace.withVault { vault in
      let record = try #require(try await vault.account(providerID: "sandbox", label: "work"))
      return try #require(try await vault.dpopKey(of: record.id)).thumbprint
    }
    var environment = fixture.environment()
    environment["AUTHTUI_PASSPHRASE"] = UIFixture.passphrase
    environment["DISPLAY"] = .some(nil)
    environment["WAYLAND_DISPLAY"] = .some(nil)
    try await TmuxSession.run(
      fixture.command, columns: 100, environment: environment, setClipboard: "on"
    ) { tmux in
      try await tmux.waitFor("› work")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("Key (jkt)     \(jkt)")
      try await tmux.press("c", thenWaitFor: "sandbox/work's token is DPoP-bound")
      let buffer = (try? await tmux.tmux("show-buffer")) ?? ""
      #expect(buffer.isEmpty)
    }
    await fixture.stop()
  }
}
