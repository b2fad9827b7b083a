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
}
