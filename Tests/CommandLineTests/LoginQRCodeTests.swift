import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui login --flow device` on a real terminal (tmux) draws the verification address as a
/// QR code; read off the screen and decoded by zbarimg, it is the exact address.
@Suite(.serialized) struct LoginQRCodeTests {
  @Test(
    .enabled(
      if: QRDecoder.zbarimg != nil, "zbarimg is not installed (.ci/run installs zbar-tools)"))
  func theDeviceSignInShowsAQRCodeOfTheAddressThatFillsInTheCode() async throws {
    let cli = try await CLIHarness.start()
    var changes = cli.workspace.environmentChanges()
    changes["AUTHTUI_PASSPHRASE"] = SandboxWorkspace.passphrase
    // The approval waits a little, so the screen is read while the code is still shown.
    changes["AUTHTUI_TEST_BROWSER_DELAY_MS"] = "3000"
    let command = "'\(Products.authtui)' login sandbox --flow device"
    let screen = try await TmuxSession.run(command, columns: 100, rows: 70, environment: changes) {
      session in
      try await session.waitFor("or scan:")
    }
    let complete = try #require(
      screen.first { $0.contains("(or open ") }.flatMap { line in
        line.components(separatedBy: "(or open ").last?.components(separatedBy: ",").first
      })
    let start = try #require(screen.firstIndex { $0.hasPrefix("or scan:") }) + 1
    // tmux drops a line's trailing spaces: the quiet zone's lines come back empty.
    let lines = screen[start...].prefix { line in line.allSatisfy { "█▀▄ ".contains($0) } }
    #expect(lines.count > 10)
    // A light margin all round, for a drawing whose quiet zone the pane cut short.
    let decoded = try QRDecoder.decode(QRDecoder.modules(ofHalfBlocks: Array(lines)))
    #expect(decoded == complete + "\n")
    await cli.stop()
  }
}
