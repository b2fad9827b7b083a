import Crypto
import Foundation
import TestSupport
import Vault

/// Fresh vaults for tests: a temporary folder each, and cheap scrypt parameters (N = 2^10) so a
/// test unlocks in milliseconds; the real parameters are exercised by the command-line tests.
struct VaultFixture {
  let directory: TemporaryDirectory
  let location: VaultLocation
  let passphrase = Passphrase("correct horse battery staple")

  init() throws {
    directory = try TemporaryDirectory()
    location = VaultLocation(path: directory.path + "/data/authtui/vault.db")
  }

  var path: String { location.fileURL.path }

  static func cheapParameters() throws -> Scrypt.Parameters {
    try Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1)
  }

  /// Creates the vault with `accounts`, closes it (so everything is checkpointed into the main
  /// file), and returns the stored records.
  @discardableResult
  func createClosedVault(with accounts: [NewAccount]) async throws -> [AccountRecord] {
    try await createClosedVault(ofSchema: VaultSchema.migrations.count, with: accounts)
  }

  /// Creates the vault as a build of schema `version` would (its first `version` migrations)
  /// with `accounts`, and closes it: what a migration starts from.
  func createClosedVault(ofSchema version: Int, with accounts: [NewAccount]) async throws
    -> [AccountRecord]
  {
    let vault = try await Vault.create(
      at: location, passphrase: passphrase, parameters: Self.cheapParameters(),
      migrations: Array(VaultSchema.migrations.prefix(version)))
    let records = try await vault.insert(contentsOf: accounts)
    await vault.close()
    return records
  }

  /// Opens and unlocks the vault.
  func unlocked(with passphrase: Passphrase? = nil) async throws -> Vault {
    let vault = try await Vault.open(at: location)
    try await vault.unlock(with: passphrase ?? self.passphrase)
    return vault
  }

  /// Creates the vault with alice-1 … alice-`count`, closes it, flips one bit of the sealed
  /// `column` cell of the account at `index` (`VaultFileEditor.flipBit`) and unlocks the vault
  /// again; returns it with the records as they were stored.
  func unlockedWithAFlippedBit(inCell column: String, ofAccountAt index: Int, of count: Int)
    async throws -> (vault: Vault, records: [AccountRecord])
  {
    let records = try await createClosedVault(with: (1...count).map { Self.account($0) })
    try await VaultFileEditor.flipBit(
      inCell: column, ofAccount: records[index].id.rawValue, vaultAt: path)
    return (try await unlocked(), records)
  }

  /// Every file of the vault's folder and its bytes.
  func snapshot() throws -> [String: Data] {
    let folder = location.directoryURL.path
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return files
  }

  /// `snapshot` with the pages of `unlock_turns` blanked out in the vault file
  /// (`VaultFileEditor.bytesBesideTheUnlockTurns`).
  func snapshotBesideTheUnlockTurns() async throws -> [String: Data] {
    var files = try snapshot()
    files[location.fileURL.lastPathComponent] = try await VaultFileEditor.bytesBesideTheUnlockTurns(
      path)
    return files
  }

  /// Runs SQL on the vault file with the `sqlite3` shell, as an attacker with the file would.
  @discardableResult
  func sqlite(_ sql: String) async throws -> String {
    try await VaultFileEditor.sqlite(path, sql)
  }

  /// An account with distinctive names and tokens, so a test can look for them in the file.
  static func account(_ number: Int, provider: String = "simkl") -> NewAccount {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    return NewAccount(
      providerID: provider, label: "alice-\(number)", subject: "subject-\(number)-zq",
      identity: ["username": "user-\(number)-zq", "email": "alice\(number)@example.org"],
      tokens: TokenSet(
        accessToken: "at-secret-\(number)-qwertyuiop",
        refreshToken: "rt-secret-\(number)-asdfghjkl",
        idToken: "eyJid-\(number)-zxcvbnm", tokenType: "Bearer",
        scopes: ["scope-read-\(number)", "scope-write"], expiresAt: now.addingTimeInterval(3600),
        obtainedAt: now))
  }
}

extension Data {
  /// True when `text`'s UTF-8 bytes occur anywhere in this data.
  func contains(_ text: String) -> Bool {
    range(of: Data(text.utf8)) != nil
  }
}

/// Bytes from a hex string (the `sqlite3` shell's `hex()` output).
func bytes(fromHex hex: String) -> [UInt8] {
  var result: [UInt8] = []
  var index = hex.startIndex
  while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index != next {
    if let byte = UInt8(hex[index..<next], radix: 16) { result.append(byte) }
    index = next
  }
  return result
}
