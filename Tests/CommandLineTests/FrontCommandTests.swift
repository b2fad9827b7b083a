import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The small front that the `authtui` executable is: it answers `token` from a running agent by
/// itself and hands every other command line to the full program, `authtui-core`, found beside
/// it or in `../libexec/authtui/`. A client given a wrong passphrase proves that an answer came
/// from the agent; a front copied without the full program proves it came from the front.
@Suite struct FrontCommandTests {
  static let wrongPassphrase: [String: String?] = ["AUTHTUI_PASSPHRASE": "not the passphrase"]

  /// A copy of the front alone, in a folder of its own.
  static func loneFront(in cli: CLIHarness) async throws -> String {
    let folder = cli.folder.file("lone")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try await copyExecutable(Products.authtui, to: folder + "/authtui")
    return folder + "/authtui"
  }

  /// Copies an executable with `cp`: a copy written by this process could not be run while a
  /// child that another test forks meanwhile still holds the write descriptor (ETXTBSY).
  static func copyExecutable(_ source: String, to destination: String) async throws {
    let copied = try await ChildProcess.run("/bin/cp", [source, destination])
    #expect(copied.status == 0, "cp: \(copied.stderr)")
  }

  @Test func answersTokenThroughTheAgentWithoutTheFullProgram() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    let front = try await Self.loneFront(in: cli)
    let agent = try await AgentProcess.start(cli)

    for arguments in [
      ["token", "sandbox/alice"], ["token", "sandbox/alice", "--min-valid", "60"],
      ["token", "--min-valid=60", "sandbox/alice", "--vault=\(cli.workspace.vaultPath)"],
      ["token", "sandbox", "--vault", cli.workspace.vaultPath],
    ] {
      let answered = try await cli.run(arguments, Self.wrongPassphrase, executable: front)
      #expect(answered.status == 0, "\(arguments): \(answered.stderr)")
      #expect(answered.stdout == stored + "\n")
      #expect(answered.stderr.isEmpty)
    }
    // The agent's failure, as the full program prints it.
    let missing = try await cli.run(["token", "sandbox/alcie"], executable: front)
    #expect(missing.status == 4)
    #expect(missing.stderr == "authtui: no account sandbox/alcie; did you mean `sandbox/alice`?\n")

