import Foundation
import TestSupport
import Testing

/// The UI's terminal goes away (its window closed, its SSH connection dropped: here tmux's
/// server killed, which hangs the pane's terminal up): `authtui demo` ends and removes its
/// throwaway folder, when the SIGHUP reaches it and when whoever started it ignored SIGHUP.
@Suite struct TerminalHangupTests {
  @Test(arguments: [false, true])
  func aClosedTerminalEndsTheDemoAndItsFolderGoes(hangupIgnored: Bool) async throws {
    let temporary = NSTemporaryDirectory() + "authtui-hangup-" + UUID().uuidString
    try FileManager.default.createDirectory(
      atPath: temporary, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(atPath: temporary) }
    let demoFolders = { @Sendable () -> [String] in
      ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [])
        .filter { $0.hasPrefix("authtui-demo-") }
    }
    let environment: [String: String?] = [
      "TMPDIR": temporary, "BROWSER": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil,
      "SWIFT_BACKTRACE": "enable=no", "AUTHTUI_PASSPHRASE": nil, "NO_COLOR": nil,
    ]
    // As in a terminal window: authtui alone on the terminal, its session's leader; or started
    // with SIGHUP ignored, which it keeps (nohup), so only the hung-up terminal tells.
    let command =
      (hangupIgnored ? "trap '' HUP; " : "") + "exec \(Products.authtui) demo"
    try await TmuxSession.run(command, environment: environment) { tmux in
      try await tmux.waitFor("No accounts yet.")
      #expect(demoFolders().count == 1)
      await tmux.kill()
    }
    // Before, the demo died by the SIGHUP halfway through removing its folder (SQLite deleted
    // the -wal file under the walk), or, with SIGHUP ignored, ran on with no terminal.
    try await waitUntil("the demo ended and removed its folder") { demoFolders().isEmpty }
  }
}
