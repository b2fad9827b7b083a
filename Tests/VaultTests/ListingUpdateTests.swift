import Foundation
import TestSupport
import Testing
import Vault

/// A reload after another process wrote the vault (`listAccounts(updating:)`): whatever the
/// other process did is seen, the listing is the one a full read gives, and only the rows
/// written since are read.
@Suite struct ListingUpdateTests {
  let fixture: VaultFixture
  /// This process's vault, unlocked, with alice-1 … alice-5 of simkl.
  let vault: Vault
  let records: [AccountRecord]
  /// What this process listed before the other one wrote.
  let before: AccountListing

  init() async throws {
    fixture = try VaultFixture()
    records = try await fixture.createClosedVault(with: (1...5).map { VaultFixture.account($0) })
    vault = try await fixture.unlocked()
    before = try await vault.listAccounts()
  }

  /// Runs `body` on the vault through a connection of its own, as another process would.
  private func elsewhere(_ body: (Vault) async throws -> Void) async throws {
    let other = try await fixture.unlocked()
    try await body(other)
    await other.close()
  }

  /// The update from `before`, checked against a full read of the vault.
  private func update() async throws -> AccountListingUpdate {
    let update = try await vault.listAccounts(updating: before)
    #expect(update.listing == (try await vault.listAccounts()))
    return update
  }

  @Test func nothingWrittenReadsNoRow() async throws {
    let update = try await update()
    #expect(update.listing == before)
    #expect(update.isEmpty)
    #expect(update.rowsRead == 0)
    await vault.close()
  }

  @Test func newTokensWrittenElsewhereAreReadAndNothingElse() async throws {
    let tokens = TokenSet(
      accessToken: "written-elsewhere", refreshToken: "rt-elsewhere", obtainedAt: Date())
    try await elsewhere { other in _ = try await other.updateTokens(of: records[2].id, to: tokens) }
    let update = try await update()
    #expect(update.changed.map(\.id) == [records[2].id])
    #expect(update.changed.first?.tokens == tokens)
    #expect(update.changed.first?.version == records[2].version + 1)
    #expect(update.removed.isEmpty)
    #expect(update.rowsRead == 1)
    await vault.close()
  }

  @Test func anAccountAddedElsewhereTakesItsPlace() async throws {
    try await elsewhere { other in
      _ = try await other.insert(VaultFixture.account(3, provider: "muhajir"))
      _ = try await other.insert(VaultFixture.account(0))
    }
    let update = try await update()
    #expect(update.changed.map(\.name) == ["muhajir/alice-3", "simkl/alice-0"])
    #expect(
      update.listing.accounts.map(\.name) == [
        "muhajir/alice-3", "simkl/alice-0", "simkl/alice-1", "simkl/alice-2", "simkl/alice-3",
        "simkl/alice-4", "simkl/alice-5",
      ])
    #expect(update.rowsRead == 2)
    await vault.close()
  }

  @Test func manyAccountsAddedElsewhereAreAllInTheirPlaces() async throws {
    try await elsewhere { other in
      _ = try await other.insert(
        contentsOf: (6...75).map { VaultFixture.account($0, provider: $0 % 2 == 0 ? "a" : "z") })
    }
    let update = try await update()
    #expect(update.changed.count == 70)
    #expect(update.listing.accounts.count == 75)
    #expect(update.rowsRead == 70)
    await vault.close()
  }

  @Test func anAccountRemovedElsewhereIsGoneWithoutAnyRowRead() async throws {
    try await elsewhere { other in try await other.delete(records[1].id) }
    let update = try await update()
    #expect(update.removed == [records[1].id])
    #expect(update.changed.isEmpty)
    #expect(update.rowsRead == 0)
    await vault.close()
  }

  @Test func anAccountRenamedElsewhereMovesToItsNewPlace() async throws {
    try await elsewhere { other in _ = try await other.rename(records[0].id, to: "zoe") }
    let update = try await update()
    #expect(update.changed.map(\.name) == ["simkl/zoe"])
    #expect(update.removed.isEmpty)
    #expect(
      update.listing.accounts.map(\.label) == ["alice-2", "alice-3", "alice-4", "alice-5", "zoe"])
    #expect(update.rowsRead == 1)
    await vault.close()
  }

  @Test func aDefaultMarkedElsewhereIsSeenWithoutAnyRowRead() async throws {
    try await elsewhere { other in try await other.makeDefault(records[3].id) }
    let update = try await update()
    #expect(update.listing.defaults == [records[3].id])
    #expect(update.rowsRead == 0)
    await vault.close()
  }

  @Test func aDamagedRowIsReadAgainUntilItIsGone() async throws {
    // Damaged by a write that is no authtui's: the version moves, the cell does not open.
    try await VaultFileEditor.flipBit(
      inCell: "access_token", ofAccount: records[4].id.rawValue, vaultAt: fixture.path)
    try await fixture.sqlite(
      "UPDATE accounts SET version = version + 1 WHERE id = \(records[4].id.rawValue)")
    let damaged = try await update()
    #expect(damaged.removed == [records[4].id])
    #expect(damaged.listing.damaged.map(\.id) == [records[4].id])
    #expect(damaged.rowsRead == 1)

    // Kept as damaged, it is read again each time: it cannot be known to be the same.
    let again = try await vault.listAccounts(updating: damaged.listing)
    #expect(again.listing == damaged.listing)
    #expect(again.isEmpty)
    #expect(again.rowsRead == 1)

    try await elsewhere { other in try await other.delete(records[4].id) }
    let removed = try await vault.listAccounts(updating: again.listing)
    #expect(removed.listing.damaged.isEmpty)
    #expect(removed.rowsRead == 0)
    await vault.close()
  }

  @Test func theVersionsAreReadFromTheirIndexNotFromTheRows() async throws {
    let plan = try await fixture.sqlite("EXPLAIN QUERY PLAN SELECT id, version FROM accounts")
    #expect(plan.contains("COVERING INDEX accounts_versions"), "\(plan)")
    await vault.close()
  }

  @Test func aVaultOfTheSchemaBeforeGetsTheIndexOfVersions() async throws {
    let older = try VaultFixture()
    let stored = try await older.createClosedVault(
      ofSchema: 5, with: [VaultFixture.account(1), VaultFixture.account(2)])
    #expect(
      try await older.sqlite("SELECT count(*) FROM sqlite_master WHERE name = 'accounts_versions'")
        == "0")
    let migrated = try await older.unlocked()
    #expect(try await migrated.status().schemaVersion == Vault.supportedSchemaVersion)
    #expect(
      try await older.sqlite("SELECT count(*) FROM sqlite_master WHERE name = 'accounts_versions'")
        == "1")
    let listing = try await migrated.listAccounts()
    #expect(listing.accounts == stored)
    let update = try await migrated.listAccounts(updating: listing)
    #expect(update.listing == listing)
    #expect(update.rowsRead == 0)
    await migrated.close()
    await vault.close()
  }
}
