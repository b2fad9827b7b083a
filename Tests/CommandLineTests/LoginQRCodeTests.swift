import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui login --flow device` on a real terminal (tmux) draws the verification address as a
/// QR code; read off the screen and decoded by zbarimg, it is the exact address.
@Suite(.serialized) struct LoginQRCodeTests {
  static let zbarimg = ["/usr/bin/zbarimg", "/bin/zbarimg"].first { (path: String) in
    access(path, X_OK) == 0
  }

  @Test(.enabled(if: zbarimg != nil, "zbarimg is not installed (.ci/run installs zbar-tools)"))
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
    let decoded = try Self.decode(Array(lines))
    #expect(decoded == complete + "\n")
    await cli.stop()
  }

  /// The half-block lines as a picture, 4 pixels a module, decoded by zbarimg.
  static func decode(_ lines: [String]) throws -> String {
    let width = lines.map(\.count).max() ?? 0
    var rows: [[Bool]] = []
    for line in lines {
      let cells = Array(line.padding(toLength: width, withPad: " ", startingAt: 0))
      rows.append(cells.map { $0 == "█" || $0 == "▀" })
      rows.append(cells.map { $0 == "█" || $0 == "▄" })
    }
    // A light margin all round, for a drawing whose quiet zone the pane cut short.
    rows = rows.map { [false, false, false, false] + $0 + [false, false, false, false] }
    let blank = [Bool](repeating: false, count: width + 8)
    rows = [blank, blank, blank, blank] + rows + [blank, blank, blank, blank]
    let scale = 4
    var picture = "P1\n\(rows[0].count * scale) \(rows.count * scale)\n"
    for row in rows {
      let line = row.map { $0 ? "1 " : "0 " }.map { String(repeating: $0, count: scale) }.joined()
      picture += String(repeating: line + "\n", count: scale)
    }
    let folder = try TemporaryDirectory()
    let path = try folder.write(picture, to: "screen.pbm")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: zbarimg ?? "zbarimg")
    process.arguments = ["-q", "--raw", path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
