import Foundation
import TestSupport
import Testing

@testable import Vault

/// The refresh token's validity (`TokenSet.refreshValidity`, schema 4's `refresh_validity`
/// cell): stored sealed, read back exactly, and written as "not known" into every row of an
/// older vault when it is migrated.
@Suite struct RefreshValidityTests {
  let fixture: VaultFixture

  init() throws {
    fixture = try VaultFixture()
  }

  static let week = DateInterval(
    start: Date(timeIntervalSince1970: 1_750_000_000.25), duration: 604_800)

  static func weekLong(_ number: Int) -> NewAccount {
    var account = VaultFixture.account(number)
    account.tokens.refreshValidity = week
    return account
  }

  @Test func aValidityIsStoredSealedAndReadBackExactly() async throws {
    let records = try await fixture.createClosedVault(with: [
      Self.weekLong(1), VaultFixture.account(2),
    ])
    #expect(records[0].tokens.refreshValidity == Self.week)
    let vault = try await fixture.unlocked()
    let accounts = try await vault.listAccounts().accounts
    #expect(accounts.map(\.tokens.refreshValidity) == [Self.week, nil])
    // Both cells are sealed: no NULL, and neither is its plaintext.
    #expect(
      try await fixture.sqlite(
        "SELECT count(*) FROM accounts WHERE refresh_validity IS NULL OR length(refresh_validity) < 28"
      ) == "0")

    var tokens = accounts[1].tokens
    tokens.refreshValidity = Self.week
    _ = try await vault.updateTokens(of: accounts[1].id, to: tokens)
    #expect(try await vault.account(accounts[1].id).tokens.refreshValidity == Self.week)
    await vault.close()
  }

  @Test func aNullWrittenOverTheCellDamagesTheAccountInsteadOfReadingAsNotKnown() async throws {
    let records = try await fixture.createClosedVault(with: [Self.weekLong(1)])
    _ = try await fixture.sqlite("UPDATE accounts SET refresh_validity = NULL")
    let vault = try await fixture.unlocked()
    let listing = try await vault.listAccounts()
    #expect(listing.accounts.isEmpty)
    #expect(
      listing.damaged == [
        DamagedAccount(
          id: records[0].id, damage: .cellRejected(column: "refresh_validity"),
          providerID: "simkl", label: "alice-1")
      ])
    await vault.close()
  }

  @Test func aVaultOfTheSchemaBeforeGetsANotKnownSealedIntoEveryRow() async throws {
    // The schema of the release before: versions 1 to 3, without the column.
    let records = try await fixture.createClosedVault(
      ofSchema: 3, with: [VaultFixture.account(1), VaultFixture.account(2)])

    let vault = try await fixture.unlocked()
    #expect(try await vault.status().schemaVersion == Vault.supportedSchemaVersion)
    let listing = try await vault.listAccounts()
    #expect(listing.damaged.isEmpty)
    #expect(listing.accounts == records)
    #expect(
      try await fixture.sqlite("SELECT count(*) FROM accounts WHERE refresh_validity IS NULL")
        == "0")

    // And the migrated rows take one.
    var tokens = listing.accounts[0].tokens
    tokens.refreshValidity = Self.week
    _ = try await vault.updateTokens(of: records[0].id, to: tokens)
    #expect(try await vault.account(records[0].id).tokens.refreshValidity == Self.week)
    await vault.close()
  }
}
