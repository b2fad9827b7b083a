import Foundation
import TestSupport
import Testing
import Vault

/// What a refresh lease tells the next holder: that its holder's process ended, and that a
/// refresh request was sent whose answer was never stored.
extension RefreshLeaseTests {
  /// The pid of a process that has ended and been reaped.
  private func endedProcessID() async throws -> Int32 {
    let result = try await ChildProcess.run("/bin/sh", ["-c", "echo $$"])
    return try #require(Int32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
  }

  @Test func aLeaseWhoseHolderProcessEndedIsTakenOverBeforeItExpires() async throws {
    let (fixture, vault, account) = try await vaultWithOneAccount()
    _ = try await acquire(vault, account.id, at: start)
    // A live holder (this process) keeps it.
    #expect(
      try await vault.beginRefresh(of: account.id, holder: "two", duration: 30, now: start)
        == .heldByOther(holder: "test", until: start.addingTimeInterval(30)))
    for identity in ["", LeaseHolderProcess.current.identity] {
      // The same row, as a process that has ended would have left it.
      let pid = try await endedProcessID()
      let stale = identity.split(separator: "/").dropLast().joined(separator: "/")
      let recorded = identity.isEmpty ? "" : "\(stale)/1"
      try await fixture.sqlite(
        "UPDATE refresh_leases SET holder_pid = \(pid), holder_process = '\(recorded)'")
      let taken = try await acquire(vault, account.id, at: start.addingTimeInterval(1))
      #expect(!taken.refreshTokenMayBeSpent)
    }
  }

  @Test func aSentRequestWhoseAnswerWasNeverStoredIsKnownToTheNextHolders() async throws {
    // The folder must outlast the test: a sent refresh creates the vault's side file in it.
    let (fixture, vault, account) = try await vaultWithOneAccount()
    defer { withExtendedLifetime(fixture) {} }
    let first = try await acquire(vault, account.id, at: start)
    #expect(!first.refreshTokenMayBeSpent)
    try await vault.markRefreshSent(first)
    // The holder stalled past its lease: the next one takes over, warned.
    let second = try await acquire(vault, account.id, at: start.addingTimeInterval(31))
    #expect(second.refreshTokenMayBeSpent)
    // Given back without a refresh, the warning stays for the one after.
    try await vault.releaseRefresh(second)
    let third = try await acquire(vault, account.id, at: start.addingTimeInterval(32))
    #expect(third.refreshTokenMayBeSpent)
    // The late answer of the first holder is lost with its lease.
    await #expect(throws: VaultError.leaseLost(account.id)) {
      try await vault.completeRefresh(first, tokens: .none(at: start))
    }
    // Once new tokens are stored the warning is gone.
    let rotated = TokenSet(
      accessToken: "at-2", refreshToken: "rt-2", expiresAt: start.addingTimeInterval(3600),
      obtainedAt: start)
    _ = try await vault.completeRefresh(third, tokens: rotated)
    let fourth = try await acquire(vault, account.id, at: start.addingTimeInterval(33))
    #expect(!fourth.refreshTokenMayBeSpent)
  }

  @Test func aRefreshGivenUpAfterItsRequestLeftWarnsTheNextHolder() async throws {
    // The folder must outlast the test: a sent refresh creates the vault's side file in it.
    let (fixture, vault, account) = try await vaultWithOneAccount()
    defer { withExtendedLifetime(fixture) {} }
    let first = try await acquire(vault, account.id, at: start)
    try await vault.markRefreshSent(first)
    try await vault.releaseRefresh(first, refreshTokenMayBeSpent: true)
    // Free at once, and warned.
    let second = try await acquire(vault, account.id, at: start.addingTimeInterval(1))
    #expect(second.refreshTokenMayBeSpent)
    // A warning about other tokens than the stored ones means nothing.
    try await vault.releaseRefresh(second)
    _ = try await vault.updateTokens(of: account.id, to: .none(at: start))
    let third = try await acquire(vault, account.id, at: start.addingTimeInterval(2))
    #expect(!third.refreshTokenMayBeSpent)
  }

  @Test func aLeaseRowOfTheFirstSchemaMigratesAndStillHolds() async throws {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(
      ofSchema: 1, with: [VaultFixture.account(1)])
    // A lease taken by a build of schema 1, until 30 s after `start`.
    let until = Int64(start.addingTimeInterval(30).timeIntervalSince1970 * 1000)
    try await fixture.sqlite(
      "INSERT INTO refresh_leases (account_id, lease_token, holder, expires_at_ms)"
        + " VALUES (\(records[0].id.rawValue), x'00', 'old build', \(until))")

    let vault = try await fixture.unlocked()
    #expect(try await vault.status().schemaVersion == VaultSchema.migrations.count)
    #expect(try await vault.listAccounts().accounts == records)
    // Its holder is unknown: it holds until it expires, then is free and carries no warning.
    #expect(
      try await vault.beginRefresh(of: records[0].id, holder: "new", duration: 30, now: start)
        == .heldByOther(holder: "old build", until: start.addingTimeInterval(30)))
    let lease = try await acquire(vault, records[0].id, at: start.addingTimeInterval(30))
    #expect(!lease.refreshTokenMayBeSpent)
    await vault.close()
  }
}
