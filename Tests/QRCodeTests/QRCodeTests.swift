import Foundation
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

  static let zbarimg = ["/usr/bin/zbarimg", "/bin/zbarimg"].first { (path: String) in
    access(path, X_OK) == 0
  }

  /// Short and long addresses, at both levels, across versions 1 to 10 (7 and up carry
  /// version information), each decoded by zbarimg from a picture of the symbol.
  @Test(
    .enabled(if: zbarimg != nil, "zbarimg is not installed (.ci/run installs zbar-tools)"),
    arguments: [
      "A", "https://ex.co/d", "https://login.microsoftonline.com/common/oauth2/deviceauth",
      "https://github.com/login/device?user_code=WDJB-MJHT&x=" + String(repeating: "y", count: 60),
      "https://example.com/activate?user_code=" + String(repeating: "Z", count: 150),
      String(repeating: "é", count: 100),
    ])
  func aRealDecoderReadsBackTheExactText(_ text: String) async throws {
    for level in [QRCode.ErrorCorrection.low, .medium] {
      guard let code = try? QRCode(text: text, level: level) else { continue }
      let folder = NSTemporaryDirectory() + "qr-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let path = folder + "/code.pbm"
      try Self.picture(code, scale: 4).write(toFile: path, atomically: true, encoding: .ascii)
      let decoded = try Self.run(Self.zbarimg ?? "zbarimg", ["-q", "--raw", path])
      #expect(decoded == text + "\n", "version \(code.version) mask \(code.mask) \(level)")
    }
  }

  /// A plain PBM of `code`, `scale` pixels a module, with the 4-module quiet zone.
  static func picture(_ code: QRCode, scale: Int) -> String {
    let width = (code.size + 8) * scale
    var rows: [String] = []
    for row in -4..<(code.size + 4) {
      let line = (-4..<(code.size + 4)).map { column -> String in
        let dark =
          row >= 0 && row < code.size && column >= 0 && column < code.size
          && code.modules[row][column]
        return String(repeating: dark ? "1 " : "0 ", count: scale)
      }.joined()
      rows += Array(repeating: line, count: scale)
    }
    return "P1\n\(width) \(width)\n" + rows.joined(separator: "\n") + "\n"
  }

  static func run(_ program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}

/// The text a terminal shows, read back: each half-block character is two modules.
@Suite struct QRCodeHalfBlockTests {
  @Test(.enabled(if: QRCodeTests.zbarimg != nil, "zbarimg is not installed"))
  func theTerminalDrawingDecodesToTheAddress() throws {
    let address = "https://example.com/device?user_code=WDJB-MJHT"
    let code = try QRCode(text: address)
    let lines = code.halfBlockLines(colored: false)
    #expect(lines.count == (code.size + 8 + 1) / 2)
    #expect(lines.allSatisfy { $0.count == code.columns() })
    #expect(code.halfBlockLines().first?.hasPrefix("\u{1B}[30;47m") == true)
    // Back to modules: the top and bottom half of each character.
    var rows: [[Bool]] = []
    for line in lines {
      rows.append(line.map { $0 == "█" || $0 == "▀" })
      rows.append(line.map { $0 == "█" || $0 == "▄" })
    }
    let scale = 4
    let width = rows[0].count * scale
    var picture = "P1\n\(width) \(rows.count * scale)\n"
    for row in rows {
      let line = row.map { $0 ? "1 " : "0 " }.map { String(repeating: $0, count: scale) }.joined()
      picture += String(repeating: line + "\n", count: scale)
    }
    let folder = NSTemporaryDirectory() + "qr-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try picture.write(toFile: folder + "/t.pbm", atomically: true, encoding: .ascii)
    let decoded = try QRCodeTests.run(
      QRCodeTests.zbarimg ?? "zbarimg", ["-q", "--raw", folder + "/t.pbm"])
    #expect(decoded == address + "\n")
  }
}
