import Crypto

/// The rows of `dpop_keys` (schema 7) in an unlocked vault: each account's DPoP key pair (RFC
/// 9449), when its tokens are bound to one.
///
/// A row's `id` is its account's row id, and its cells are sealed like every other
/// (`CellSealer`: vault id, table, row id, column and schema version in its associated data),
/// so a key copied to another account's row does not open. `private_key` holds a format byte
/// (1: P-256) and the private scalar `d`; the public key is derived from it. The key leaves
/// the vault only as a `P256SigningKey`, which never prints it. `thumbprint` (schema 8) holds
/// the public key's RFC 7638 thumbprint, which the listing reads beside the account's row
/// (`AccountTable`) so that showing an account's `jkt` never opens its private key.
///
/// A value made for one operation by the `Vault` actor, like `AccountTable`, whose connection
/// and sealer it uses.
struct DPoPKeyTable {
  static let name = "dpop_keys"
  static let privateKeyColumn = "private_key"
  static let thumbprintColumn = "thumbprint"
  /// The schema version that added the table (`VaultSchema.migrations`).
  static let addedInSchema = 7
  /// The schema version that added `thumbprint`.
  static let thumbprintAddedInSchema = 8
  /// The cell's first byte for a P-256 key.
  static let p256Format: UInt8 = 1

  let connection: SQLiteConnection
  let sealer: CellSealer

  init(_ table: AccountTable) {
    connection = table.connection
    sealer = table.sealer
  }

  /// True when this vault's schema has the table (a vault of an older history, the tests'
  /// model of an older build, has none and holds no key).
  var exists: Bool { sealer.schemaVersion >= Self.addedInSchema }

  /// True when this vault's schema keeps thumbprints beside the keys.
  var keepsThumbprints: Bool { Self.keepsThumbprints(sealer) }

  static func keepsThumbprints(_ sealer: CellSealer) -> Bool {
    sealer.schemaVersion >= thumbprintAddedInSchema
  }

  private func address(_ id: AccountID) -> CellSealer.Address {
    Self.address(id.rawValue, Self.privateKeyColumn)
  }

  private static func address(_ rowID: Int64, _ column: String) -> CellSealer.Address {
    CellSealer.Address(table: name, rowID: rowID, column: column)
  }

  /// The thumbprint in `cell`, the sealed `thumbprint` of account `id`'s key; nil when it does
  /// not open or hold one (the key's own cell then says whether the key is damaged).
  static func thumbprint(in cell: [UInt8], of id: AccountID, sealer: CellSealer) -> String? {
    sealer.open(cell, at: address(id.rawValue, thumbprintColumn)).flatMap {
      CellCodec.decodeText($0)
    }
  }

  /// The key of account `id`, nil when it has none; a cell that does not open, or does not
  /// hold a key, is the account's damage.
  func key(of id: AccountID) throws(VaultError) -> P256SigningKey? {
    guard exists else { return nil }
    let cells = try connection.query(
      "SELECT \(Self.privateKeyColumn) FROM \(Self.name) WHERE id = ?", [.integer(id.rawValue)]
    ) { $0.blob(0) ?? [] }
    guard let cell = cells.first else { return nil }
    let column = Self.name + "." + Self.privateKeyColumn
    guard let plaintext = sealer.open(cell, at: address(id)) else {
      throw .accountDamaged(id, .cellRejected(column: column))
    }
    guard plaintext.first == Self.p256Format,
      let key = try? P256SigningKey(rawRepresentation: Array(plaintext.dropFirst()))
    else { throw .accountDamaged(id, .cellMalformed(column: column)) }
    return key
  }

  /// Makes `key` account `id`'s key (nil: the account has none), replacing any it had, and
  /// returns the thumbprint stored beside it (nil: no key, or a schema that keeps none). The
  /// caller holds the write transaction, and has checked that the account exists.
  @discardableResult
  func replace(_ key: P256SigningKey?, of id: AccountID) throws(VaultError) -> String? {
    guard exists else {
      if key == nil { return nil }
      throw .unexpected("this vault's schema keeps no DPoP keys")
    }
    try delete(of: id)
    guard let key else { return nil }
    let sealed = try sealer.seal([Self.p256Format] + key.rawRepresentation, at: address(id))
    guard keepsThumbprints else {
      try connection.run(
        "INSERT INTO \(Self.name) (id, \(Self.privateKeyColumn)) VALUES (?, ?)",
        [.integer(id.rawValue), .blob(sealed)])
      return nil
    }
    let thumbprint = key.thumbprint
    let sealedThumbprint = try sealer.seal(
      CellCodec.encode(thumbprint), at: Self.address(id.rawValue, Self.thumbprintColumn))
    try connection.run(
      "INSERT INTO \(Self.name) (id, \(Self.privateKeyColumn), \(Self.thumbprintColumn))"
        + " VALUES (?, ?, ?)",
      [.integer(id.rawValue), .blob(sealed), .blob(sealedThumbprint)])
    return thumbprint
  }

  /// Schema 8's step: gives every key the thumbprint of its public key, derived from its
  /// private key under `sealer` (the new schema's, the cells resealed already). A key whose
  /// cell does not open keeps no thumbprint: it stays damaged, and is reported where it is used.
  static func fillThumbprints(_ connection: SQLiteConnection, sealer: CellSealer)
    throws(VaultError)
  {
    let rows = try connection.query(
      "SELECT id, \(privateKeyColumn) FROM \(name) WHERE \(thumbprintColumn) IS NULL"
    ) { ($0.int64(0), $0.blob(1) ?? []) }
    for (rowID, cell) in rows {
      guard let plaintext = sealer.open(cell, at: address(rowID, privateKeyColumn)),
        plaintext.first == p256Format,
        let key = try? P256SigningKey(rawRepresentation: Array(plaintext.dropFirst()))
      else { continue }
      let sealed = try sealer.seal(
        CellCodec.encode(key.thumbprint), at: address(rowID, thumbprintColumn))
      try connection.run(
        "UPDATE \(name) SET \(thumbprintColumn) = ? WHERE id = ?", [.blob(sealed), .integer(rowID)])
    }
  }

  /// Removes account `id`'s key, if any (its cell is overwritten on disk: `secure_delete`).
  func delete(of id: AccountID) throws(VaultError) {
    guard exists else { return }
    try connection.run("DELETE FROM \(Self.name) WHERE id = ?", [.integer(id.rawValue)])
  }
}
