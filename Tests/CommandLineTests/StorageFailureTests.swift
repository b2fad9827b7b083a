import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The findings of a hostile test run (issue 23, items 1, 3 and 5), each made to happen on
/// purpose: a disk that fills up at the worst moment of a refresh or a sign-out (the vault's
/// own fault injection, `VaultFaults`), and an export killed between its steps (strace).
@Suite struct StorageFailureTests {
  static let hasStrace = FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")

  @Test func aRefreshWhoseAnswerCannotBeStoredIsKeptAsideAndUsedByTheNextCall() async throws {
    let lane = try await FaultLane.start()
    let refresh = ["token", "sandbox/alice", "--min-valid", "999999"]
    let counting = try await lane.trial()
    try await counting.signIn()
    let operations = try await counting.operations(refresh)
    let commit = try #require(lastCommitStart(operations), "\(operations)")

    let trial = try await lane.trial()
    try await trial.signIn()
    let before = await lane.stat("refreshes")
    // From the commit of the answer on, the disk is full (retries included).
    let failed = try await trial.run(refresh, fault: "\(commit)+:ENOSPC")
    #expect(failed.status == 1)
    #expect(
      failed.stderr
        == "authtui: the provider rotated sandbox/alice's tokens, but the vault could not store "
        + "them (database or disk is full); they are kept aside, sealed, in "
        + "\(trial.vaultPath)-refresh and are stored at the next use of the vault once there is "
        + "room: free space on that disk, then run `authtui token sandbox/alice` (no new sign-in "
        + "is needed)\n")
    #expect(failed.stdout.isEmpty)
    #expect(await lane.stat("refreshes") == before + 1)

