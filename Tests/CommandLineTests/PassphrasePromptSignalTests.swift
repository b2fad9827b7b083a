import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The passphrase prompt on a real terminal (tmux): a SIGTERM or SIGHUP that ends authtui while
/// it waits with echo off leaves the terminal as it found it, echo on.
@Suite struct PassphrasePromptSignalTests {
  @Test(arguments: [SIGTERM, SIGHUP])
  func aSignalAtThePromptRestoresTheEcho(signal: Int32) async throws {
    let cli = try await CLIHarness.start()
    var changes = cli.workspace.environmentChanges()
    changes["AUTHTUI_PASSPHRASE"] = nil
    let pidFile = cli.folder.file("pid")
    // The shell's pid is authtui's: it execs it. After authtui, the pane says whether echo is
    // on ("echo") or off ("-echo").
    let command =
      "sh -c 'echo $$ > \"\(pidFile)\"; exec \"\(Products.authtui)\" list'; "
      + "echo exit=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo; exec sleep 600"
    try await TmuxSession.run(command, environment: changes) { tmux in
      try await tmux.waitFor("Vault passphrase:")
      let text = try String(contentsOfFile: pidFile, encoding: .utf8)
      let authtui = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
      #expect(kill(authtui, signal) == 0)
      let screen = try await tmux.waitFor("exit=\(128 + signal)")
      let after = try await tmux.waitUntil("stty's answer") { lines in
        lines.contains { $0 == "echo" || $0 == "-echo" }
      }
      #expect(after.contains("echo"), "\(screen)")
      #expect(!after.contains("-echo"))
    }
    await cli.stop()
  }
}
