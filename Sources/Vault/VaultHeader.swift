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
  /// The only key-derivation function authtui writes (`kdf_algorithm`).
  static let algorithm = "scrypt"
  /// The scrypt costs authtui writes: 2^10 for throwaway vaults (the demo, tests), 2^17 for
  /// every other. Anything else in a header is damage, refused before a derivation is tried:
  /// a cost of 2^20 would take a gigabyte and seconds only to fail.
  static let costs: ClosedRange<UInt64> = (1 << 10)...(1 << 17)
  /// The scrypt block size (`r`) and parallelism (`p`) authtui writes.
  static let blockSize: UInt32 = 8
  static let parallelism: UInt32 = 1
  /// `nonce ‖ ciphertext ‖ tag`: 12 + 32 + 16 bytes.
  static let wrappedDataKeyByteCount = 12 + SymmetricKey.byteCount + 16

  /// Wraps `dataKey` under a key derived from `passphrase` with a fresh salt, and returns the
  /// header with that key-encryption key (which the vault keeps to hand to an agent it starts).
  /// Slow: runs scrypt.
  static func wrapping(
    _ dataKey: SymmetricKey, vaultID: [UInt8], passphrase: Passphrase,
    parameters: Scrypt.Parameters
  ) throws(VaultError) -> (header: VaultHeader, keyEncryptionKey: SymmetricKey) {
    guard !passphrase.isEmpty else { throw .emptyPassphrase }
    if let problem = Self.problem(with: parameters) {
      throw .unexpected("cannot wrap the data key: \(problem)")
    }
    let salt = SecureRandom.bytes(count: saltByteCount)
    let associatedData = Self.associatedData(vaultID: vaultID, parameters: parameters, salt: salt)
    do {
      let keyEncryptionKey = try Self.keyEncryptionKey(passphrase, salt: salt, parameters)
      let box = try AESGCM.seal(
        dataKey.bytes, using: keyEncryptionKey, authenticating: associatedData)
      let header = VaultHeader(
        vaultID: vaultID, parameters: parameters, salt: salt, wrappedDataKey: box.combined)
      return (header, keyEncryptionKey)
    } catch {
      throw .unexpected("cannot wrap the data key: \(error)")
    }
  }

  /// The key-encryption key `passphrase` gives and the data key it unwraps, or nil when
  /// `passphrase` is not the one it was wrapped with; throws what `derivation` threw. Slow:
  /// runs `derivation` (scrypt).
  func unwrapDataKey(
    with passphrase: Passphrase, derivation: KeyDerivation = .scrypt
  ) throws -> (dataKey: SymmetricKey, keyEncryptionKey: SymmetricKey)? {
    // A derivation that fails (its memory could not be had) is not a wrong passphrase.
    let derived = try derivation.derive(passphrase.bytes, salt, parameters)
    guard let keyEncryptionKey = try? SymmetricKey(bytes: derived),
      let dataKey = unwrapDataKey(with: keyEncryptionKey)
    else { return nil }
    return (dataKey, keyEncryptionKey)
  }

  /// The data key, or nil when `keyEncryptionKey` does not unwrap it (AES-GCM authenticates
  /// it, with the vault id, parameters and salt). Fast: no derivation.
  func unwrapDataKey(with keyEncryptionKey: SymmetricKey) -> SymmetricKey? {
    let associatedData = Self.associatedData(vaultID: vaultID, parameters: parameters, salt: salt)
    guard let box = try? AESGCM.SealedBox(combined: wrappedDataKey),
      let bytes = try? AESGCM.open(box, using: keyEncryptionKey, authenticating: associatedData)
    else { return nil }
    return try? SymmetricKey(bytes: bytes)
  }

  private static func keyEncryptionKey(
    _ passphrase: Passphrase, salt: [UInt8], _ parameters: Scrypt.Parameters
  ) throws -> SymmetricKey {
    try SymmetricKey(bytes: KeyDerivation.scrypt.derive(passphrase.bytes, salt, parameters))
  }

  /// What is wrong with `parameters` for a vault header, or nil when authtui writes them.
  static func problem(with parameters: Scrypt.Parameters) -> String? {
    if !costs.contains(parameters.cost) {
      return "kdf_cost \(parameters.cost) is outside what authtui writes"
        + " (\(costs.lowerBound) to \(costs.upperBound))"
    }
    if parameters.blockSize != blockSize {
      return "kdf_block_size \(parameters.blockSize) is not the \(blockSize) authtui writes"
    }
    if parameters.parallelism != parallelism {
      return "kdf_parallelism \(parameters.parallelism) is not the \(parallelism) authtui writes"
    }
    return nil
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
  /// Reads the header row and checks it against what authtui writes: another algorithm, a cost
  /// outside `costs`, another block size or parallelism, or a salt or wrapped key of the wrong
  /// length is `damagedHeader`, found before any key derivation runs. (A salt or cost changed
  /// within those bounds is still found, as the wrapped key's associated data binds them, but
  /// only after the derivation, where it cannot be told from a wrong passphrase.)
  static func read(from connection: SQLiteConnection) throws(VaultError) -> VaultHeader {
    let path = connection.path
    let rows = try connection.query(
      """
      SELECT vault_id, kdf_algorithm, kdf_cost, kdf_block_size, kdf_parallelism, kdf_salt,
        wrapped_data_key
      FROM vault_meta WHERE singleton = 1
      """
    ) { row throws(VaultError) in
      guard let vaultID = row.blob(0), vaultID.count == vaultIDByteCount,
        let salt = row.blob(5), let wrapped = row.blob(6)
      else { throw VaultError.notAVault(path: path) }
      let algorithm = row.text(1)
      guard algorithm == Self.algorithm else {
        throw VaultError.damagedHeader(
          path: path,
          problem: "kdf_algorithm '\(algorithm)' is not the '\(Self.algorithm)' authtui writes")
      }
      let cost = row.int64(2)
      let (blockSize, parallelism) = (row.int64(3), row.int64(4))
      guard
        let parameters = try? Scrypt.Parameters(
          cost: UInt64(clamping: cost), blockSize: UInt32(clamping: blockSize),
          parallelism: UInt32(clamping: parallelism))
      else {
        throw VaultError.damagedHeader(
          path: path,
          problem: "the scrypt parameters kdf_cost \(cost), kdf_block_size \(blockSize),"
            + " kdf_parallelism \(parallelism) are not valid (RFC 7914)")
      }
      if let found = Self.problem(with: parameters) {
        throw VaultError.damagedHeader(path: path, problem: found)
      }
      guard salt.count == saltByteCount else {
        throw VaultError.damagedHeader(
          path: path, problem: "kdf_salt has \(salt.count) bytes, not \(saltByteCount)")
      }
      guard wrapped.count == wrappedDataKeyByteCount else {
        throw VaultError.damagedHeader(
          path: path,
          problem: "wrapped_data_key has \(wrapped.count) bytes, not \(wrappedDataKeyByteCount)")
      }
      return VaultHeader(
        vaultID: vaultID, parameters: parameters, salt: salt, wrappedDataKey: wrapped)
    }
    guard let header = rows.first else { throw .notAVault(path: path) }
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
