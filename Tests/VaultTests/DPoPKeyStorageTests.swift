import Crypto
import Foundation
import TestSupport
import Testing

@testable import Vault

/// Each account's DPoP key pair (schema 7's `dpop_keys`): sealed like a token, read back as the
/// same key, never in the file in the clear, bound to its account's row, and gone with the
/// account or its tokens; its thumbprint (schema 8) read with the account, without the key.
@Suite struct DPoPKeyStorageTests {
  let fixture: VaultFixture

  init() throws {
    fixture = try VaultFixture()
  }

  static func dpopAccount(_ number: Int) -> NewAccount {
    var account = VaultFixture.account(number)
    account.tokens.tokenType = "DPoP"
    return account
  }

  /// The vault with account 1 holding `key` and account 2 holding none, closed.
  func vaultWithOneKey(_ key: P256SigningKey) async throws -> [AccountRecord] {
    let vault = try await Vault.create(
      at: fixture.location, passphrase: fixture.passphrase,
      parameters: VaultFixture.cheapParameters())
    let first = try await vault.insert(Self.dpopAccount(1), dpopKey: key)
    let second = try await vault.insert(VaultFixture.account(2))
    await vault.close()
    return [first, second]
  }

  @Test func aKeyIsStoredSealedAndReadBackAsTheSameKey() async throws {
    let key = try P256SigningKey.generate()
    let records = try await vaultWithOneKey(key)
    let vault = try await fixture.unlocked()
    let stored = try #require(try await vault.dpopKey(of: records[0].id))
    #expect(stored.rawRepresentation == key.rawRepresentation)
    #expect(stored.thumbprint == key.thumbprint)
    #expect(try await vault.dpopKey(of: records[1].id) == nil)
    // The token type stays as the sign-in stored it.
    #expect(try await vault.account(records[0].id).tokens.tokenType == "DPoP")
    await vault.close()

    // Neither the private scalar nor its base64url form is anywhere in the vault's files.
    let raw = Data(key.rawRepresentation)
    for (name, bytes) in try fixture.snapshot() {
      #expect(bytes.range(of: raw) == nil, "the private key is in \(name) in the clear")
      #expect(!bytes.contains(Base64URL.encode(key.rawRepresentation)), "in \(name)")
    }
    #expect(try await fixture.sqlite("SELECT count(*) FROM dpop_keys") == "1")
  }

