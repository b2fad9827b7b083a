import Foundation
import TestSupport
import Testing
import Vault

/// Someone with the file changes it: the change is caught, for the touched account alone.
@Suite struct TamperTests {
  /// A fresh vault folder for each test.
  let fixture: VaultFixture

  init() throws {
    fixture = try VaultFixture()
  }

  /// How the vault lists `record` once its `column` cell no longer opens.
  func rejected(_ column: String, of record: AccountRecord) -> DamagedAccount {
    DamagedAccount(
      id: record.id, damage: .cellRejected(column: column), providerID: record.providerID,
      label: record.label)
  }

  @Test func oneFlippedByteInOneSealedCellDamagesThatAccountAloneByID() async throws {
    let records = try await fixture.createClosedVault(
      with: (1...3).map { VaultFixture.account($0) })
    let target = records[1].id

    let cell = bytes(
      fromHex: try await fixture.sqlite(
        "SELECT hex(access_token) FROM accounts WHERE id = \(target.rawValue)"))
    var file = try Data(contentsOf: fixture.location.fileURL)
    let found = try #require(file.range(of: Data(cell)))
    #expect(file[found.upperBound...].range(of: Data(cell)) == nil, "the cell is stored once")
    let offset = found.lowerBound + cell.count / 2
    file[offset] ^= 0x01
    try file.write(to: fixture.location.fileURL)

    let vault = try await fixture.unlocked()
    let listing = try await vault.listAccounts()
    #expect(
      listing.damaged == [rejected("access_token", of: records[1])])
    #expect(listing.accounts == [records[0], records[2]])
    await #expect(throws: VaultError.accountDamaged(target, .cellRejected(column: "access_token")))
    {
      try await vault.account(target)
    }
    let message = VaultError.accountDamaged(target, .cellRejected(column: "access_token"))
      .description
    #expect(!message.contains("alice"))
    #expect(message.contains("remove this one with `authtui logout '#2' --local-only`"))
    // The damaged account can still be removed, and the rest keep working.
    try await vault.delete(target)
    #expect(try await vault.listAccounts().damaged.isEmpty)
  }

  @Test func aSealedCellCopiedFromOneAccountToAnotherIsDetected() async throws {
    let records = try await fixture.createClosedVault(
      with: (1...3).map { VaultFixture.account($0) })
    let (a, b) = (records[0].id.rawValue, records[1].id.rawValue)
    try await fixture.sqlite(
      "UPDATE accounts SET refresh_token = (SELECT refresh_token FROM accounts WHERE id = \(a)) WHERE id = \(b)"
    )

    let listing = try await fixture.unlocked().listAccounts()
    #expect(
      listing.damaged == [
        rejected("refresh_token", of: records[1])
      ])
    #expect(listing.accounts == [records[0], records[2]])
  }

  @Test func aCellMovedToAnotherColumnOfTheSameAccountIsDetected() async throws {
    let records = try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    try await fixture.sqlite("UPDATE accounts SET access_token = refresh_token")
    let listing = try await fixture.unlocked().listAccounts()
    #expect(
      listing.damaged == [
        rejected("access_token", of: records[0])
      ])
  }

  @Test func swappedNameIndexesAreDetectedOnLookupByName() async throws {
    let records = try await fixture.createClosedVault(with: [
      VaultFixture.account(1), VaultFixture.account(2),
    ])
    let (a, b) = (records[0].id.rawValue, records[1].id.rawValue)
    // Through a temporary value: the UNIQUE index refuses two equal indexes even for a moment.
    try await fixture.sqlite(
      """
      CREATE TEMP TABLE saved AS SELECT id, name_index FROM accounts;
      UPDATE accounts SET name_index = X'00' WHERE id = \(a);
      UPDATE accounts SET name_index = (SELECT name_index FROM saved WHERE id = \(a)) WHERE id = \(b);
      UPDATE accounts SET name_index = (SELECT name_index FROM saved WHERE id = \(b)) WHERE id = \(a);
      """)
    let vault = try await fixture.unlocked()
    await #expect(throws: VaultError.accountDamaged(records[1].id, .nameIndexMismatch)) {
      try await vault.account(providerID: "simkl", label: "alice-1")
    }
    #expect(try await vault.listAccounts().damaged.count == 2)
    // The sealed names still open: each row answers to its own name, not to its moved index.
    #expect(
      try await vault.storedAccount(providerID: "simkl", label: "alice-1")
        == .damaged(
          DamagedAccount(
            id: records[0].id, damage: .nameIndexMismatch, providerID: "simkl", label: "alice-1")))
  }

  @Test func aDamagedAccountIsReachedByIDAndByTheNameItsCellsStillGive() async throws {
    let (vault, records) = try await fixture.unlockedWithAFlippedBit(
      inCell: "refresh_token", ofAccountAt: 1, of: 3)
    let damaged = StoredAccount.damaged(
      rejected("refresh_token", of: records[1]))
    #expect(try await vault.storedAccount(records[1].id) == damaged)
    #expect(try await vault.storedAccount(providerID: "simkl", label: "alice-2") == damaged)
    #expect(try await vault.storedAccount(records[0].id) == .readable(records[0]))
    #expect(
      try await vault.storedAccount(providerID: "simkl", label: "alice-3") == .readable(records[2]))
    #expect(try await vault.storedAccount(providerID: "simkl", label: "nobody") == nil)
    await #expect(throws: VaultError.accountNotFound(AccountID(99))) {
      try await vault.storedAccount(AccountID(99))
    }

    // Removed by id, its name is free again.
    try await vault.delete(records[1].id)
    #expect(try await vault.storedAccount(providerID: "simkl", label: "alice-2") == nil)
    let again = try await vault.insert(VaultFixture.account(2))
    #expect(try await vault.account(providerID: "simkl", label: "alice-2") == again)
  }

  @Test func aDamagedLabelCellLeavesOnlyTheIndexToFileTheRowUnderItsName() async throws {
    let (vault, records) = try await fixture.unlockedWithAFlippedBit(
      inCell: "label", ofAccountAt: 0, of: 2)
    let unconfirmed = StoredAccount.damaged(
      DamagedAccount(
        id: records[0].id, damage: .cellRejected(column: "label"), providerID: "simkl",
        label: nil))
    #expect(try await vault.storedAccount(providerID: "simkl", label: "alice-1") == unconfirmed)
    #expect(
      try await vault.listAccounts().damaged == [
        DamagedAccount(
          id: records[0].id, damage: .cellRejected(column: "label"), providerID: "simkl")
      ])
    // The index filed it under alice-1, so a second alice-1 cannot slip in beside it.
    await #expect(throws: VaultError.duplicateAccount(providerID: "simkl", label: "alice-1")) {
      try await vault.insert(VaultFixture.account(1))
    }
  }
}

