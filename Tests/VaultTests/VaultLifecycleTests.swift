import Crypto
import Foundation
import TestSupport
import Testing
import Vault

/// Creating, opening, unlocking and refusing vault files.
@Suite struct VaultLifecycleTests {
  /// Byte for byte but for the pages of the unlock turns, whose one row was taken for the key
  /// derivation and deleted after it (`Vault+UnlockTurns.swift`).
  @Test func wrongPassphraseThrowsATypedErrorAndLeavesTheFileByteForByteUnchanged() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1), VaultFixture.account(2)])
    let before = try await fixture.snapshotBesideTheUnlockTurns()

    let vault = try await Vault.open(at: fixture.location)
    await #expect(throws: VaultError.wrongPassphrase(path: fixture.path)) {
      try await vault.unlock(with: Passphrase("correct horse battery stable"))
    }
    #expect(await vault.isUnlocked == false)
    await #expect(throws: VaultError.locked(path: fixture.path)) {
      try await vault.listAccounts()
    }
    await vault.close()

    #expect(try await fixture.snapshotBesideTheUnlockTurns() == before)
    #expect(try await fixture.sqlite("SELECT count(*) FROM unlock_turns") == "0")
  }

  @Test func theRightPassphraseUnlocksAndLockForgetsTheKeys() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let vault = try await fixture.unlocked()
    #expect(try await vault.listAccounts().accounts.map(\.label) == ["alice-1"])
    await vault.lock()
    await #expect(throws: VaultError.locked(path: fixture.path)) {
      try await vault.account(providerID: "simkl", label: "alice-1")
    }
    await vault.close()
    await #expect(throws: VaultError.closed(path: fixture.path)) { try await vault.status() }
  }

  @Test func createsTheFile0600InAFolder0700() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [])
    let file = try FileManager.default.attributesOfItem(atPath: fixture.path)
    let folder = try FileManager.default.attributesOfItem(
      atPath: fixture.location.directoryURL.path)
    #expect((file[.posixPermissions] as? Int) == 0o600)
    #expect((folder[.posixPermissions] as? Int) == 0o700)
  }

  /// Two creations in one empty file of the user's own (`mktemp`'s) at once: one makes the
  /// vault, the other finds it made and leaves it alone, whichever comes first.
  @Test func twoCreationsInOneEmptyFileMakeOneVaultAndTheOtherLeavesItAlone() async throws {
    let fixture = try VaultFixture()
    try FileManager.default.createDirectory(
      atPath: fixture.location.directoryURL.path, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: fixture.path, contents: nil))
    let location = fixture.location
    let parameters = try VaultFixture.cheapParameters()
    let results = await withTaskGroup(of: Result<String, VaultError>.self) { group in
      for passphrase in ["first pass phrase", "second pass phrase"] {
        group.addTask {
          do throws(VaultError) {
            let vault = try await Vault.create(
              at: location, passphrase: Passphrase(passphrase), parameters: parameters)
            await vault.close()
            return .success(passphrase)
          } catch {
            return .failure(error)
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    let made = results.compactMap { try? $0.get() }
    #expect(made.count == 1)
    #expect(results.contains { $0 == .failure(.alreadyExists(path: fixture.path)) })
    let vault = try await Vault.open(at: location)
    try await vault.unlock(with: Passphrase(try #require(made.first)))
    #expect(try await vault.status().accountCount == 0)
  }

  @Test func refusesToCreateOverAnExistingFileOrWithAnEmptyPassphrase() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let before = try fixture.snapshot()
    await #expect(throws: VaultError.alreadyExists(path: fixture.path)) {
      try await Vault.create(
        at: fixture.location, passphrase: Passphrase("other"),
        parameters: VaultFixture.cheapParameters())
    }
    #expect(try fixture.snapshot() == before)

    let other = try VaultFixture()
    await #expect(throws: VaultError.emptyPassphrase) {
      try await Vault.create(
        at: other.location, passphrase: Passphrase(""), parameters: VaultFixture.cheapParameters())
    }
    #expect(!FileManager.default.fileExists(atPath: other.path))
  }

  @Test func aGroupReadableVaultIsRefusedWithTheChmodToRun() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    #expect(chmod(fixture.path, 0o644) == 0)

    await #expect(
      throws: VaultError.unsafePermissions(VaultPermissionProblem(path: fixture.path, mode: 0o644))
    ) {
      try await Vault.open(at: fixture.location)
    }
    let message = VaultError.unsafePermissions(
      VaultPermissionProblem(path: fixture.path, mode: 0o644)
    ).description
    #expect(message.contains("run `chmod 600 '\(fixture.path)'`"))
  }

  @Test func aVaultStampedWithTheNextSchemaVersionIsRefusedAndLeftUnchanged() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    // user_version is the big-endian 32-bit integer at offset 60 of the SQLite header.
    var file = try Data(contentsOf: fixture.location.fileURL)
    let next = UInt32(Vault.supportedSchemaVersion + 1)
    file.replaceSubrange(60..<64, with: withUnsafeBytes(of: next.bigEndian) { Data($0) })
    try file.write(to: fixture.location.fileURL)
    let before = try fixture.snapshot()

    let expected = VaultError.newerSchema(
      path: fixture.path, found: Vault.supportedSchemaVersion + 1,
      supported: Vault.supportedSchemaVersion)
    await #expect(throws: expected) { try await Vault.open(at: fixture.location) }
    await #expect(throws: expected) { try await Vault.inspect(at: fixture.location) }
    #expect(expected.description.contains("upgrade authtui"))
    #expect(try fixture.snapshot() == before)
  }

  @Test func anOpenVaultStopsReadingAndWritingOnceANewerAuthtuiMigratedTheFile() async throws {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let vault = try await fixture.unlocked()
    try await fixture.sqlite("PRAGMA user_version = \(Vault.supportedSchemaVersion + 1)")
    // The -shm file is SQLite's shared-memory index, which readers touch; the data is the rest.
    let before = try fixture.snapshot().filter { !$0.key.hasSuffix("-shm") }

    let expected = VaultError.newerSchema(
      path: fixture.path, found: Vault.supportedSchemaVersion + 1,
      supported: Vault.supportedSchemaVersion)
    await #expect(throws: expected) { try await vault.listAccounts() }
    await #expect(throws: expected) {
      try await vault.updateTokens(of: records[0].id, to: .none(at: Date()))
    }
    await #expect(throws: expected) { try await vault.insert(VaultFixture.account(2)) }
    #expect(try fixture.snapshot().filter { !$0.key.hasSuffix("-shm") } == before)
  }

  @Test func theExternalChangeStampMovesWhenAnotherConnectionWrites() async throws {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let watcher = try await fixture.unlocked()
    let writer = try await fixture.unlocked()
    let first = try await watcher.externalChangeStamp()
    _ = try await watcher.updateTokens(of: records[0].id, to: .none(at: Date()))
    #expect(try await watcher.externalChangeStamp() == first)
    _ = try await writer.updateTokens(of: records[0].id, to: .none(at: Date()))
    #expect(try await watcher.externalChangeStamp() != first)
  }

  @Test func aPassphraseChangedByAnotherProcessIsNoticedButNotOneOfItsOwn() async throws {
    let fixture = try VaultFixture()
    _ = try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let watcher = try await fixture.unlocked()
    let changer = try await fixture.unlocked()
    #expect(try await !watcher.passphraseChangedElsewhere())
    try await watcher.changePassphrase(to: Passphrase("mine"))
    #expect(try await !watcher.passphraseChangedElsewhere())
    try await changer.changePassphrase(to: Passphrase("theirs"))
    #expect(try await watcher.passphraseChangedElsewhere())
    // The keys still read the file; unlocking with the new passphrase clears the notice.
    _ = try await watcher.listAccounts()
    try await watcher.unlock(with: Passphrase("theirs"))
    #expect(try await !watcher.passphraseChangedElsewhere())
    await watcher.lock()
    #expect(try await !watcher.passphraseChangedElsewhere())
  }

  @Test func aFileThatIsNotAVaultIsRefused() async throws {
    let fixture = try VaultFixture()
    try FileManager.default.createDirectory(
      at: fixture.location.directoryURL, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: fixture.path, contents: Data("hello".utf8)))
    #expect(chmod(fixture.path, 0o600) == 0)
    await #expect(throws: VaultError.notAVault(path: fixture.path)) {
      try await Vault.open(at: fixture.location)
    }
    await #expect(throws: VaultError.noVault(path: fixture.path + ".missing")) {
      try await Vault.open(at: VaultLocation(path: fixture.path + ".missing"))
    }
  }

  @Test func migratesAnOlderVaultOnUnlockResealingEveryCell() async throws {
    let fixture = try VaultFixture()
    let first = Array(VaultSchema.migrations)
    let created = try await Vault.create(
      at: fixture.location, passphrase: fixture.passphrase,
      parameters: VaultFixture.cheapParameters(), migrations: first)
    let records = try await created.insert(contentsOf: [VaultFixture.account(1)])
    await created.close()

    let next = SchemaMigration(
      version: first.count + 1, sql: "CREATE TABLE later_feature (id INTEGER PRIMARY KEY)")
    let upgraded = try await Vault.open(at: fixture.location, migrations: first + [next])
    try await upgraded.unlock(with: fixture.passphrase)
    // Every cell's associated data names the schema version: reading proves they were resealed.
    #expect(try await upgraded.listAccounts().accounts == records)
    #expect(try await upgraded.status().schemaVersion == first.count + 1)
    #expect(try await fixture.sqlite("SELECT count(*) FROM later_feature") == "0")
    await upgraded.close()

    // The build that knows only the first version now refuses the file.
    await #expect(
      throws: VaultError.newerSchema(
        path: fixture.path, found: first.count + 1, supported: first.count)
    ) {
      try await Vault.open(at: fixture.location, migrations: first)
    }
  }

  @Test func statusShowsTheFactsWhileLockedAndNoSecret() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1), VaultFixture.account(2)])
    let status = try await Vault.inspect(at: fixture.location)
    #expect(status.path == fixture.path)
    #expect(status.schemaVersion == Vault.supportedSchemaVersion)
    #expect(status.kdfParameters == (try VaultFixture.cheapParameters()))
    #expect(status.saltByteCount == 32)
    #expect(status.accountCount == 2)
    #expect(status.fileMode == 0o600)
    #expect(status.permissionProblem == nil)
    #expect(status.journalMode == "wal")
    #expect(status.isUnlocked == false)

    #expect(chmod(fixture.path, 0o640) == 0)
    let unsafe = try await Vault.inspect(at: fixture.location)
    #expect(unsafe.permissionProblem == VaultPermissionProblem(path: fixture.path, mode: 0o640))
  }
}
