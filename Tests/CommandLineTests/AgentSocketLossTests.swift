import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// An agent whose socket path stops naming its socket (the folder removed by a cleaner or at
/// logout, or another file put in its place) can no longer be asked, found by `agent status`
/// or stopped by `agent stop`: it stops by itself, as `agent stop` would stop it.
@Suite struct AgentSocketLossTests {
  @Test func anAgentWhoseSocketFolderIsRemovedStopsAndTheNextStartLeavesOneAgent() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let first = try AgentManagementTests.started(
      try await cli.run(["agent", "start"]), cli)
    // What `rm -rf $XDG_RUNTIME_DIR/authtui` does.
    try FileManager.default.removeItem(atPath: cli.folder.file("agent"))
    try await waitUntil("the agent whose socket folder was removed has stopped") {
      processEnded(first)
    }

    let second = try AgentManagementTests.started(
      try await cli.run(["agent", "start"]), cli)
    #expect(second != first)
    let status = try await cli.run(["agent", "status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
    let facts = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
    #expect(facts?["pid"] as? Int == Int(second))
    let viaAgent = try await cli.run(
      ["token", "sandbox/alice"], AgentManagementTests.wrongPassphrase)
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    let stopped = try await cli.run(["agent", "stop"])
    #expect(stopped.status == 0, "\(stopped.stderr)")
    await AgentManagementTests.cleanUp(second, cli)
  }

  @Test func anAgentWhoseSocketIsReplacedStopsAndLeavesTheNewFileAlone() async throws {
    let cli = try await CLIHarness.start()
    let socket = cli.workspace.agentSocketPath
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    // Replaced in one step (a rename over it), as an editor or installer does: an unlink
    // and a create would leave a moment with nothing there, which the agent may see first.
    let planted = Data("not the agent's\n".utf8)
    let beside = socket + ".planted"
    #expect(FileManager.default.createFile(atPath: beside, contents: planted))
    #expect(rename(beside, socket) == 0)

    let stopped = await agent.finish(timeout: 60)
    #expect(stopped.status == 0, "\(stopped.output)")
    #expect(
      stopped.output.contains(
        "authtui agent: stopped: its socket \(socket) was replaced by another file, so no "
          + "command could reach it any more; it forgot the vault's key (`authtui agent start` "
          + "starts a new one)"))
    #expect(FileManager.default.contents(atPath: socket) == planted)
    await cli.stop()
  }
}

/// True once process `pid` has ended: it is gone, or a zombie waiting for a parent that does
/// not reap it.
private func processEnded(_ pid: Int32) -> Bool {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return kill(pid, 0) == -1 && errno == ESRCH }
  let state = stat[stat.index(after: close)...].split(separator: " ").first
  return state == "Z" || state == "X"
}