/// A long listing opens its rows in batches spread over threads (`AccountTable.storedRows`):
/// every row comes out once, in order, and damage stays with its own row whichever batch and
/// thread opened it.
@Suite struct LongListingTests {
  @Test func damageInAnyBatchOrPartIsReportedForItsRowAlone() async throws {
    let fixture = try VaultFixture()
    // Two whole batches and a part of a third.
    let count = 2 * 1024 + 300
    let records = try await fixture.createClosedVault(
      with: (1...count).map { VaultFixture.account($0) })
    // The first row, one at the end of a first half-batch, one in a second half, the last.
    let targets = [records[0], records[511], records[1024 + 700], records[count - 1]]
    let donor = records[5].id.rawValue
    for target in targets {
      try await fixture.sqlite(
        "UPDATE accounts SET refresh_token = (SELECT refresh_token FROM accounts WHERE id = "
          + "\(donor)) WHERE id = \(target.id.rawValue)")
    }

    let listing = try await fixture.unlocked().listAccounts()
    #expect(
      listing.damaged
        == targets.map {
          DamagedAccount(
            id: $0.id, damage: .cellRejected(column: "refresh_token"), providerID: $0.providerID,
            label: $0.label)
        })
    let damagedIDs = Set(targets.map(\.id))
    let expected = records.filter { !damagedIDs.contains($0.id) }
      .sorted { ($0.providerID, $0.label) < ($1.providerID, $1.label) }
    #expect(listing.accounts.count == count - targets.count)
    #expect(listing.accounts == expected)
  }
}
