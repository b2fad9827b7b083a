import Crypto
import Foundation
import Testing
import Vault

/// A header with key-derivation parameters authtui never writes is named as damaged at once:
/// before any derivation runs (scrypt with N = 2^20 alone takes a gigabyte and seconds), never
/// as a wrong passphrase.
@Suite struct VaultHeaderTests {
  /// A key derivation that must not run: it records an issue if it does.
  static let forbidden = KeyDerivation { _, _, _ in
    Issue.record("a key derivation ran for a damaged header")
    return [UInt8](repeating: 0, count: 32)
  }

  @Test(arguments: [
    (
      "UPDATE vault_meta SET kdf_cost = 1048576",
      "kdf_cost 1048576 is outside what authtui writes (1024 to 131072)"
    ),
    (
      "UPDATE vault_meta SET kdf_cost = 512",
      "kdf_cost 512 is outside what authtui writes (1024 to 131072)"
    ),
    (
      "UPDATE vault_meta SET kdf_cost = 1000",
      "the scrypt parameters kdf_cost 1000, kdf_block_size 8, kdf_parallelism 1 are not valid"
        + " (RFC 7914)"
    ),
    (
      "UPDATE vault_meta SET kdf_algorithm = 'argon2'",
      "kdf_algorithm 'argon2' is not the 'scrypt' authtui writes"
    ),
    (
      "UPDATE vault_meta SET kdf_block_size = 16",
      "kdf_block_size 16 is not the 8 authtui writes"
    ),
    (
      "UPDATE vault_meta SET kdf_parallelism = 2",
      "kdf_parallelism 2 is not the 1 authtui writes"
    ),
    (
      "UPDATE vault_meta SET kdf_salt = substr(kdf_salt, 1, 31)",
      "kdf_salt has 31 bytes, not 32"
    ),
    (
      "UPDATE vault_meta SET wrapped_data_key = zeroblob(59)",
      "wrapped_data_key has 59 bytes, not 60"
    ),
  ])
  func aDamagedHeaderIsNamedAsSuchBeforeAnyKeyDerivation(damage: String, problem: String)
    async throws
  {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    try await fixture.sqlite(damage)
    let before = try fixture.snapshot()

    let vault = try await Vault.open(
      at: fixture.location, migrations: VaultSchema.migrations, keyDerivation: Self.forbidden)
    let expected = VaultError.damagedHeader(path: fixture.path, problem: problem)
    await #expect(throws: expected) { try await vault.unlock(with: fixture.passphrase) }
    #expect(
      expected.description
        == "the header of the vault \(fixture.path) is damaged: \(problem); the passphrase was"
        + " not tried and nothing was changed: restore the vault from a backup")
    await vault.close()
    #expect(try fixture.snapshot() == before)
  }

  /// The stand-in derivation is what `unlock` uses: one that derives the wrong key turns the
  /// right passphrase into a wrong one, so the test above would see a derivation had one run.
  @Test func unlockDerivesTheKeyWithTheInjectedDerivationForAnIntactHeader() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let wrongKey = KeyDerivation { _, _, _ in [UInt8](repeating: 7, count: 32) }
    let vault = try await Vault.open(
      at: fixture.location, migrations: VaultSchema.migrations, keyDerivation: wrongKey)
    await #expect(throws: VaultError.wrongPassphrase(path: fixture.path)) {
      try await vault.unlock(with: fixture.passphrase)
    }
    let real = try await Vault.open(
      at: fixture.location, migrations: VaultSchema.migrations, keyDerivation: .scrypt)
    try await real.unlock(with: fixture.passphrase)
    #expect(await real.isUnlocked)
  }
}
