import Foundation
import TestSupport
import Testing
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// Real child processes (Tests/VaultProbe) sharing one vault file: racing for a lease, and being
/// killed with SIGKILL in the middle of their work.
@Suite struct CrossProcessTests {
  private func probe(_ fixture: VaultFixture, _ arguments: [String], newPassphrase: String? = nil)
    throws -> RunningChild
  {
    try RunningChild(
      Products.path("VaultProbe"), [fixture.path] + arguments,
      environment: ChildProcess.environment([
        "VAULT_PROBE_PASSPHRASE": "correct horse battery staple",
        "VAULT_PROBE_NEW_PASSPHRASE": newPassphrase,
      ]))
  }

  private func expectLine(_ child: RunningChild, _ expected: String) async {
    let line = await child.nextLine()
    let errors = await child.standardError()
    #expect(line == expected, "stderr: \(errors)")
  }

  @Test func twoProcessesRaceForALeaseExactlyOneWinsAndTheOtherTakesItOverWhenTheWinnerDies()
    async throws
  {
    let fixture = try VaultFixture()
    let account = try #require(
      try await fixture.createClosedVault(with: [VaultFixture.account(1)]).first)
    let first = try probe(fixture, ["serve"])
    let second = try probe(fixture, ["serve"])
    await expectLine(first, "ready")
    await expectLine(second, "ready")

    await first.send("begin \(account.id.rawValue) first 30")
    await second.send("begin \(account.id.rawValue) second 30")
    let answers = [await first.nextLine() ?? "", await second.nextLine() ?? ""]
    let winners = answers.indices.filter { answers[$0].hasPrefix("acquired ") }
    try #require(winners.count == 1, "answers: \(answers)")
    let winner = winners[0]
    let (winnerChild, loserChild) = winner == 0 ? (first, second) : (second, first)
    let winnerName = winner == 0 ? "first" : "second"
    let expiry = try #require(Int64(answers[winner].split(separator: " ")[1]))
    #expect(answers[1 - winner] == "held \(winnerName) \(expiry)")

    // The winner dies holding the lease: its process is gone, so the lease is taken over at
    // once, long before it would expire.
    await winnerChild.kill(SIGKILL)
    #expect(await winnerChild.wait() == 128 + SIGKILL)
    await loserChild.send("begin \(account.id.rawValue) survivor 30")
    #expect(await loserChild.nextLine()?.hasPrefix("acquired ") == true)
    await loserChild.send("complete \(account.id.rawValue) at-after-takeover rt-after-takeover")
    #expect(await loserChild.nextLine() == "completed 2")
    await loserChild.closeInput()
    #expect(await loserChild.wait() == 0)

