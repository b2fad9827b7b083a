import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every write of a refresh, a sign-in, a sign-out, a passphrase change and an export, failed
/// one at a time, as SQLite tests itself (DESIGN.md, STYLE.md "Untrusted text and descriptors"):
/// the command is run once to count its operations, then once per operation N with that one
/// failing (`N:EIO`) and with it and every later one failing (`N+:ENOSPC`, a disk that stays
/// full), each trial on a vault of its own, and what it leaves is checked.
///
/// The vault's operations are failed by its own injection (`VaultFaults`, debug builds): strace
/// counts `when=N` per thread, and the vault's work moves between dispatch worker threads, so
/// strace's "Nth write" would be a different write from run to run. The env file's are failed
/// by strace (`-e inject`), which is deterministic there: one thread makes them all, and no
/// other thread makes those calls.
@Suite(.serialized) struct FaultSweepTests {
  /// Trials at once: each starts processes and unlocks a vault.
  static let width = 2

  static let refresh = ["token", "sandbox/alice", "--min-valid", "999999"]

  /// The faults of the sweep: for each operation, once and from there on.
  static func faults(count: Int) -> [String] {
    (1...max(count, 1)).flatMap { ["\($0):EIO", "\($0)+:ENOSPC"] }
  }

  /// Starts `width` lanes, counts `command`'s operations on a trial prepared by `prepare`, and
  /// runs `trial` for every fault.
  private func sweep(
    _ command: [String], _ changes: [String: String?] = [:], width: Int = Self.width,
    prepare: @escaping @Sendable (FaultTrial) async throws -> Void,
    trial: @escaping @Sendable (FaultTrial, String) async throws -> Void
  ) async throws {
    let lanes = try await withThrowingTaskGroup(of: FaultLane.self) { group in
      for _ in 0..<width { group.addTask { try await FaultLane.start() } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    let counting = try await lanes[0].trial()
    try await prepare(counting)
    let operations = try await counting.operations(command, changes)
    #expect(!operations.isEmpty, "\(command) made no vault operation")
    try await forEachBounded(Self.faults(count: operations.count), width: width) {
      worker, fault in
      let fresh = try await lanes[worker].trial()
      try await prepare(fresh)
      try await trial(fresh, fault)
    }
    for lane in lanes {
      #expect(await lane.stat("reuse_detections") == 0)
      await lane.stop()
    }
  }

  /// Signs in. Every call of the sweep (`refresh`: `--min-valid` beyond any lifetime) then
  /// refreshes with whatever refresh token the trial left, so a rotated one that was lost shows
  /// as the provider's reuse detection, as it would in use, and no step waits for a token to
  /// run out (a lifetime of seconds failed the sign-in's own userinfo call on a busy machine).
  @Sendable static func signIn(_ trial: FaultTrial) async throws {
    try await trial.signIn()
  }

  @Test func everyFailedWriteOfARefreshLeavesItsAnswerStoredOrKeptAside() async throws {
    try await sweep(Self.refresh, prepare: Self.signIn) { trial, fault in
      let lane = trial.lane
      let before = await lane.stat("refreshes")
      let result = try await trial.run(Self.refresh, fault: fault)
      let reached = await lane.stat("refreshes") > before
      let what = "refresh with \(fault) (reached the provider: \(reached))"
      if result.status == 0 {
        #expect(
          await trial.providerAccepts(result.stdout.trimmingCharacters(in: .newlines)), "\(what)")
      } else if reached {
        #expect(result.status == 1, "\(what): \(result.stderr)")
        #expect(
          result.stderr.hasPrefix(
            "authtui: the provider rotated sandbox/alice's tokens, but the "
              + "vault could not store them (")
            && result.stderr.contains("they are kept aside, sealed, in"),
          "\(what): \(result.stderr)")
      } else {
        #expect(result.status == 1, "\(what): \(result.stderr)")
        #expect(
          result.stderr.hasPrefix(
            "authtui: the vault \(trial.vaultPath) could not be read or "
              + "written (") || result.stderr.hasPrefix("authtui: there is no room on the disk"),
          "\(what): \(result.stderr)")
      }
      // The next call refreshes: it gets a token the provider takes, and never replays a spent
      // refresh token.
      let next = try await trial.run(Self.refresh)
      #expect(next.status == 0, "\(what), then: \(next.stderr)")
      #expect(
        await trial.providerAccepts(next.stdout.trimmingCharacters(in: .newlines)),
        "\(what): the next token is refused")
      #expect(await lane.stat("reuse_detections") == 0, "\(what)")
      try await trial.expectVaultIntact(what)
    }
  }

  @Test func everyFailedWriteOfASignInLeavesNoHalfAccount() async throws {
    let login = ["login", "sandbox"]
    try await sweep(login, ["AUTHTUI_TEST_BROWSER_USER": "alice"], prepare: { _ in }) {
      trial, fault in
      let result = try await trial.run(
        login, fault: fault, ["AUTHTUI_TEST_BROWSER_USER": "alice"])
      let what = "login with \(fault)"
      if result.status != 0 {
        #expect(result.status == 1, "\(what): \(result.stderr)")
        #expect(
          result.stderr.contains(
            "authtui: the vault \(trial.vaultPath) could not be read or "
              + "written ("), "\(what): \(result.stderr)")
      }
      // Either no account or one whose token works.
      if let status = try await trial.status(of: "sandbox/alice") {
        #expect(status == "valid", "\(what)")
        let token = try await trial.run(["token", "sandbox/alice"])
        #expect(
          await trial.providerAccepts(token.stdout.trimmingCharacters(in: .newlines)), "\(what)")
      } else {
        #expect(result.status != 0, "\(what): login succeeded but stored nothing")
      }
      try await trial.expectVaultIntact(what)
    }
  }

  @Test func everyFailedWriteOfASignOutLeavesNoRevokedTokenHandedOut() async throws {
    let logout = ["logout", "sandbox/alice", "--no-browser"]
    try await sweep(logout, prepare: { try await $0.signIn() }) { trial, fault in
      let lane = trial.lane
      let before = await lane.stat("revocations")
      let result = try await trial.run(logout, fault: fault)
      let revoked = await lane.stat("revocations") > before
      let what = "logout with \(fault) (revoked: \(revoked))"
      if result.status == 0 {
        #expect(result.stdout.contains("Signed out of sandbox/alice"), "\(what)")
      } else if revoked {
        #expect(result.status == 1, "\(what): \(result.stderr)")
        #expect(
          result.stderr.contains(
            "sandbox/alice was signed out at the provider (its tokens are "
              + "revoked) and is marked \"sign-in needed\" here, but the vault could not remove it"),
          "\(what): \(result.stderr)")
      } else {
        #expect(result.status == 1, "\(what): \(result.stderr)")
        #expect(
          result.stderr.contains("could not be read or written (")
            && result.stderr.hasSuffix("try again\n"), "\(what): \(result.stderr)")
      }
      if revoked {
        let token = try await trial.run(["token", "sandbox/alice"])
        #expect([4, 5].contains(token.status), "\(what): token exited \(token.status)")
        #expect(token.stdout.isEmpty, "\(what): a revoked token was handed out")
        #expect(try await trial.status(of: "sandbox/alice") != "valid", "\(what)")
      }
      try await trial.expectVaultIntact(what)
    }
  }

  @Test func everyFailedWriteOfAPassphraseChangeLeavesOnePassphraseWorking() async throws {
    let passwd = ["vault", "passwd"]
    let newPassphrase = "a new pass phrase"
    let changes: [String: String?] = ["AUTHTUI_NEW_PASSPHRASE": newPassphrase]
    try await sweep(passwd, changes, prepare: { _ in }) { trial, fault in
      let result = try await trial.run(passwd, fault: fault, changes)
      let what = "passwd with \(fault)"
      let old = try await trial.run(["list", "--json"])
      let new = try await trial.run(["list", "--json"], ["AUTHTUI_PASSPHRASE": newPassphrase])
      #expect(
        (old.status == 0) != (new.status == 0), "\(what): old \(old.status), new \(new.status)")
      if result.status == 0 {
        #expect(new.status == 0, "\(what): the new passphrase does not open the vault")
      } else {
        #expect(
          result.stderr.contains("could not be read or written ("), "\(what): \(result.stderr)")
      }
      let working = old.status == 0 ? SandboxWorkspace.passphrase : newPassphrase
      let list = try await trial.run(["list", "--json"], ["AUTHTUI_PASSPHRASE": working])
      #expect(list.stdout.contains("sandbox/bob"), "\(what): \(list.stderr)")
    }
  }

  @Test(
    .enabled(if: StorageFailureTests.hasStrace, "strace is not installed (.ci/run installs it)"))
  func everyFailedOrKilledStepOfAnExportLeavesTheFileWholeAndNoTokenBehind() async throws {
    let lane = try await FaultLane.start()
    let trial = try await lane.trial()
    try await trial.signIn()
    let steps = ["fsync", "linkat", "rename"]
    // Counted once: each step's calls, all on one thread (else `when=N` would not be exact).
    let counting = try exports(trial, "counting")
    let log = trial.folder.file("export-trace.log")
    let traced = try await strace(
      trial, counting, ["-o", log, "-e", "trace=" + steps.joined(separator: ",")])
    #expect(traced.status == 0, "\(traced.stderr)")
    let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(Set(calls.compactMap { $0.split(separator: " ").first }).count == 1, "\(calls)")
    var cases: [(syscall: String, number: Int, injection: String)] = []
    for step in steps {
      let count = calls.filter { $0.contains(" \(step)(") }.count
      #expect(count > 0, "export made no \(step)")
      for number in 1...max(count, 1) {
        for injection in ["error=ENOSPC", "error=EIO", "signal=KILL"] {
          cases.append((step, number, injection))
        }
      }
    }
    try await forEachBounded(cases, width: Self.width) { _, step in
      let what = "export with \(step.syscall) #\(step.number) \(step.injection)"
      let folder = "\(step.syscall)-\(step.number)-\(step.injection)"
      let export = try exports(trial, folder)
      let target = trial.folder.file("\(folder)/app.env")
      let result = try await strace(
        trial, export,
        [
          "-o", "/dev/null", "-e", "trace=\(step.syscall)", "-e",
          "inject=\(step.syscall):\(step.injection):when=\(step.number)",
        ])
      let killed = step.injection == "signal=KILL"
      if killed {
        #expect(result.status == 128 + SIGKILL, "\(what): \(result.stderr)")
      } else if result.status != 0 {
        #expect(result.status == 1, "\(what)")
        #expect(result.stderr.hasPrefix("authtui: cannot write \(target): "), "\(what)")
      }
      // The file as it was, or whole; 0600.
      let content = try String(contentsOfFile: target, encoding: .utf8)
      #expect(
        content == "OTHER=1\n"
          || (content.hasPrefix("OTHER=1\nSANDBOX_TOKEN='") && content.hasSuffix("'\n")
            && content.contains("\nSANDBOX_TOKEN_EXPIRES_AT='")),
        "\(what): \(content)")
      #expect(try mode(of: target) == 0o600, "\(what)")
      let left = try FileManager.default.contentsOfDirectory(atPath: trial.folder.file(folder))
        .sorted()
      #expect(
        left == ["app.env"] || (killed && left == [".app.env.authtui.tmp", "app.env"]),
        "\(what): \(left)")
      if left.count > 1 {
        #expect(try mode(of: trial.folder.file("\(folder)/.app.env.authtui.tmp")) == 0o600)
        let again = try await trial.run(export)
        #expect(again.status == 0, "\(what), then: \(again.stderr)")
        #expect(
          try FileManager.default.contentsOfDirectory(atPath: trial.folder.file(folder))
            == ["app.env"], "\(what): the next export left the temporary file")
      }
    }
    await lane.stop()
  }

  /// The `export` arguments for an env file `FOLDER/app.env` of `trial`'s, made first holding
  /// one other line.
  private func exports(_ trial: FaultTrial, _ folder: String) throws -> [String] {
    let path = trial.folder.file(folder)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let target = path + "/app.env"
    try Data("OTHER=1\n".utf8).write(to: URL(fileURLWithPath: target))
    chmod(target, 0o600)
    return ["export", "sandbox/alice", "--env-file", target]
  }

  private func strace(_ trial: FaultTrial, _ arguments: [String], _ options: [String])
    async throws -> ChildProcess.Result
  {
    try await ChildProcess.run(
      "/usr/bin/strace", ["-f", "-qq"] + options + [Products.authtui] + arguments,
      environment: trial.environment, timeout: 90)
  }

  private func mode(of path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
  }
}
