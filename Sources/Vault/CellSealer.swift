import Crypto

/// Seals and opens the vault's cells with AES-256-GCM under the cell key.
///
/// Every cell gets a fresh random 96-bit nonce, and its associated data names exactly where it
/// belongs: vault id, table, row id, column and schema version. A cell copied to another row,
/// column or vault, replayed from an older schema, or altered by one bit fails to open, and the
/// failure is confined to the account whose cell it is.
///
/// Listing thousands of accounts opens a dozen cells each, so the per-cell work is kept to the
/// cipher itself: the key is set up once (`AESGCM.Cipher`), and the part of each cell's
/// associated data that does not depend on the row is built once per column.
struct CellSealer {
  let key: SymmetricKey
  let vaultID: [UInt8]
  let schemaVersion: Int
  /// Holds OpenSSL state: used only inside the `Vault` actor, like the connection.
  private let cipher: AESGCM.Cipher
  /// The associated data before the row id, per sealed column of this schema.
  private let prefixes: [Place: [UInt8]]
  /// The same for `accounts`, by `AccountColumn.ordinal`: what a listing opens, a dozen cells
  /// a row, without hashing the table's and the column's names for each.
  private let accountPrefixes: [[UInt8]]
  private let scratch = Scratch()

  /// Where a cell lives.
  struct Address {
    let table: String
    let rowID: Int64
    let column: String
  }

  /// A column of a table, whatever the row.
  private struct Place: Hashable {
    let table: String
    let column: String
  }

  init(key: SymmetricKey, vaultID: [UInt8], schemaVersion: Int) {
    self.init(
      key: key, vaultID: vaultID, schemaVersion: schemaVersion, cipher: AESGCM.Cipher(key: key))
  }

  private init(key: SymmetricKey, vaultID: [UInt8], schemaVersion: Int, cipher: AESGCM.Cipher) {
    self.key = key
    self.vaultID = vaultID
    self.schemaVersion = schemaVersion
    self.cipher = cipher
    var prefixes: [Place: [UInt8]] = [:]
    for (table, columns) in VaultSchema.sealedColumns(atSchema: schemaVersion) {
      for column in columns {
        prefixes[Place(table: table, column: column)] = Self.prefix(
          vaultID: vaultID, table: table, column: column)
      }
    }
    self.prefixes = prefixes
    accountPrefixes = AccountColumn.allCases.map { column in
      Self.prefix(vaultID: vaultID, table: AccountTable.name, column: column.rawValue)
    }
  }

  func seal(_ plaintext: [UInt8], at address: Address) throws(VaultError) -> [UInt8] {
    do {
      return try cipher.seal(plaintext, authenticating: associatedData(address)).combined
    } catch {
      throw .unexpected("AES-GCM sealing failed: \(error)")
    }
  }

  /// The plaintext, or nil when the cell fails authentication anywhere.
  func open(_ sealed: [UInt8], at address: Address) -> [UInt8]? {
    try? cipher.open(combined: sealed, authenticating: associatedData(address))
  }

  /// `read` of the plaintext of the cell of `column` in row `rowID` of `accounts`, or nil
  /// when the cell fails authentication (as `open(_:at:)`). The associated data and the
  /// plaintext are written into the same two scratch arrays each time, no new array for
  /// each cell of a listing of thousands; the plaintext is wiped once `read` returns, so the
  /// scratch holds no token between reads.
  func openAccountCell<Value>(
    _ sealed: ArraySlice<UInt8>, rowID: Int64, column: AccountColumn,
    _ read: ([UInt8]) -> Value
  ) -> Value? {
    scratch.bytes.removeAll(keepingCapacity: true)
    scratch.bytes += accountPrefixes[column.ordinal]
    append(rowID: rowID, to: &scratch.bytes)
    do {
      try cipher.open(
        combined: sealed, authenticating: scratch.bytes, into: &scratch.plaintext)
    } catch {
      return nil
    }
    defer { scratch.wipePlaintext() }
    return read(scratch.plaintext)
  }

  /// A sealer for the same vault under another schema version (for migrations).
  func atVersion(_ version: Int) -> CellSealer {
    CellSealer(key: key, vaultID: vaultID, schemaVersion: version, cipher: cipher)
  }

  /// Length-prefixed fields, so no two addresses produce the same bytes: the column's prefix,
  /// then the row id and the schema version.
  private func associatedData(_ address: Address) -> [UInt8] {
    let prefix =
      prefixes[Place(table: address.table, column: address.column)]
      ?? Self.prefix(vaultID: vaultID, table: address.table, column: address.column)
    return associatedData(prefix: prefix, rowID: address.rowID)
  }

  private func associatedData(prefix: [UInt8], rowID: Int64) -> [UInt8] {
    var data: [UInt8] = []
    data.reserveCapacity(prefix.count + 12)
    data += prefix
    append(rowID: rowID, to: &data)
    return data
  }

  /// The associated data's fields after the prefix: the row id and the schema version.
  private func append(rowID: Int64, to data: inout [UInt8]) {
    withUnsafeBytes(of: UInt64(bitPattern: rowID).bigEndian) { data += $0 }
    withUnsafeBytes(of: UInt32(clamping: schemaVersion).bigEndian) { data += $0 }
  }

  /// Bytes reused from one cell to the next (inside the `Vault` actor, like the cipher).
  private final class Scratch {
    var bytes: [UInt8] = []
    /// The last cell opened, zeroed once read (`wipePlaintext`).
    var plaintext: [UInt8] = []

    /// Zeroes the plaintext's bytes, in place: the array lives on, so the writes are kept.
    func wipePlaintext() {
      plaintext.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }
  }

  /// The associated data's fields before the row id: a label, then the vault id, the table and
  /// the column, each after its 32-bit length.
  private static func prefix(vaultID: [UInt8], table: String, column: String) -> [UInt8] {
    var data = Array("authtui vault cell v1".utf8)
    for field in [vaultID, Array(table.utf8), Array(column.utf8)] {
      data += CellCodec.bigEndian(UInt32(field.count)) + field
    }
    return data
  }
}
