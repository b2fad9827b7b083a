import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A result standard output refuses (`>/dev/full`: ENOSPC on every write) was not delivered:
/// the command says so and exits 1, from the front (the agent's token) and the full program
/// alike, so that `passwordeval "authtui token …"` never reads an empty token as success. A
/// reader that went away (`| head -0`) still ends the writer by SIGPIPE, silently.
@Suite struct StandardOutputFailureTests {
  static let full = ChildProcess.Output.file("/dev/full")
  static let unwritable = "authtui: cannot write to standard output (No space left on device)\n"
  static let bypass: [String: String?] = ["AUTHTUI_NO_AGENT": "1"]

  @Test func aResultAFullDiskRefusesExitsOneAndSaysSo() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let url = "http://127.0.0.1:\(cli.workspace.port)/oidc/userinfo"

    for arguments in [
      ["token", "sandbox/alice"], ["token", "sandbox/alice", "--header", "--for", "GET", url],
      ["list", "--json"], ["list"], ["completion", "bash"], ["--version"], ["help", "token"],
    ] {
      let result = try await cli.run(arguments, Self.bypass, output: Self.full)
      #expect(result.status == 1, "\(arguments): \(result.stderr)")
      #expect(result.stderr == Self.unwritable, "\(arguments)")
    }

    // Through the agent, answered by the front (a wrong passphrase: the full program could
    // not have unlocked the vault).
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let front = try await FrontCommandTests.loneFront(in: cli)
    for arguments in [
      ["token", "sandbox/alice"], ["token", "sandbox/alice", "--header", "--for", "GET", url],
    ] {
      for executable in [front, Products.authtui] {
        let result = try await cli.run(
          arguments, FrontCommandTests.wrongPassphrase, output: Self.full, executable: executable)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr == Self.unwritable, "\(arguments)")
      }
    }
    // A failure that is the command's own keeps its status: nothing was written.
    let missing = try await cli.run(["token", "sandbox/nobody"], output: Self.full)
    #expect(missing.status == 4)
    #expect(!missing.stderr.contains("standard output"))
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func aReaderThatWentAwayStillEndsTheCommandBySIGPIPE() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    for arguments in [["token", "sandbox/alice"], ["list", "--json"]] {
      let result = try await cli.run(arguments, Self.bypass, output: .closedPipe)
      #expect(result.status == 128 + SIGPIPE, "\(arguments): \(result.stderr)")
      #expect(result.stderr.isEmpty, "\(arguments)")
    }
    let agent = try await AgentProcess.start(cli)
    let front = try await FrontCommandTests.loneFront(in: cli)
    let result = try await cli.run(
      ["token", "sandbox/alice"], FrontCommandTests.wrongPassphrase, output: .closedPipe,
      executable: front)
    #expect(result.status == 128 + SIGPIPE, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  /// Runs `authtui ARGUMENTS…` through `/bin/sh` with `redirections` (`>&-`: a closed
  /// standard output, which `ChildProcess` cannot give).
  static func runClosing(
    _ redirections: String, _ arguments: [String], in cli: CLIHarness,
    _ changes: [String: String?] = [:], executable: String = Products.authtui
  ) async throws -> ChildProcess.Result {
    try await cli.run(
      ["-c", #"exec "$0" "$@" "# + redirections, executable] + arguments, changes,
      executable: "/bin/sh")
  }

  @Test func aClosedStandardOutputIsAnErrorAndNoHandleTakesItsPlace() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let closed = "authtui: cannot write to standard output (it is closed)\n"
    for arguments in [["token", "sandbox/alice"], ["list", "--json"], ["--version"]] {
      let result = try await Self.runClosing(">&-", arguments, in: cli, Self.bypass)
      #expect(result.status == 1, "\(arguments): \(result.stderr)")
      #expect(result.stderr == closed, "\(arguments)")
    }
    // All three closed: the failure is still the exit status, and no message went anywhere
    // the shell can see (it would have gone into an internal handle at 0, 1 or 2).
    let all = try await cli.run(
      ["-c", #""$0" token sandbox/alice <&- >&- 2>&-; echo "status $?""#, Products.authtui],
      Self.bypass, executable: "/bin/sh")
    #expect(all.stdout == "status 1\n")
    #expect(all.stderr.isEmpty)
    // A command's own failure with standard error closed: its message reaches no descriptor
    // that is standard output's.
    let missing = try await Self.runClosing("2>&-", ["token", "sandbox/nobody"], in: cli)
    #expect(missing.status == 4)
    #expect(missing.stdout.isEmpty)

    // `exec`'s command gets standard output closed, as authtui got it, not /dev/null.
    let child = try await Self.runClosing(
      ">&-",
      [
        "exec", "sandbox/alice", "--", "sh", "-c",
        "if [ -e /proc/self/fd/1 ]; then echo open >&2; else echo closed >&2; fi",
      ],
      in: cli, Self.bypass)
    #expect(child.status == 0, "\(child.stderr)")
    #expect(child.stderr == "closed\n")

    // The front, answering from the agent, says the same.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let front = try await FrontCommandTests.loneFront(in: cli)
    for executable in [front, Products.authtui] {
      let result = try await Self.runClosing(
        ">&-", ["token", "sandbox/alice"], in: cli, FrontCommandTests.wrongPassphrase,
        executable: executable)
      #expect(result.status == 1, "\(result.stderr)")
      #expect(result.stderr == closed)
    }
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }
}
