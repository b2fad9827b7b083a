import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// An agent that runs but cannot take a connection now: `token` (the front) and the commands
/// of the full program try again briefly, then say that it is busy (exit 1); they never unlock
/// the vault themselves then, which would ask for a passphrase a script does not have. A
/// wrong passphrase in the environment proves that no command unlocked the vault.
@Suite struct AgentBusyTests {
  /// `AgentListener.maximumConnections`: the connections the agent reads at once.
  static let agentConnections = 128

  @Test func callersOfAnAgentAtItsConnectionLimitSayItIsBusyInsteadOfUnlocking() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    // The held connections stay unanswered for as long as a run on a busy machine may take
    // (the agent's own 5 s would answer them with `bad_request` and free their places).
    let agent = try await AgentProcess.start(
      cli, [], ["AUTHTUI_TEST_AGENT_READ_TIMEOUT": "300"])
    #expect(agent.firstLine != nil)
    let busy =
      "authtui: the agent for \(try cli.canonicalVaultPath()) is busy "
      + "(\(Self.agentConnections) connections); try again in a moment\n"
    // `token` is answered by the front, `list` by the full program.
    for arguments in [["token", "sandbox/alice"], ["list"]] {
      let result = try await runWhileTheAgentIsFull(cli, arguments)
      #expect(result?.status == 1, "\(arguments): \(result?.stderr ?? "")")
      #expect(result?.stderr == busy, "\(arguments)")
      #expect(result?.stdout == "", "\(arguments)")
    }
    // Once the places are free again, the agent answers.
    let answered = try await cli.run(["token", "sandbox/alice"], AgentCommandTests.wrongPassphrase)
    #expect(answered.status == 0, "\(answered.stderr)")
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func aCallerOfAnAgentWhoseConnectionQueueIsFullSaysItIsBusy() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let socket = cli.workspace.agentSocketPath
    // Stopped, it accepts nothing: the kernel's queue of new connections fills up.
    await agent.child.kill(SIGSTOP)
    let queued = await HeldConnections.make(to: socket, count: 1000, blocking: false)
    #expect(queued.fds.count < 1000)
    let result = try await cli.run(["token", "sandbox/alice"], AgentCommandTests.wrongPassphrase)
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "authtui: the agent on \(socket) is busy (its queue of new connections is full); "
        + "try again in a moment\n")
    queued.close()
    await agent.child.kill(SIGCONT)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  /// Runs `authtui ARGUMENTS…` (with a wrong passphrase) while every place of the agent for
  /// connections being read is held. Tries again when a held connection was answered (its
  /// read timeout passed on a slow machine) before the command ended, as that run proves
  /// nothing; nil after five such runs.
  private func runWhileTheAgentIsFull(_ cli: CLIHarness, _ arguments: [String]) async throws
    -> ChildProcess.Result?
  {
    for _ in 0..<5 {
      let held = await HeldConnections.make(
        to: cli.workspace.agentSocketPath, count: Self.agentConnections)
      defer { held.close() }
      #expect(held.fds.count == Self.agentConnections)
      // The agent accepts in order: the command's connection comes after all of these.
      let result = try await cli.run(arguments, AgentCommandTests.wrongPassphrase)
      if held.allUnanswered { return result }
    }
    Issue.record("the agent answered a held connection before each run ended")
    return nil
  }
}
