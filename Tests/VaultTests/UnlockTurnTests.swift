import Crypto
import Foundation
import TestSupport
import Testing
import Vault

/// Unlocks take turns at the key derivation through the vault's `unlock_turns` table: a row of
/// a live process is a turn held (the test holds turns by inserting rows for itself).
@Suite struct UnlockTurnTests {
  let fixture: VaultFixture

  init() async throws {
    fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
  }

  /// A turn of this process, until `expiresAt` milliseconds since 1970, under `identity`.
  func holdTurn(
    expiresAt: Int64 = 4_102_444_800_000,
    identity: String = LeaseHolderProcess.current.identity
  ) async throws {
    try await fixture.sqlite(
      """
      INSERT INTO unlock_turns (turn_token, holder_pid, holder_process, expires_at_ms)
      VALUES (randomblob(16), \(getpid()), '\(identity)', \(expiresAt))
      """)
  }

  /// Waiting with one turn for the whole machine, as `notices` hears it.
  func oneTurn(giveUpAfter: TimeInterval = 60, notices: Notices? = nil) -> UnlockWaiting {
    var waiting = UnlockWaiting(noticeAfter: 0, giveUpAfter: giveUpAfter) { others, turns in
      Task { await notices?.record(others: others, turns: turns) }
    }
    waiting.turns = { _ in 1 }
    return waiting
  }

  @Test func anUnlockWaitsWhileEveryTurnIsHeldSaysSoOnceAndGoesOnWhenOneIsFreed() async throws {
    try await holdTurn()
    let vault = try await Vault.open(at: fixture.location)
    let notices = Notices()
    let waiting = oneTurn(notices: notices)
    let passphrase = fixture.passphrase
    let unlocking = Task { try await vault.unlock(with: passphrase, waiting: waiting) }
    try await waitUntil("the unlock says it waits") { await notices.heard.count == 1 }
    #expect(await notices.heard == [Notices.Notice(others: 1, turns: 1)])
    #expect(await vault.isUnlocked == false)
    #expect(try await vault.unlockTurnsHeld() == 1)

    try await fixture.sqlite("DELETE FROM unlock_turns")
    try await unlocking.value
    #expect(await vault.isUnlocked)
    #expect(await notices.heard.count == 1)
    // Its own turn was given back.
    #expect(try await vault.unlockTurnsHeld() == 0)
    #expect(try await fixture.sqlite("SELECT count(*) FROM unlock_turns") == "0")
    await vault.close()
  }

  @Test func theTurnsOfEndedAndExpiredHoldersAreTakenOverAndCleared() async throws {
    // This pid with another start time: a process that ended, its pid given to this one.
    let identity = LeaseHolderProcess.current.identity
    let ended = identity.split(separator: "/").dropLast().joined(separator: "/") + "/1"
    try await holdTurn(identity: ended)
    try await holdTurn(expiresAt: 1)
    let vault = try await Vault.open(at: fixture.location)
    #expect(try await vault.unlockTurnsHeld() == 0)
    // Giving up at once: a turn that had to be waited for would throw.
    try await vault.unlock(with: fixture.passphrase, waiting: oneTurn(giveUpAfter: 0))
    #expect(await vault.isUnlocked)
    #expect(try await fixture.sqlite("SELECT count(*) FROM unlock_turns") == "0")
    await vault.close()
  }

  @Test func anUnlockGivesUpAtItsBoundAndNamesTheAgent() async throws {
    try await holdTurn()
    let vault = try await Vault.open(at: fixture.location)
    let expected = VaultError.unlockTurnTimedOut(path: fixture.path, waited: 0, others: 1)
    await #expect(throws: expected) {
      try await vault.unlock(with: fixture.passphrase, waiting: oneTurn(giveUpAfter: 0))
    }
    #expect(await vault.isUnlocked == false)
    #expect(
      expected.description
        == "gave up after 0 s waiting for a turn to unlock the vault \(fixture.path): 1 other "
        + "process was unlocking it, each with its own key derivation; nothing was changed: "
        + "run `authtui agent start` so that the vault is unlocked once for all commands, or "
        + "try again later")
    // The test's turn is still there; the vault took none.
    #expect(try await fixture.sqlite("SELECT count(*) FROM unlock_turns") == "1")
    await vault.close()
  }

  @Test func aVaultOfTheSchemaBeforeUnlocksWithoutATurnAndGainsTheTable() async throws {
    let older = try VaultFixture()
    // The schema of the release before: versions 1 to 4, without unlock turns.
    _ = try await older.createClosedVault(ofSchema: 4, with: [VaultFixture.account(1)])
    let vault = try await Vault.open(at: older.location)
    try await vault.unlock(with: older.passphrase, waiting: oneTurn(giveUpAfter: 0))
    #expect(try await vault.status().schemaVersion == Vault.supportedSchemaVersion)
    #expect(try await vault.listAccounts().accounts.map(\.label) == ["alice-1"])
    #expect(try await older.sqlite("SELECT count(*) FROM unlock_turns") == "0")
    await vault.close()
  }

  @Test func aDerivationWithoutItsMemorySaysSoNamesTheAgentAndChangesNothing() async throws {
    let reason = "scrypt: error:0300008F:digital envelope routines::malloc failure"
    let outOfMemory = KeyDerivation { _, _, _ in throw CryptoError.backend(reason) }
    let vault = try await Vault.open(
      at: fixture.location, migrations: VaultSchema.migrations, keyDerivation: outOfMemory)
    let memory = try VaultFixture.cheapParameters().memoryBound
    let expected = VaultError.keyDerivationFailed(
      path: fixture.path, memoryBytes: memory, detail: "OpenSSL failed: \(reason)")
    await #expect(throws: expected) { try await vault.unlock(with: fixture.passphrase) }
    #expect(
      expected.description
        == "the memory ran out for the key derivation that unlocks the vault \(fixture.path) "
        + "(scrypt needs \(memory >> 20) MiB: OpenSSL failed: \(reason)); nothing was changed: "
        + "close other programs, or run `authtui agent start` so that the vault is unlocked "
        + "once for all commands")
    #expect(await vault.isUnlocked == false)
    #expect(try await fixture.sqlite("SELECT count(*) FROM unlock_turns") == "0")
    await vault.close()
  }
}

/// What an unlock's `notice` heard.
actor Notices {
  struct Notice: Equatable {
    let others: Int
    let turns: Int
  }

  private(set) var heard: [Notice] = []

  func record(others: Int, turns: Int) {
    heard.append(Notice(others: others, turns: turns))
  }
}
