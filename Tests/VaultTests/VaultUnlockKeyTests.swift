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

  @Test func onlyThirtyTwoBytesMakeAKey() {
    #expect(VaultUnlockKey(bytes: Array(repeating: 1, count: 31)) == nil)
    #expect(VaultUnlockKey(bytes: Array(repeating: 1, count: 33)) == nil)
    #expect(VaultUnlockKey(bytes: Array(repeating: 1, count: 32)) != nil)
  }
}
