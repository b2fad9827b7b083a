import Foundation
import QRCode
import TestSupport
import Testing

/// The UI's device sign-in screen in a real terminal (tmux) large enough for the QR code:
/// read off the pane and decoded by zbarimg, the code is the address that fills in the code.
@Suite struct SignInQRCodeUITests {
  @Test(
    .enabled(
      if: QRDecoder.zbarimg != nil, "zbarimg is not installed (.ci/run installs zbar-tools)"))
  func theDeviceScreenShowsTheAddressAsAQRCode() async throws {
    let fixture = try await UIFixture.start()
    var environment = fixture.environment(browserAction: "ignore")
    environment["AUTHTUI_PASSPHRASE"] = UIFixture.passphrase
    let columns = 110
    try await TmuxSession.run(
      fixture.command, columns: columns, rows: 32, environment: environment
    ) { tmux in
      try await tmux.waitFor("No accounts yet.")
      try await tmux.sendKeys("a")
      try await tmux.select(provider: "Sandbox OpenID provider")
      try await tmux.sendKeys("Enter")
      try await tmux.waitFor("How do you want to sign in to Sandbox OpenID provider?")
      try await tmux.sendKeys("j", "Enter")
      let screen = try await tmux.waitFor("scan to open the page")
      // The page and the code as the screen says them, and the address that fills it in as
      // the sandbox builds it (RFC 8628 §3.3.1).
      let page = try #require(screen.first { $0.contains("/oidc/device") })
        .trimmingCharacters(in: .whitespaces)
      let codeLine = try #require(screen.first { $0.contains("and enter the code ") })
      let code = try #require(codeLine.components(separatedBy: "and enter the code ").last)
        .prefix { !$0.isWhitespace }
      let expected = "\(page)?user_code=\(code)"
      // The code sits at the right edge of the screen's inner area (two columns in).
      let width = try QRCode(text: expected).columns()
      let left = columns - 2 - width
      let lines = screen.map { line -> String in
        let characters = Array(line)
        guard characters.count > left else { return "" }
        return String(characters[left..<min(characters.count, left + width)])
      }
      let start = try #require(lines.firstIndex { $0.contains("█") })
      let drawn = Array(lines[start...].prefix { $0.allSatisfy { "█▀▄ ".contains($0) } })
      #expect(drawn.count > 10)
      // tmux drops trailing spaces, and the first rows of the quiet zone: a margin all round.
      #expect(try QRDecoder.decode(QRDecoder.modules(ofHalfBlocks: drawn)) == expected + "\n")
      try await tmux.sendKeys("Escape")
    }
    await fixture.stop()
  }
}
