import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui exec` on a real terminal (tmux): Ctrl-C and Ctrl-\ reach the child once. The
/// terminal sends SIGINT (SIGQUIT) to its whole foreground group, child included, so authtui
/// does not pass on a second. The child waits with the `wait` builtin, which a trapped signal
/// interrupts at once, so each signal it gets runs its trap (a foreground `sleep` would merge
/// two into one).
@Suite struct ExecAtATerminalTests {
  @Test func ctrlCAndCtrlBackslashReachTheChildOnceAndOtherSignalsAreStillPassedOn()
    async throws
  {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let log = cli.folder.file("signals")
    let script = cli.folder.file("child.sh")
    try cli.folder.write(
      """
      trap 'echo INT >> "$1"' INT
      trap 'echo QUIT >> "$1"' QUIT
      trap 'echo TERM >> "$1"; kill $! 2>/dev/null; exit 3' TERM
      echo "$PPID" > "$1.pid"
      sleep 1000 </dev/null >/dev/null 2>&1 &
      echo child-ready
      while :; do wait $!; done
      """, to: "child.sh")
    var changes = cli.workspace.environmentChanges()
    changes["AUTHTUI_PASSPHRASE"] = SandboxWorkspace.passphrase
    let command =
      "'\(Products.authtui)' exec sandbox/alice -- sh '\(script)' '\(log)'; "
      + "echo exec-exit=$?; exec sleep 600"
    try await TmuxSession.run(command, environment: changes) { tmux in
      try await tmux.waitFor("child-ready")
      try await tmux.sendKeys("C-c")
      let deadline = ContinuousClock.now + .seconds(60)
      while (try? String(contentsOfFile: log, encoding: .utf8)) == nil,
        ContinuousClock.now < deadline
      {
        try await Task.sleep(for: .milliseconds(50))
      }
      // Ctrl-\ (SIGQUIT) likewise, and authtui, which SIGQUIT used to end, keeps waiting.
      try await tmux.sendKeys("C-\\")
      try await waitUntil("the child logged SIGQUIT") {
        (try? String(contentsOfFile: log, encoding: .utf8))?.hasSuffix("QUIT\n") == true
      }
      // A SIGTERM sent to authtui itself is passed on, after any SIGINT it would have passed.
      let pidText = try String(contentsOfFile: log + ".pid", encoding: .utf8)
      let authtui = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
      #expect(kill(authtui, SIGTERM) == 0)
      try await tmux.waitFor("exec-exit=3")
    }
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "INT\nQUIT\nTERM\n")
    await cli.stop()
  }
}
