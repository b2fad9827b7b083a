import Crypto

/// Seals and opens the vault's cells with AES-256-GCM under the cell key.
///
/// Every cell gets a fresh random 96-bit nonce, and its associated data names exactly where it
/// belongs: vault id, table, row id, column and schema version. A cell copied to another row,
/// column or vault, replayed from an older schema, or altered by one bit fails to open, and the
/// failure is confined to the account whose cell it is.
struct CellSealer {
  let key: SymmetricKey
  let vaultID: [UInt8]
  let schemaVersion: Int

  /// Where a cell lives.
  struct Address {
    let table: String
    let rowID: Int64
    let column: String
  }

  func seal(_ plaintext: [UInt8], at address: Address) throws(VaultError) -> [UInt8] {
    do {
      return try AESGCM.seal(plaintext, using: key, authenticating: associatedData(address))
        .combined
    } catch {
      throw .unexpected("AES-GCM sealing failed: \(error)")
    }
  }

  /// The plaintext, or nil when the cell fails authentication anywhere.
  func open(_ sealed: [UInt8], at address: Address) -> [UInt8]? {
    guard let box = try? AESGCM.SealedBox(combined: sealed) else { return nil }
    return try? AESGCM.open(box, using: key, authenticating: associatedData(address))
  }

  /// A sealer for the same vault under another schema version (for migrations).
  func atVersion(_ version: Int) -> CellSealer {
    CellSealer(key: key, vaultID: vaultID, schemaVersion: version)
  }

  /// Length-prefixed fields, so no two addresses produce the same bytes.
  private func associatedData(_ address: Address) -> [UInt8] {
    var data = Array("authtui vault cell v1".utf8)
    for field in [vaultID, Array(address.table.utf8), Array(address.column.utf8)] {
      data += CellCodec.bigEndian(UInt32(field.count)) + field
    }
    data += CellCodec.bigEndian(UInt64(bitPattern: address.rowID))
    data += CellCodec.bigEndian(UInt32(clamping: schemaVersion))
    return data
  }
}
