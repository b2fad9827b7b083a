import Foundation
import TestSupport
import Testing

@testable import QRCode

#if canImport(Glibc)
  import Glibc
#endif

/// The encoder against published values, and every symbol read back by a real decoder.
@Suite struct QRCodeTests {
  /// The error correction of the "HELLO WORLD" 1-Q example (thonky.com's QR tutorial, from
  /// ISO/IEC 18004): 13 data codewords give these 13.
  @Test func reedSolomonGivesThePublishedCodewords() {
    let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236]
    #expect(
      ReedSolomon.remainder(data, degree: 13)
        == [168, 72, 22, 82, 217, 54, 156, 0, 46, 15, 180, 122, 16])
  }

  /// Format and version information as ISO/IEC 18004 tabulates it (Annex C and D).
  @Test func formatAndVersionBitsAreTheStandardsOnes() {
    #expect(QRMatrix.formatBits(level: .low, mask: 0) == 0b111011111000100)
    #expect(QRMatrix.formatBits(level: .low, mask: 4) == 0b110011000101111)
    #expect(QRMatrix.formatBits(level: .medium, mask: 0) == 0b101010000010010)
    #expect(QRMatrix.formatBits(level: .medium, mask: 7) == 0b100101010100000)
    #expect(QRMatrix.versionBits(7) == 0b000111110010010100)
    #expect(QRMatrix.versionBits(10) == 0b001010010011010011)
  }

  @Test func choosesTheSmallestVersionAndRefusesWhatVersionTenCannotHold() throws {
    #expect(try QRCode(text: "https://example.com/device").version == 2)
    #expect(try QRCode(text: String(repeating: "a", count: 213), level: .medium).version == 10)
    #expect(throws: QRCode.Failure.tooLong(bytes: 214, maximum: 213)) {
      try QRCode(text: String(repeating: "a", count: 214), level: .medium)
    }
    #expect(QRCode.capacity(1, .low) == 17)
    #expect(QRCode.capacity(10, .low) == 271)
    #expect(QRCode.capacity(10, .low, utf8: true) == 270)
  }

  /// Short and long addresses, at both levels, across versions 1 to 10 (7 and up carry
  /// version information), each decoded by zbarimg from a picture of the symbol.
  @Test(
    .enabled(
      if: QRDecoder.zbarimg != nil, "zbarimg is not installed (.ci/run installs zbar-tools)"),
    arguments: [
      "A", "https://ex.co/d", "https://login.microsoftonline.com/common/oauth2/deviceauth",
      "https://github.com/login/device?user_code=WDJB-MJHT&x=" + String(repeating: "y", count: 60),
      "https://example.com/activate?user_code=" + String(repeating: "Z", count: 150),
      String(repeating: "é", count: 100),
    ])
  func aRealDecoderReadsBackTheExactText(_ text: String) async throws {
    for level in [QRCode.ErrorCorrection.low, .medium] {
      guard let code = try? QRCode(text: text, level: level) else { continue }
      let decoded = try QRDecoder.decode(code.modules)
      #expect(decoded == text + "\n", "version \(code.version) mask \(code.mask) \(level)")
    }
  }
}

/// The text a terminal shows, read back: each half-block character is two modules.
@Suite struct QRCodeHalfBlockTests {
  @Test(.enabled(if: QRDecoder.zbarimg != nil, "zbarimg is not installed"))
  func theTerminalDrawingDecodesToTheAddress() throws {
    let address = "https://example.com/device?user_code=WDJB-MJHT"
    let code = try QRCode(text: address)
    let lines = code.halfBlockLines(colored: false)
    #expect(lines.count == (code.size + 8 + 1) / 2)
    #expect(lines.allSatisfy { $0.count == code.columns() })
    #expect(code.halfBlockLines().first?.hasPrefix("\u{1B}[30;47m") == true)
    // The drawing has its quiet zone: no margin is added.
    let decoded = try QRDecoder.decode(QRDecoder.modules(ofHalfBlocks: lines), margin: 0)
    #expect(decoded == address + "\n")
  }
}
