import Crypto

extension Vault {
  /// Rewraps the data key under `newPassphrase`, with a fresh salt and `parameters` (the stored
  /// ones when nil). Nothing else changes: no cell is re-encrypted.
  ///
  /// scrypt runs first, outside any transaction; the header is then replaced in one `BEGIN
  /// IMMEDIATE` transaction, so until it commits the old passphrase opens the vault, and after it
  /// commits only the new one does. Needs the vault unlocked.
  public func changePassphrase(
    to newPassphrase: Passphrase, parameters: Scrypt.Parameters? = nil
  ) throws(VaultError) {
    try changePassphrase(to: newPassphrase, parameters: parameters, beforeCommit: {})
  }

  /// `changePassphrase` with a hook run inside the transaction just before it commits (tests
  /// that interrupt a passphrase change).
  package func changePassphrase(
    to newPassphrase: Passphrase, parameters: Scrypt.Parameters?, beforeCommit: () -> Void
  ) throws(VaultError) {
    guard let keys else { throw .locked(path: location.fileURL.path) }
    let current = try VaultHeader.read(from: try openConnection())
    let (header, keyEncryptionKey) = try VaultHeader.wrapping(
      keys.dataKey, vaultID: current.vaultID, passphrase: newPassphrase,
      parameters: parameters ?? current.parameters)
    try writeTransaction { table throws(VaultError) in
      try header.write(to: table.connection)
      beforeCommit()
    }
    unlockedSalt = header.salt
    self.keyEncryptionKey = keyEncryptionKey
  }
}
