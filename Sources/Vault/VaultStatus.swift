import Crypto
import Foundation

/// The non-secret facts of a vault, for `authtui vault status`.
public struct VaultStatus: Sendable, Equatable {
  /// The vault file.
  public let path: String
  /// The vault's id, as `Vault.identifier()` gives it.
  public let identifier: String
  /// The schema version of the file.
  public let schemaVersion: Int
  /// The newest schema version this build understands.
  public let supportedSchemaVersion: Int
  /// The stored scrypt parameters every unlock uses.
  public let kdfParameters: Scrypt.Parameters
  /// The length of the stored scrypt salt, in bytes.
  public let saltByteCount: Int
  /// How many accounts the vault holds (damaged ones included).
  public let accountCount: Int
  /// The file's permission bits.
  public let fileMode: UInt32
  /// Why the permissions are unsafe, or nil when only the owner can read and write the file.
  public let permissionProblem: VaultPermissionProblem?
  /// SQLite's journal mode (`wal`).
  public let journalMode: String
  /// Whether this vault value holds the keys.
  public let isUnlocked: Bool
}
