import Crypto
import Foundation
import TestSupport
import Testing
import Vault

/// The key an unlocked vault hands to the agent it starts.
@Suite struct VaultUnlockKeyTests {
  @Test func theKeyOfAnUnlockedVaultOpensItInAnotherConnectionWithoutThePassphrase() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let first = try await fixture.unlocked()
    let key = try #require(await first.unlockKey())
    #expect(key.bytes.count == 32)
    #expect("\(key)" == "VaultUnlockKey(hidden)")

    let second = try await Vault.open(at: fixture.location)
    try await second.unlock(with: try #require(VaultUnlockKey(bytes: key.bytes)))
    #expect(try await second.listAccounts().accounts.map(\.label) == ["alice-1"])
    // It carries on: the second one can hand the same key on again.
    #expect(await second.unlockKey() == key)
    await first.lock()
    #expect(await first.unlockKey() == nil)
    await first.close()
    await second.close()
  }

  @Test func aVaultCreatedOrRekeyedHereHandsOverTheKeyOfItsCurrentPassphrase() async throws {
    let fixture = try VaultFixture()
    let created = try await Vault.create(
      at: fixture.location, passphrase: fixture.passphrase,
      parameters: VaultFixture.cheapParameters())
    let before = try #require(await created.unlockKey())
    try await created.changePassphrase(to: Passphrase("another one"))
    let after = try #require(await created.unlockKey())
    #expect(after != before)
    await created.close()

    // The key taken before the change no longer opens it, and nothing is written.
    let snapshot = try fixture.snapshot()
    let stale = try await Vault.open(at: fixture.location)
    await #expect(throws: VaultError.wrongPassphrase(path: fixture.path)) {
      try await stale.unlock(with: before)
    }
    #expect(await stale.isUnlocked == false)
    try await stale.unlock(with: after)
    #expect(await stale.isUnlocked)
    await stale.close()
    #expect(try fixture.snapshot().keys == snapshot.keys)
  }

  /// What names a vault's cached key (`authtui:vault:<id>`): the header's id, read while
  /// locked, kept through a passphrase change and a move, another for another vault.
  @Test func theIdentifierIsTheHeadersIdWhereverTheFileGoes() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [])
    let locked = try await Vault.open(at: fixture.location)
    let identifier = try await locked.identifier()
    #expect(identifier.count == 32)
    #expect(identifier.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(try await Vault.inspect(at: fixture.location).identifier == identifier)
    try await locked.unlock(with: fixture.passphrase)
    try await locked.changePassphrase(
      to: Passphrase("another one"), parameters: try VaultFixture.cheapParameters())
    #expect(try await locked.identifier() == identifier)
    await locked.close()

    let moved = fixture.location.directoryURL.path + "/moved.db"
    try FileManager.default.moveItem(atPath: fixture.path, toPath: moved)
    #expect(try await Vault.inspect(at: VaultLocation(path: moved)).identifier == identifier)

    let other = try await Vault.create(
      at: fixture.location, passphrase: fixture.passphrase,
      parameters: try VaultFixture.cheapParameters())
    #expect(try await other.identifier() != identifier)
    await other.close()
  }

  @Test func onlyThirtyTwoBytesMakeAKey() {
    #expect(VaultUnlockKey(bytes: Array(repeating: 1, count: 31)) == nil)
    #expect(VaultUnlockKey(bytes: Array(repeating: 1, count: 33)) == nil)
    #expect(VaultUnlockKey(bytes: Array(repeating: 1, count: 32)) != nil)
  }
}
