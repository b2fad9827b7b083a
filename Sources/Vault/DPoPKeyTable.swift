import Crypto

/// The rows of `dpop_keys` (schema 7) in an unlocked vault: each account's DPoP key pair (RFC
/// 9449), when its tokens are bound to one.
///
/// A row's `id` is its account's row id, and its one cell, `private_key`, is sealed like every
/// other (`CellSealer`: vault id, table, row id, column and schema version in its associated
/// data), so a key copied to another account's row does not open. The cell holds a format
/// byte (1: P-256) and the private scalar `d`; the public key is derived from it. The key
/// leaves the vault only as a `P256SigningKey`, which never prints it.
///
/// A value made for one operation by the `Vault` actor, like `AccountTable`, whose connection
/// and sealer it uses.
struct DPoPKeyTable {
  static let name = "dpop_keys"
  static let privateKeyColumn = "private_key"
  /// The schema version that added the table (`VaultSchema.migrations`).
  static let addedInSchema = 7
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

  private func address(_ id: AccountID) -> CellSealer.Address {
    CellSealer.Address(table: Self.name, rowID: id.rawValue, column: Self.privateKeyColumn)
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

  /// Makes `key` account `id`'s key (nil: the account has none), replacing any it had. The
  /// caller holds the write transaction, and has checked that the account exists.
  func replace(_ key: P256SigningKey?, of id: AccountID) throws(VaultError) {
    guard exists else {
      if key == nil { return }
      throw .unexpected("this vault's schema keeps no DPoP keys")
    }
    try delete(of: id)
    guard let key else { return }
    let sealed = try sealer.seal([Self.p256Format] + key.rawRepresentation, at: address(id))
    try connection.run(
      "INSERT INTO \(Self.name) (id, \(Self.privateKeyColumn)) VALUES (?, ?)",
      [.integer(id.rawValue), .blob(sealed)])
  }

  /// Removes account `id`'s key, if any (its cell is overwritten on disk: `secure_delete`).
  func delete(of id: AccountID) throws(VaultError) {
    guard exists else { return }
    try connection.run("DELETE FROM \(Self.name) WHERE id = ?", [.integer(id.rawValue)])
  }
}
