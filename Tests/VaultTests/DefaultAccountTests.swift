import Foundation
import TestSupport
import Testing
import Vault

/// The default account of each provider: one per provider, kept in the file, gone with its
/// account, and nothing readable on disk.
@Suite struct DefaultAccountTests {
  /// alice-1 and alice-2 of simkl, alice-1 of muhajir, unlocked.
  private func threeAccounts(_ fixture: VaultFixture) async throws -> (Vault, [AccountRecord]) {
    let records = try await fixture.createClosedVault(with: [
      VaultFixture.account(1), VaultFixture.account(2),
      VaultFixture.account(1, provider: "muhajir"),
    ])
    return (try await fixture.unlocked(), records)
  }

  @Test func oneDefaultPerProviderMovesWhenAnotherIsMarked() async throws {
    let fixture = try VaultFixture()
    let (vault, records) = try await threeAccounts(fixture)
    #expect(try await vault.defaultAccountID(providerID: "simkl") == nil)
    try await vault.makeDefault(records[0].id)
    try await vault.makeDefault(records[2].id)
    #expect(try await vault.listAccounts().defaults == [records[0].id, records[2].id])
    try await vault.makeDefault(records[1].id)
    #expect(try await vault.defaultAccountID(providerID: "simkl") == records[1].id)
    #expect(try await vault.defaultAccountID(providerID: "muhajir") == records[2].id)
    #expect(try await vault.listAccounts().defaults == [records[1].id, records[2].id])

    // Another process (here: the file opened again) sees the same marks.
    await vault.close()
    let reopened = try await fixture.unlocked()
    #expect(try await reopened.defaultAccountID(providerID: "simkl") == records[1].id)
  }

  @Test func clearingAndSigningOutRemoveTheMark() async throws {
    let fixture = try VaultFixture()
    let (vault, records) = try await threeAccounts(fixture)
    try await vault.makeDefault(records[0].id)
    try await vault.makeDefault(records[2].id)
    #expect(try await vault.clearDefault(providerID: "simkl"))
    #expect(try await !vault.clearDefault(providerID: "simkl"))
    #expect(try await vault.defaultAccountID(providerID: "simkl") == nil)
    try await vault.delete(records[2].id)
    #expect(try await vault.defaultAccountID(providerID: "muhajir") == nil)
    #expect(try await fixture.sqlite("SELECT COUNT(*) FROM provider_defaults") == "0")
  }

  @Test func aRenamedAccountStaysTheDefault() async throws {
    let fixture = try VaultFixture()
    let (vault, records) = try await threeAccounts(fixture)
    try await vault.makeDefault(records[0].id)
    _ = try await vault.rename(records[0].id, to: "renamed")
    #expect(try await vault.defaultAccountID(providerID: "simkl") == records[0].id)
  }

  @Test func aMarkMovedToAnotherProvidersRowIsNotTrusted() async throws {
    let fixture = try VaultFixture()
    let (vault, records) = try await threeAccounts(fixture)
    try await vault.makeDefault(records[0].id)
    await vault.close()
    // Someone with the file points simkl's mark at the muhajir account.
    try await fixture.sqlite(
      "UPDATE provider_defaults SET account_id = \(records[2].id.rawValue)")
    let reopened = try await fixture.unlocked()
    #expect(try await reopened.defaultAccountID(providerID: "simkl") == nil)
    #expect(try await reopened.defaultAccountID(providerID: "muhajir") == nil)
    #expect(try await reopened.listAccounts().defaults.isEmpty)
  }

  @Test func theFileNamesNoProviderOfAMark() async throws {
    let fixture = try VaultFixture()
    let (vault, records) = try await threeAccounts(fixture)
    try await vault.makeDefault(records[0].id)
    await vault.close()
    for (name, data) in try fixture.snapshot() {
      #expect(!data.contains("simkl"), "\(name) holds the provider id in the clear")
    }
  }

  @Test func aVaultOfTheSchemaBeforeDefaultsIsMigratedAndTakesOne() async throws {
    let fixture = try VaultFixture()
    // The schema of the release before `authtui default`: versions 1 and 2.
    let records = try await fixture.createClosedVault(
      ofSchema: 2, with: [VaultFixture.account(1), VaultFixture.account(2)])
    let vault = try await fixture.unlocked()
    #expect(try await vault.status().schemaVersion == Vault.supportedSchemaVersion)
    #expect(try await vault.listAccounts().accounts == records)
    try await vault.makeDefault(records[1].id)
    #expect(try await vault.defaultAccountID(providerID: "simkl") == records[1].id)
  }

  @Test func aDamagedAccountCannotBeMarked() async throws {
    let fixture = try VaultFixture()
    let (vault, records) = try await fixture.unlockedWithAFlippedBit(
      inCell: "label", ofAccountAt: 0, of: 2)
    await #expect(throws: VaultError.self) { try await vault.makeDefault(records[0].id) }
    #expect(try await vault.defaultAccountID(providerID: "simkl") == nil)
  }
}
