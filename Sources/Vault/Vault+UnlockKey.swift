import Crypto

/// What an unlocked vault hands to the agent it starts, so that the agent opens the vault
/// without the passphrase and without running scrypt again: the key-encryption key the
/// passphrase gave (32 bytes). With the file it unwraps the data key, so it is as secret as
/// the passphrase: it travels only over an inherited socket, never in argv, the environment
/// or a file, and `description` hides it.
///
/// Why this key and not the data key: unwrapping authenticates it (AES-GCM, bound to the
/// vault id, parameters and salt), so a wrong or stale key is refused before any cell is
/// read; and a passphrase changed in between makes it stale, as the passphrase would be.
package struct VaultUnlockKey: Sendable, Equatable {
  /// The key's length on the wire.
  package static let byteCount = SymmetricKey.byteCount

  let key: SymmetricKey

  /// The raw bytes, for the socket that carries them.
  package var bytes: [UInt8] { key.bytes }

  /// A key read back from exactly `byteCount` bytes; nil for any other length.
  package init?(bytes: [UInt8]) {
    guard let key = try? SymmetricKey(bytes: bytes) else { return nil }
    self.key = key
  }

  init(_ key: SymmetricKey) { self.key = key }
}

extension VaultUnlockKey: CustomStringConvertible, CustomDebugStringConvertible {
  package var description: String { "VaultUnlockKey(hidden)" }
  package var debugDescription: String { description }
}

extension Vault {
  /// The key that opens this vault as its passphrase did, while it is unlocked (nil when
  /// locked).
  package func unlockKey() -> VaultUnlockKey? {
    keyEncryptionKey.map(VaultUnlockKey.init)
  }

  /// Unlocks with a key another process's `unlockKey` gave: as `unlock(with:)`, without the
  /// key derivation. `wrongPassphrase` when the key does not open the vault (the passphrase
  /// was changed since it was taken); nothing is written then.
  package func unlock(with key: VaultUnlockKey) throws(VaultError) {
    let connection = try openConnection()
    let header = try VaultHeader.read(from: connection)
    guard let dataKey = header.unwrapDataKey(with: key.key) else {
      throw .wrongPassphrase(path: location.fileURL.path)
    }
    try finishUnlocking(connection, header: header, dataKey: dataKey, keyEncryptionKey: key.key)
  }
}