    let tokens = try await fixture.unlocked().account(account.id).tokens
    #expect(tokens.accessToken == "at-after-takeover")
    #expect(tokens.refreshToken == "rt-after-takeover")
  }

  @Test func aWriterKilledAtRandomMomentsNeverLosesACommittedUpdate() async throws {
    let fixture = try VaultFixture()
    let slots = 10
    let records = try await fixture.createClosedVault(
      with: (1...slots).map { VaultFixture.account($0) })
    let ids = records.map { String($0.id.rawValue) }
    let updatesPerRun = 1000
    var generator = SystemRandomNumberGenerator()
    // What each account held after the previous trial (checked then).
    var previous = records.map { Self.Written(tokens: $0.tokens) }

    for trial in 0..<20 {
      let start = trial * updatesPerRun
      let writer = try probe(fixture, ["update-loop", String(start), String(updatesPerRun)] + ids)
      // Kill after a random number of committed updates, while the next one is under way.
      let killAfter = Int.random(in: 0..<(updatesPerRun - 10), using: &generator)
      var reported = start - 1
      while reported < start + killAfter, let line = await writer.nextLine() {
        reported = Int(line.split(separator: " ").last ?? "") ?? reported
      }
      await writer.kill(SIGKILL)
      _ = await writer.wait()
      for line in await writer.bufferedLines() {
        reported = Int(line.split(separator: " ").last ?? "") ?? reported
      }
      let errors = await writer.standardError()
      #expect(reported >= start + killAfter, "trial \(trial): \(errors)")

      // The vault opens, and every account holds the last update committed to it: the one the
      // writer reported, or the one it committed but was killed before reporting.
      let vault = try await fixture.unlocked()
      let listing = try await vault.listAccounts()
      await vault.close()
      #expect(listing.damaged.isEmpty, "trial \(trial)")
      let byID = Dictionary(uniqueKeysWithValues: listing.accounts.map { ($0.id, $0.tokens) })
      let found = records.map { byID[$0.id].map(Self.Written.init) }
      let explained = [reported, reported + 1].contains { committed in
        (0..<slots).allSatisfy { slot in
          // Update i goes to slot i % slots; the newest in start…committed wins, else the
          // account still holds what it held after the previous trial.
          let newest = stride(from: committed, through: start, by: -1).first { $0 % slots == slot }
          return found[slot] == (newest.map(Self.Written.init(update:)) ?? previous[slot])
        }
      }
      #expect(explained, "trial \(trial): reported \(reported), found \(found)")
      previous = found.map { $0 ?? Self.Written(tokens: .none(at: Date())) }
    }
  }

  /// The parts of a token set the update loop writes (update i: access-i, refresh-i, expiry i).
  private struct Written: Equatable {
    let access: String?
    let refresh: String?
    let expiry: Date?

    init(tokens: TokenSet) {
      (access, refresh, expiry) = (tokens.accessToken, tokens.refreshToken, tokens.expiresAt)
    }

    init(update: Int) {
      (access, refresh) = ("access-\(update)", "refresh-\(update)")
      expiry = Date(timeIntervalSince1970: Double(update))
    }
  }

  @Test func aWriterWaitsForAnotherProcessesTransactionWithinItsBusyTimeout() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    // The probe stops inside its passphrase-change transaction, holding the write lock.
    let holder = try probe(fixture, ["passwd-interrupted"], newPassphrase: "another passphrase")
    await expectLine(holder, "before-commit")

    let impatient = try await Vault.open(at: fixture.location, busyTimeout: .milliseconds(200))
    try await impatient.unlock(with: fixture.passphrase)
    // Readers are never blocked (WAL); a writer gives up after its busy timeout, with a message.
    #expect(try await impatient.listAccounts().accounts.count == 1)
    await #expect(throws: VaultError.busy(path: fixture.path)) {
      try await impatient.insert(VaultFixture.account(2))
    }
    #expect(VaultError.busy(path: fixture.path).description.contains("try again"))

    // A patient writer waits, and goes through once the holder is gone.
    let patient = try await Vault.open(at: fixture.location, busyTimeout: .seconds(60))
    try await patient.unlock(with: fixture.passphrase)
    let write = Task { try await patient.insert(VaultFixture.account(3)) }
    await holder.kill(SIGKILL)
    #expect(await holder.wait() == 128 + SIGKILL)
    #expect(try await write.value.label == "alice-3")
    #expect(try await impatient.listAccounts().accounts.map(\.label) == ["alice-1", "alice-3"])
  }

  @Test func anInterruptedPassphraseChangeLeavesTheOldPassphraseAndOnlyACommitBringsTheNew()
    async throws
  {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let newPassphrase = Passphrase("a new passphrase entirely")
    let changer = try probe(
      fixture, ["passwd-interrupted"], newPassphrase: "a new passphrase entirely")
    await expectLine(changer, "before-commit")
    await changer.kill(SIGKILL)
    #expect(await changer.wait() == 128 + SIGKILL)

    let vault = try await Vault.open(at: fixture.location)
    await #expect(throws: VaultError.wrongPassphrase(path: fixture.path)) {
      try await vault.unlock(with: newPassphrase)
    }
    try await vault.unlock(with: fixture.passphrase)
    #expect(try await vault.listAccounts().accounts == records)

    try await vault.changePassphrase(to: newPassphrase)
    await vault.close()
    let reopened = try await Vault.open(at: fixture.location)
    await #expect(throws: VaultError.wrongPassphrase(path: fixture.path)) {
      try await reopened.unlock(with: fixture.passphrase)
    }
    try await reopened.unlock(with: newPassphrase)
    #expect(try await reopened.listAccounts().accounts == records)
  }
}