    // The next call stores them and refreshes with the rotated refresh token: no reuse.
    let next = try await trial.run(refresh)
    #expect(next.status == 0, "\(next.stderr)")
    #expect(await trial.providerAccepts(next.stdout.trimmingCharacters(in: .newlines)))
    #expect(await lane.stat("refreshes") == before + 2)
    #expect(await lane.stat("reuse_detections") == 0)
    #expect(try await trial.status(of: "sandbox/alice") == "valid")
    // Nothing is left in the side file once stored.
    let side = try Data(contentsOf: URL(fileURLWithPath: trial.vaultPath + "-refresh"))
    #expect(side.allSatisfy { $0 == 0 })
    await lane.stop()
  }

  @Test func aRefreshWithNoRoomForItsAnswerIsNeverSent() async throws {
    let lane = try await FaultLane.start()
    // The signed-in token is made to have expired, so the call below must refresh and cannot
    // fall back on it.
    let counting = try await lane.trial()
    try await counting.signIn()
    try await counting.expireAccessToken(of: "alice")
    let operations = try await counting.operations(["token", "sandbox/alice"])
    let allocation = try #require(
      operations.firstIndex { $0.hasSuffix(" allocate vault.db-refresh") }, "\(operations)")

    let trial = try await lane.trial()
    try await trial.signIn()
    try await trial.expireAccessToken(of: "alice")
    let before = await lane.stat("refreshes")
    let refused = try await trial.run(
      ["token", "sandbox/alice"], fault: "\(allocation + 1)+:ENOSPC")
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "authtui: there is no room on the disk to store a refreshed token safely "
        + "(\(trial.vaultPath)-refresh could not be given its 1088 KiB: No space left on device), "
        + "so nothing was sent to the provider and the tokens are as they were: free space on "
        + "that disk, then run the command again\n")
    #expect(await lane.stat("refreshes") == before)
    #expect(!FileManager.default.fileExists(atPath: trial.vaultPath + "-refresh"))
    let later = try await trial.run(["token", "sandbox/alice"])
    #expect(later.status == 0, "\(later.stderr)")
    #expect(await lane.stat("refreshes") == before + 1)
    await lane.stop()
  }

  @Test func aTokenShortOfMinValidWithNoRoomToRefreshIsHandedOutWithWhy() async throws {
    let lane = try await FaultLane.start()
    // The token lasts an hour; a day is asked for, so the call must refresh, and there is no
    // room for the answer: the token that lasts is handed out, and standard error says why.
    let command = ["token", "sandbox/alice", "--min-valid", "86400"]
    let counting = try await lane.trial()
    try await counting.signIn()
    let operations = try await counting.operations(command)
    let allocation = try #require(
      operations.firstIndex { $0.hasSuffix(" allocate vault.db-refresh") }, "\(operations)")

    let trial = try await lane.trial()
    try await trial.signIn()
    let before = await lane.stat("refreshes")
    let short = try await trial.run(command, fault: "\(allocation + 1)+:ENOSPC")
    #expect(short.status == 0, "\(short.stderr)")
    #expect(await trial.providerAccepts(short.stdout.trimmingCharacters(in: .newlines)))
    #expect(short.stderr.hasPrefix("authtui: sandbox/alice's token is valid for "))
    #expect(
      short.stderr.hasSuffix(
        " more, less than --min-valid 86400 asks: there is no room on the disk to store a "
          + "refreshed token safely (\(trial.vaultPath)-refresh could not be given its 1088 "
          + "KiB: No space left on device), so nothing was sent to the provider and the tokens "
          + "are as they were: free space on that disk, then run the command again\n"),
      "\(short.stderr)")
    #expect(await lane.stat("refreshes") == before)
    await lane.stop()
  }

  @Test func aSignOutWhoseDeleteFailsAfterRevocationNeverHandsOutARevokedToken() async throws {
    let lane = try await FaultLane.start()
    let counting = try await lane.trial()
    try await counting.signIn()
    let operations = try await counting.operations(["logout", "sandbox/alice", "--no-browser"])
    let delete = try #require(lastCommitStart(operations), "\(operations)")

    let trial = try await lane.trial()
    try await trial.signIn()
    let token = try await trial.run(["token", "sandbox/alice"]).stdout
      .trimmingCharacters(in: .newlines)
    let before = await lane.stat("revocations")
    let failed = try await trial.run(
      ["logout", "sandbox/alice", "--no-browser"], fault: "\(delete)+:ENOSPC")
    #expect(failed.status == 1)
    #expect(
      failed.stderr.hasSuffix(
        "authtui: sandbox/alice was signed out at the provider (its tokens are revoked) and is "
          + "marked \"sign-in needed\" here, but the vault could not remove it (database or disk "
          + "is full): free space on the disk holding the vault, then remove it with "
          + "`authtui logout sandbox/alice --local-only`\n"), "\(failed.stderr)")
    #expect(await lane.stat("revocations") > before)
    #expect(!(await trial.providerAccepts(token)))

    #expect(try await trial.status(of: "sandbox/alice") == "sign_in_needed")
    let after = try await trial.run(["token", "sandbox/alice"])
    #expect(after.status == 5)
    #expect(after.stdout.isEmpty)
    let removed = try await trial.run(["logout", "sandbox/alice", "--local-only"])
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(try await trial.status(of: "sandbox/alice") == nil)
    await lane.stop()
  }

  @Test(.enabled(if: hasStrace, "strace is not installed (.ci/run installs it)"))
  func anExportKilledBeforeItsRenameLeavesOneFileThatTheNextExportRemoves() async throws {
    let lane = try await FaultLane.start()
    let trial = try await lane.trial()
    try await trial.signIn()
    let target = trial.folder.file("exports/app.env")
    try FileManager.default.createDirectory(
      atPath: trial.folder.file("exports"), withIntermediateDirectories: true)
    let export = ["export", "sandbox/alice", "--env-file", target]
    for syscall in ["fsync", "linkat", "rename"] {
      let killed = try await straced(
        trial, export, "-e", "trace=\(syscall)", "-e", "inject=\(syscall):signal=KILL:when=1")
      #expect(killed.status == 128 + SIGKILL, "\(syscall): \(killed.stderr)")
      let left = try folderContents(trial.folder.file("exports"))
      // Killed before the content had a name: nothing; after: only the one fixed name.
      #expect(
        left.isEmpty || left == [".app.env.authtui.tmp"], "killed at \(syscall): \(left)")
      let again = try await trial.run(export)
      #expect(again.status == 0, "\(again.stderr)")
      #expect(try folderContents(trial.folder.file("exports")) == ["app.env"])
      try FileManager.default.removeItem(atPath: target)
    }
    await lane.stop()
  }

  /// Runs `authtui ARGUMENTS…` under `strace -f -qq -o /dev/null OPTIONS…`.
  private func straced(
    _ trial: FaultTrial, _ arguments: [String], _ options: String...
  ) async throws -> ChildProcess.Result {
    try await ChildProcess.run(
      "/usr/bin/strace",
      ["-f", "-qq", "-o", "/dev/null"] + options + [Products.authtui] + arguments,
      environment: trial.environment, timeout: 90)
  }

  private func folderContents(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }
}
