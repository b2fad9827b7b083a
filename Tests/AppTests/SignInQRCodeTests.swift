import App
import Foundation
import Terminal
import TestSupport
import Testing

/// The device and PIN screen's QR code, read back by a real decoder (zbarimg) from what the
/// screen shows: the address that fills the code in when the provider gives one, else the
/// verification page; none where the terminal has no room.
@Suite struct SignInQRCodeTests {
  /// The cells the screen draws in the `qr` role, as lines of text.
  static func qrLines(_ frame: ScreenBuffer) -> [String] {
    (0..<frame.size.rows).compactMap { row in
      let cells = (0..<frame.size.columns).map { frame[row, $0] }.filter { $0.role == .qr }
      return cells.isEmpty ? nil : String(cells.map(\.grapheme))
    }
  }

  /// The device screen at `size` for a provider that gives the address with the code in it
  /// (`complete`) or not.
  static func deviceScreen(_ size: Size, complete: Bool) -> ScreenBuffer? {
    var driver = Driver(size: size)
    guard let id = driver.startSignIn("work", .device) else { return nil }
    driver.send(.signInProgress(id, driver.codeSnapshot(complete: complete)))
    return driver.frame
  }

  /// Beside the text on a wide terminal, below it on a tall one.
  @Test(arguments: [true, false], [Size(rows: 30, columns: 110), Size(rows: 40, columns: 80)])
  func theCodeDecodesToTheAddressToOpen(complete: Bool, size: Size) throws {
    guard QRDecoder.zbarimg != nil else {
      Issue.record("zbarimg is missing: install zbar-tools (.ci/run does)")
      return
    }
    let frame = try #require(Self.deviceScreen(size, complete: complete))
    let lines = Self.qrLines(frame)
    #expect(lines.count > 10)
    let expected =
      complete
      ? "http://127.0.0.1:41234/oidc/device?user_code=WDJB-MJHT"
      : "http://127.0.0.1:41234/oidc/device"
    // The quiet zone is on screen: no margin is added around what it shows.
    #expect(
      try QRDecoder.decode(QRDecoder.modules(ofHalfBlocks: lines), margin: 0) == expected + "\n")
  }

  @Test(arguments: [
    Size(rows: 24, columns: 80), Size(rows: 16, columns: 60), Size(rows: 24, columns: 110),
  ])
  func aTerminalWithoutRoomShowsNoCodeAndKeepsTheText(size: Size) throws {
    let frame = try #require(Self.deviceScreen(size, complete: true))
    #expect(Self.qrLines(frame).isEmpty)
    #expect(frame.textLines().joined().contains("WDJB-MJHT"))
  }
}