    // Everything else needs the full program, and says where it was looked for.
    let missingCore = "authtui: the full program authtui-core is missing: looked for "
    for arguments in [
      ["list"], ["token", "sandbox/alice", "--min-valid", "1e3"], ["--vault", "x", "token", "a"],
      ["token", "sandbox/alice", "--json"], ["token", "sandbox/alice", "extra"],
    ] {
      let handedOver = try await cli.run(arguments, executable: front)
      #expect(handedOver.status == 1, "\(arguments)")
      #expect(handedOver.stderr.hasPrefix(missingCore), "\(arguments): \(handedOver.stderr)")
    }
    let bypassed = try await cli.run(
      ["token", "sandbox/alice"], ["AUTHTUI_NO_AGENT": "1"], executable: front)
    #expect(bypassed.stderr.hasPrefix(missingCore))
    #expect(await agent.stop().status == 0)
    let alone = try await cli.run(["token", "sandbox/alice"], executable: front)
    #expect(alone.stderr.hasPrefix(missingCore))
    await cli.stop()
  }

  @Test func findsTheFullProgramWhereMakeInstallPutsItAndThroughALink() async throws {
    let cli = try await CLIHarness.start()
    let prefix = cli.folder.file("prefix")
    let manager = FileManager.default
    try manager.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try manager.createDirectory(
      atPath: prefix + "/libexec/authtui", withIntermediateDirectories: true)
    try await Self.copyExecutable(Products.authtui, to: prefix + "/bin/authtui")
    try await Self.copyExecutable(
      Products.path("authtui-core"), to: prefix + "/libexec/authtui/authtui-core")
    try manager.createDirectory(
      atPath: cli.folder.file("elsewhere"), withIntermediateDirectories: true)
    let link = cli.folder.file("elsewhere/authtui")
    try manager.createSymbolicLink(atPath: link, withDestinationPath: prefix + "/bin/authtui")

    let expected = try await cli.run(["--version"])
    let wrong = try await cli.run(["lisst"])
    #expect(wrong.status == 2)
    for executable in [prefix + "/bin/authtui", link] {
      let version = try await cli.run(["--version"], executable: executable)
      #expect(version.status == 0)
      #expect(version.stdout == expected.stdout)
      // The full program's own answers, exit status included.
      let typo = try await cli.run(["lisst"], executable: executable)
      #expect(typo.status == wrong.status)
      #expect(typo.stderr == wrong.stderr)
    }
    await cli.stop()
  }

  /// The `op` of each request line.
  static func operations(_ requests: [String]) -> [String] {
    requests.map {
      ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["op"]
        as? String ?? $0
    }
  }

  @Test func tokenWithoutAnAgentAsksOnceAndAStrayNoteChangesNothing() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    let socket = cli.workspace.agentSocketPath
    // An agent of another vault: it declines, and the caller unlocks the vault itself.
    let declining =
      #"{"ok":false,"exit":1,"code":"other_vault","message":"this agent serves another vault"}"#

    // The front asks, finds no agent, and the full program it becomes does not ask again.
    let agent = try FakeAgent(at: socket)
    let requests = Task { await agent.answerEach(with: declining) }
    let token = try await cli.run(["token", "sandbox/alice"])
    #expect(token.status == 0, "\(token.stderr)")
    #expect(token.stdout == stored + "\n")
    let headers = try await cli.run(
      ["token", "sandbox/alice", "--header", "--for", "GET", "https://api.example.com/me"])
    #expect(headers.status == 0, "\(headers.stderr)")
    #expect(headers.stdout == "Authorization: Bearer \(stored)\n")
    #expect(Self.operations(await FakeAgent.stop(socket, requests)) == ["token", "proof"])

    // The full program started otherwise, with the note in its environment (a user's export,
    // a parent's leftover): the note names another process, and the agent is asked.
    unlink(socket)
    let second = try FakeAgent(at: socket)
    let secondRequests = Task { await second.answerEach(with: declining) }
    let core = Products.path("authtui-core")
    for note in ["1:1", "\(getpid()):0", "yes"] {
      let direct = try await cli.run(
        ["token", "sandbox/alice"], ["AUTHTUI_FRONT_FOUND_NO_AGENT": note], executable: core)
      #expect(direct.status == 0, "\(direct.stderr)")
      #expect(direct.stdout == stored + "\n")
    }
    #expect(
      Self.operations(await FakeAgent.stop(socket, secondRequests)) == ["token", "token", "token"])

    // Never passed on: a child of the full program does not see it.
    let child = try await cli.run(
      ["exec", "sandbox/alice", "--", "/usr/bin/env"],
      ["AUTHTUI_FRONT_FOUND_NO_AGENT": "1:1", "AUTHTUI_NO_AGENT": "1"])
    #expect(child.status == 0, "\(child.stderr)")
    #expect(child.stdout.contains("AUTHTUI_TOKEN="))
    #expect(!child.stdout.contains("AUTHTUI_FRONT_FOUND_NO_AGENT"))
    await cli.stop()
  }

  @Test func unlocksTheVaultItselfBesideAStaleSocket() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    // A socket file nobody listens on: what an agent killed with SIGKILL leaves.
    let socketPath = cli.workspace.agentSocketPath
    try leaveStaleSocket(at: socketPath)
    #expect(fileMode(socketPath).map { $0 & S_IFMT } == S_IFSOCK)

    let unlocked = try await cli.run(["token", "sandbox/alice"])
    #expect(unlocked.status == 0, "\(unlocked.stderr)")
    #expect(unlocked.stdout == stored + "\n")
    let refused = try await cli.run(["token", "sandbox/alice"], Self.wrongPassphrase)
    #expect(refused.status == 3)
    #expect(refused.stderr.contains("AUTHTUI_PASSPHRASE does not open the vault"))
    await cli.stop()
  }
}
