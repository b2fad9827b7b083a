import Crypto

/// The one row of `vault_meta`: the vault's id and how the passphrase unwraps the data key.
///
/// passphrase → scrypt(salt, N, r, p) → key-encryption key → AES-256-GCM unwraps the data key.
/// The wrapped key's associated data binds the vault id, the KDF parameters and the salt, so the
/// header cannot be spliced from another vault or have its parameters swapped without detection.
struct VaultHeader {
  /// 16 random bytes naming this vault in every cell's associated data.
  let vaultID: [UInt8]
  /// The scrypt cost the key-encryption key is derived with.
  let parameters: Scrypt.Parameters
  /// The 32-byte random scrypt salt.
  let salt: [UInt8]
  /// `nonce ‖ ciphertext ‖ tag` of the data key under the key-encryption key.
  let wrappedDataKey: [UInt8]

  static let saltByteCount = 32
  static let vaultIDByteCount = 16

  /// Wraps `dataKey` under a key derived from `passphrase` with a fresh salt. Slow: runs scrypt.
  static func wrapping(
    _ dataKey: SymmetricKey, vaultID: [UInt8], passphrase: Passphrase,
    parameters: Scrypt.Parameters
  ) throws(VaultError) -> VaultHeader {
    guard !passphrase.isEmpty else { throw .emptyPassphrase }
    let salt = SecureRandom.bytes(count: saltByteCount)
    let associatedData = Self.associatedData(vaultID: vaultID, parameters: parameters, salt: salt)
    do {
      let keyEncryptionKey = try Self.keyEncryptionKey(passphrase, salt: salt, parameters)
      let box = try AESGCM.seal(
        dataKey.bytes, using: keyEncryptionKey, authenticating: associatedData)
      return VaultHeader(
        vaultID: vaultID, parameters: parameters, salt: salt, wrappedDataKey: box.combined)
    } catch {
      throw .unexpected("cannot wrap the data key: \(error)")
    }
  }

  /// The data key, or nil when `passphrase` is not the one it was wrapped with. Slow: runs scrypt.
  func unwrapDataKey(with passphrase: Passphrase) -> SymmetricKey? {
    let associatedData = Self.associatedData(vaultID: vaultID, parameters: parameters, salt: salt)
    guard
      let keyEncryptionKey = try? Self.keyEncryptionKey(passphrase, salt: salt, parameters),
      let box = try? AESGCM.SealedBox(combined: wrappedDataKey),
      let bytes = try? AESGCM.open(box, using: keyEncryptionKey, authenticating: associatedData)
    else { return nil }
    return try? SymmetricKey(bytes: bytes)
  }

  private static func keyEncryptionKey(
    _ passphrase: Passphrase, salt: [UInt8], _ parameters: Scrypt.Parameters
  ) throws -> SymmetricKey {
    try SymmetricKey(
      bytes: Scrypt.deriveKey(
        password: passphrase.bytes, salt: salt, parameters: parameters,
        byteCount: SymmetricKey.byteCount))
  }

  private static func associatedData(
    vaultID: [UInt8], parameters: Scrypt.Parameters, salt: [UInt8]
  ) -> [UInt8] {
    Array("authtui vault data key v1".utf8) + vaultID
      + CellCodec.bigEndian(parameters.cost)
      + CellCodec.bigEndian(parameters.blockSize)
      + CellCodec.bigEndian(parameters.parallelism) + salt
  }
}

extension VaultHeader {
  /// Reads the header row.
  static func read(from connection: SQLiteConnection) throws(VaultError) -> VaultHeader {
    let rows = try connection.query(
      """
      SELECT vault_id, kdf_cost, kdf_block_size, kdf_parallelism, kdf_salt, wrapped_data_key
      FROM vault_meta WHERE singleton = 1
      """
    ) { row throws(VaultError) in
      guard
        let vaultID = row.blob(0), vaultID.count == vaultIDByteCount,
        let parameters = try? Scrypt.Parameters(
          cost: UInt64(clamping: row.int64(1)), blockSize: UInt32(clamping: row.int64(2)),
          parallelism: UInt32(clamping: row.int64(3))),
        let salt = row.blob(4), let wrapped = row.blob(5)
      else { throw VaultError.notAVault(path: connection.path) }
      return VaultHeader(
        vaultID: vaultID, parameters: parameters, salt: salt, wrappedDataKey: wrapped)
    }
    guard let header = rows.first else { throw .notAVault(path: connection.path) }
    return header
  }

  /// Writes this header as the one row (insert or replace).
  func write(to connection: SQLiteConnection) throws(VaultError) {
    try connection.run(
      """
      INSERT OR REPLACE INTO vault_meta (singleton, vault_id, kdf_algorithm, kdf_cost,
        kdf_block_size, kdf_parallelism, kdf_salt, wrapped_data_key)
      VALUES (1, ?, 'scrypt', ?, ?, ?, ?, ?)
      """,
      [
        .blob(vaultID), .integer(Int64(clamping: parameters.cost)),
        .integer(Int64(parameters.blockSize)), .integer(Int64(parameters.parallelism)),
        .blob(salt), .blob(wrappedDataKey),
      ])
  }
}
