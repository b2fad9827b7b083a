import Foundation
import TestSupport
import Testing
import Vault

/// Someone with the file changes it: the change is caught, for the touched account alone.
@Suite struct TamperTests {
  @Test func oneFlippedByteInOneSealedCellDamagesThatAccountAloneByID() async throws {
    let fixture = try VaultFixture()
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
      listing.damaged == [DamagedAccount(id: target, damage: .cellRejected(column: "access_token"))]
    )
    #expect(listing.accounts == [records[0], records[2]])
    await #expect(throws: VaultError.accountDamaged(target, .cellRejected(column: "access_token")))
    {
      try await vault.account(target)
    }
    let message = VaultError.accountDamaged(target, .cellRejected(column: "access_token"))
      .description
    #expect(!message.contains("alice"))
    #expect(message.contains("remove this one and sign in again"))
    // The damaged account can still be removed, and the rest keep working.
    try await vault.delete(target)
    #expect(try await vault.listAccounts().damaged.isEmpty)
  }

  @Test func aSealedCellCopiedFromOneAccountToAnotherIsDetected() async throws {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(
      with: (1...3).map { VaultFixture.account($0) })
    let (a, b) = (records[0].id.rawValue, records[1].id.rawValue)
    try await fixture.sqlite(
      "UPDATE accounts SET refresh_token = (SELECT refresh_token FROM accounts WHERE id = \(a)) WHERE id = \(b)"
    )

    let listing = try await fixture.unlocked().listAccounts()
    #expect(
      listing.damaged == [
        DamagedAccount(id: records[1].id, damage: .cellRejected(column: "refresh_token"))
      ])
    #expect(listing.accounts == [records[0], records[2]])
  }

  @Test func aCellMovedToAnotherColumnOfTheSameAccountIsDetected() async throws {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    try await fixture.sqlite("UPDATE accounts SET access_token = refresh_token")
    let listing = try await fixture.unlocked().listAccounts()
    #expect(
      listing.damaged == [
        DamagedAccount(id: records[0].id, damage: .cellRejected(column: "access_token"))
      ])
  }

  @Test func swappedNameIndexesAreDetectedOnLookupByName() async throws {
    let fixture = try VaultFixture()
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
  }
}