  @Test func aKeyCellMovedToAnotherAccountDoesNotOpenThere() async throws {
    let records = try await vaultWithOneKey(try P256SigningKey.generate())
    try await fixture.sqlite("UPDATE dpop_keys SET id = \(records[1].id.rawValue)")
    let vault = try await fixture.unlocked()
    await #expect(
      throws: VaultError.accountDamaged(
        records[1].id, .cellRejected(column: "dpop_keys.private_key"))
    ) {
      try await vault.dpopKey(of: records[1].id)
    }
    #expect(try await vault.dpopKey(of: records[0].id) == nil)
    // The listing never opens key cells: both accounts still list, and the thumbprint moved
    // with the key does not open for the other account either.
    let listed = try await vault.listAccounts().accounts
    #expect(listed.count == 2)
    #expect(listed.allSatisfy { $0.dpopThumbprint == nil })
    await vault.close()
  }

  @Test func theKeyGoesWithTheAccountItsTokensOrANewSignIn() async throws {
    let records = try await vaultWithOneKey(try P256SigningKey.generate())
    let vault = try await fixture.unlocked()
    let id = records[0].id

    // A new sign-in replaces the key with its own, or drops it when it made none.
    let second = try P256SigningKey.generate()
    _ = try await vault.updateTokens(of: id, to: records[0].tokens, dpopKey: second)
    #expect(try await vault.dpopKey(of: id)?.thumbprint == second.thumbprint)
    _ = try await vault.updateTokens(of: id, to: records[0].tokens)
    #expect(try await vault.dpopKey(of: id) == nil)

    // Tokens cleared ("sign-in needed"): the key goes with them.
    _ = try await vault.updateTokens(of: id, to: records[0].tokens, dpopKey: second)
    _ = try await vault.markSignInNeeded(id)
    #expect(try await vault.dpopKey(of: id) == nil)

    // Deleted with the account.
    _ = try await vault.updateTokens(of: id, to: records[0].tokens, dpopKey: second)
    try await vault.delete(id)
    #expect(try await fixture.sqlite("SELECT count(*) FROM dpop_keys") == "0")
    await #expect(throws: VaultError.accountNotFound(id)) { try await vault.dpopKey(of: id) }
    await vault.close()
  }

  @Test func aListingCarriesTheKeysThumbprintWithoutOpeningThePrivateKey() async throws {
    let key = try P256SigningKey.generate()
    let records = try await vaultWithOneKey(key)
    #expect(records[0].dpopThumbprint == key.thumbprint)
    #expect(records[1].dpopThumbprint == nil)
    // The private key's cell no longer opens: the listing still shows the thumbprint, since
    // it reads the thumbprint's own cell; the key is damaged where it is used.
    try await fixture.sqlite("UPDATE dpop_keys SET private_key = X'00'")
    let vault = try await fixture.unlocked()
    let listing = try await vault.listAccounts()
    #expect(listing.damaged.isEmpty)
    #expect(listing.accounts.map(\.dpopThumbprint) == [key.thumbprint, nil])
    #expect(try await vault.account(records[0].id).dpopThumbprint == key.thumbprint)
    await #expect(
      throws: VaultError.accountDamaged(
        records[0].id, .cellRejected(column: "dpop_keys.private_key"))
    ) {
      try await vault.dpopKey(of: records[0].id)
    }
    // Neither the thumbprint nor anything else of the key is in the file in the clear.
    await vault.close()
    for (name, bytes) in try fixture.snapshot() {
      #expect(!bytes.contains(key.thumbprint), "the thumbprint is in \(name) in the clear")
    }
  }

  @Test func everyWriteReturnsAndEveryReloadReadsTheThumbprintOfTheKeyHeld() async throws {
    let key = try P256SigningKey.generate()
    let records = try await vaultWithOneKey(key)
    let vault = try await fixture.unlocked()
    let id = records[0].id
    let before = try await vault.listAccounts()
    let second = try P256SigningKey.generate()
    let signedIn = try await vault.updateTokens(of: id, to: records[0].tokens, dpopKey: second)
    #expect(signedIn.dpopThumbprint == second.thumbprint)
    let reloaded = try await vault.listAccounts(updating: before)
    #expect(reloaded.changed.map(\.dpopThumbprint) == [second.thumbprint])
    #expect(reloaded.listing == (try await vault.listAccounts()))
    #expect(try await vault.rename(id, to: "renamed").dpopThumbprint == second.thumbprint)
    #expect(try await vault.markSignInNeeded(id).dpopThumbprint == nil)
    #expect(try await vault.account(id).dpopThumbprint == nil)
    let bearer = try await vault.updateTokens(of: id, to: records[0].tokens)
    #expect(bearer.dpopThumbprint == nil)
    await vault.close()
  }

  @Test func aVaultOfSchemaSevenGetsTheThumbprintsOfItsKeys() async throws {
    let key = try P256SigningKey.generate()
    let old = try await Vault.create(
      at: fixture.location, passphrase: fixture.passphrase,
      parameters: VaultFixture.cheapParameters(),
      migrations: Array(VaultSchema.migrations.prefix(7)))
    let record = try await old.insert(Self.dpopAccount(1), dpopKey: key)
    _ = try await old.insert(VaultFixture.account(2))
    #expect(record.dpopThumbprint == nil)
    await old.close()

    let vault = try await fixture.unlocked()
    #expect(try await vault.status().schemaVersion == Vault.supportedSchemaVersion)
    let listing = try await vault.listAccounts()
    #expect(listing.damaged.isEmpty)
    #expect(listing.accounts.map(\.dpopThumbprint) == [key.thumbprint, nil])
    #expect(try await vault.dpopKey(of: record.id)?.thumbprint == key.thumbprint)
    await vault.close()
    #expect(
      try await fixture.sqlite("SELECT count(*) FROM dpop_keys WHERE thumbprint IS NOT NULL")
        == "1")
  }

  @Test func aRefreshKeepsTheKey() async throws {
    let key = try P256SigningKey.generate()
    let records = try await vaultWithOneKey(key)
    let vault = try await fixture.unlocked()
    let now = Date()
    guard
      case .acquired(let lease, _) = try await vault.beginRefresh(
        of: records[0].id, holder: "test", duration: 30, now: now)
    else {
      Issue.record("no lease")
      return
    }
    var tokens = records[0].tokens
    tokens.accessToken = "at-refreshed"
    let refreshed = try await vault.completeRefresh(lease, tokens: tokens)
    #expect(refreshed.dpopThumbprint == key.thumbprint)
    #expect(try await vault.dpopKey(of: records[0].id)?.thumbprint == key.thumbprint)
    await vault.close()
  }

  @Test func aVaultOfSchemaSixMigratesAndThenHoldsKeys() async throws {
    // The schema of the release before: versions 1 to 6, without `dpop_keys`.
    let records = try await fixture.createClosedVault(
      ofSchema: 6, with: [VaultFixture.account(1), VaultFixture.account(2)])
    let vault = try await fixture.unlocked()
    #expect(try await vault.status().schemaVersion == Vault.supportedSchemaVersion)
    let listing = try await vault.listAccounts()
    #expect(listing.damaged.isEmpty)
    #expect(listing.accounts == records)
    #expect(try await vault.dpopKey(of: records[0].id) == nil)

    let key = try P256SigningKey.generate()
    _ = try await vault.updateTokens(of: records[0].id, to: records[0].tokens, dpopKey: key)
    await vault.close()

    // Read back after reopening: the key's cell is sealed under the new schema.
    let reopened = try await fixture.unlocked()
    #expect(try await reopened.dpopKey(of: records[0].id)?.thumbprint == key.thumbprint)
    await reopened.close()
  }

  @Test func keyCellsAreResealedByTheNextMigration() async throws {
    let key = try P256SigningKey.generate()
    let records = try await vaultWithOneKey(key)
    let next = SchemaMigration(
      version: VaultSchema.migrations.count + 1, sql: "CREATE TABLE later (x INTEGER) STRICT;")
    let upgraded = try await Vault.open(
      at: fixture.location, migrations: VaultSchema.migrations + [next])
    try await upgraded.unlock(with: fixture.passphrase)
    #expect(try await upgraded.dpopKey(of: records[0].id)?.thumbprint == key.thumbprint)
    #expect(try await upgraded.account(records[0].id).dpopThumbprint == key.thumbprint)
    await upgraded.close()
  }
}
