import Foundation
import TestSupport
import Testing
import Vault

/// The refresh lease inside one process; CrossProcessTests races real processes for it.
@Suite struct RefreshLeaseTests {
  let start = Date(timeIntervalSince1970: 1_750_000_000)

  func vaultWithOneAccount() async throws -> (VaultFixture, Vault, AccountRecord) {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    return (fixture, try await fixture.unlocked(), records[0])
  }

  func acquire(
    _ vault: Vault, _ id: AccountID, holder: String = "test", at now: Date
  ) async throws -> RefreshLease {
    let outcome = try await vault.beginRefresh(of: id, holder: holder, duration: 30, now: now)
    guard case .acquired(let lease, _) = outcome else {
      Issue.record("expected the lease, got \(outcome)")
      throw VaultError.leaseLost(id)
    }
    return lease
  }

  @Test func theFirstCallerGetsTheLeaseWithTheCurrentTokensAndTheNextWaits() async throws {
    let (_, vault, account) = try await vaultWithOneAccount()
    let outcome = try await vault.beginRefresh(
      of: account.id, holder: "one", duration: 30, now: start)
    guard case .acquired(let lease, let current) = outcome else {
      Issue.record("expected the lease, got \(outcome)")
      return
    }
    #expect(current == account)
    #expect(lease.expiresAt == start.addingTimeInterval(30))
    #expect(lease.holder == "one")
    let second = try await vault.beginRefresh(
      of: account.id, holder: "two", duration: 30, now: start.addingTimeInterval(29))
    #expect(second == .heldByOther(holder: "one", until: start.addingTimeInterval(30)))
  }

  @Test func completingWritesBothTokensAndReleasesTheLeaseTogether() async throws {
    let (_, vault, account) = try await vaultWithOneAccount()
    let lease = try await acquire(vault, account.id, at: start)
    let rotated = TokenSet(
      accessToken: "at-2", refreshToken: "rt-2", expiresAt: start.addingTimeInterval(3600),
      obtainedAt: start)
    let written = try await vault.completeRefresh(lease, tokens: rotated)
    #expect(written.tokens == rotated)
    #expect(written.version == account.version + 1)
    #expect(try await vault.account(account.id).tokens == rotated)
    // Released: the next caller gets it at once, long before the old lease would have expired.
    _ = try await acquire(vault, account.id, at: start.addingTimeInterval(1))
    // A lease is used once.
    await #expect(throws: VaultError.leaseLost(account.id)) {
      try await vault.completeRefresh(lease, tokens: rotated)
    }
  }

  @Test func anExpiredLeaseIsTakenOverAndTheOldHolderCanNoLongerWrite() async throws {
    let (_, vault, account) = try await vaultWithOneAccount()
    let crashed = try await acquire(vault, account.id, holder: "crashed", at: start)
    let late = start.addingTimeInterval(30)
    let takeover = try await acquire(vault, account.id, holder: "next", at: late)
    #expect(takeover.holder == "next")
    await #expect(throws: VaultError.leaseLost(account.id)) {
      try await vault.completeRefresh(crashed, tokens: .none(at: late))
    }
    #expect(try await vault.account(account.id) == account)
    _ = try await vault.completeRefresh(takeover, tokens: .none(at: late))
  }

  @Test func releasingLeavesTheTokensUntouched() async throws {
    let (_, vault, account) = try await vaultWithOneAccount()
    let lease = try await acquire(vault, account.id, at: start)
    try await vault.releaseRefresh(lease)
    try await vault.releaseRefresh(lease)
    #expect(try await vault.account(account.id) == account)
    _ = try await acquire(vault, account.id, at: start.addingTimeInterval(1))
  }

  @Test func invalidGrantMarksSignInNeededAndReleasesTheLease() async throws {
    let (_, vault, account) = try await vaultWithOneAccount()
    let lease = try await acquire(vault, account.id, at: start)
    let marked = try await vault.markSignInNeeded(lease, at: start)
    #expect(marked.needsSignIn)
    #expect(marked.tokens.refreshToken == nil && marked.tokens.accessToken == nil)
    let again = try await vault.beginRefresh(
      of: account.id, holder: "next", duration: 30, now: start)
    guard case .acquired(_, let current) = again else {
      Issue.record("expected the lease, got \(again)")
      return
    }
    #expect(current.needsSignIn)
  }

  @Test func deletingTheAccountLosesTheLease() async throws {
    let (_, vault, account) = try await vaultWithOneAccount()
    let lease = try await acquire(vault, account.id, at: start)
    try await vault.delete(account.id)
    await #expect(throws: VaultError.leaseLost(account.id)) {
      try await vault.completeRefresh(lease, tokens: .none(at: start))
    }
    await #expect(throws: VaultError.accountNotFound(account.id)) {
      try await vault.beginRefresh(of: account.id, holder: "x", duration: 30, now: start)
    }
  }
}
