import Crypto
import Foundation

/// The sealed columns of `accounts`, in the order every SELECT returns them.
enum AccountColumn: String, CaseIterable {
  case providerID = "provider_id"
  case label
  case subject
  case identity
  case signInNeeded = "sign_in_needed"
  case accessToken = "access_token"
  case refreshToken = "refresh_token"
  case idToken = "id_token"
  case tokenType = "token_type"
  case scopes
  case expiresAt = "expires_at"
  case obtainedAt = "obtained_at"
  case refreshValidity = "refresh_validity"

  /// The schema version that added the column (`VaultSchema.migrations`).
  var addedInSchema: Int {
    switch self {
    case .refreshValidity: return 4
    default: return 1
    }
  }

  /// The columns a vault of schema `version` has, in order: a vault of an older history (the
  /// tests' model of an older build) reads and writes only those.
  static func present(atSchema version: Int) -> [AccountColumn] {
    allCases.filter { $0.addedInSchema <= version }
  }

  /// The column's place in `allCases`, where a row's cells are kept: a switch, since hashing
  /// the raw value for every cell of a long listing costs more than opening the cell.
  var ordinal: Int {
    switch self {
    case .providerID: return 0
    case .label: return 1
    case .subject: return 2
    case .identity: return 3
    case .signInNeeded: return 4
    case .accessToken: return 5
    case .refreshToken: return 6
    case .idToken: return 7
    case .tokenType: return 8
    case .scopes: return 9
    case .expiresAt: return 10
    case .obtainedAt: return 11
    case .refreshValidity: return 12
    }
  }
}

/// One row of `accounts` as stored: plaintext bookkeeping and still-sealed cells.
struct StoredAccountRow {
  let id: AccountID
  let version: Int64
  let nameIndex: [UInt8]
  /// Every sealed cell, one after another (one array for the row, not one for each cell).
  let sealed: [UInt8]
  /// Where each cell is in `sealed`, by `AccountColumn.ordinal`: its start, then its end.
  /// Empty for a column the schema lacks, and for a NULL.
  let bounds: [Int]
  /// The sealed thumbprint of the account's DPoP key (`dpop_keys.thumbprint`), nil when it
  /// holds no key (or a schema that keeps no thumbprints).
  let dpopThumbprint: [UInt8]?

  /// The sealed cell of `column`.
  func cell(_ column: AccountColumn) -> ArraySlice<UInt8> {
    sealed[bounds[2 * column.ordinal]..<bounds[2 * column.ordinal + 1]]
  }
}

/// The identifying half of an account, as its name cells hold it: provider, label, the subject
/// the provider vouches for, and the identity claims shown beside it.
struct AccountNameCells {
  let providerID: String
  let label: String
  let subject: String?
  let identity: [String: String]
}

/// The rows of `accounts` in an unlocked vault: reading, decoding, sealing and writing them.
///
/// A value made for one operation by the `Vault` actor, which owns the connection; it never
/// escapes the actor.
struct AccountTable {
  static let name = "accounts"

  let connection: SQLiteConnection
  let keys: VaultKeys
  let sealer: CellSealer
  /// The sealed columns of this vault's schema.
  private let columns: [AccountColumn]
  /// Every row's cells, for the listing: the thumbprints of the keys are read apart, in one
  /// statement over `dpop_keys` (a row per bound account), so a vault of Bearer accounts pays
  /// one empty read, not a lookup per row.
  private let selection: String
  /// One row's cells, with its key's thumbprint beside them (a join on the row id).
  private let rowSelection: String
  /// True when this vault's schema keeps the keys' thumbprints.
  private let keepsThumbprints: Bool

  init(connection: SQLiteConnection, keys: VaultKeys, sealer: CellSealer) {
    self.connection = connection
    self.keys = keys
    self.sealer = sealer
    columns = AccountColumn.present(atSchema: sealer.schemaVersion)
    keepsThumbprints = DPoPKeyTable.keepsThumbprints(sealer)
    let cells =
      "SELECT accounts.id, accounts.version, accounts.name_index, "
      + columns.map { "accounts." + $0.rawValue }.joined(separator: ", ")
    selection = cells + " FROM accounts"
    rowSelection =
      keepsThumbprints
      ? cells + ", \(DPoPKeyTable.name).\(DPoPKeyTable.thumbprintColumn) FROM accounts"
        + " LEFT JOIN \(DPoPKeyTable.name) ON \(DPoPKeyTable.name).id = accounts.id"
      : selection
  }

  // MARK: Reading

  /// Every row. The caller reads in one transaction, if it needs the rows and their keys'
  /// thumbprints from one snapshot.
  func allRows() throws(VaultError) -> [StoredAccountRow] {
    try mapRows { $0 }
  }

  /// Every row's id and version. Schema 6's index of versions holds both, so SQLite reads
  /// them from there, not from the rows with all their sealed cells.
  func rowVersions() throws(VaultError) -> [(id: AccountID, version: Int64)] {
    try connection.query("SELECT id, version FROM accounts") { row in
      (AccountID(row.int64(0)), row.int64(1))
    }
  }

  /// What `body` makes of each row, handed the rows one at a time as they are read: their
  /// sealed cells are most of the file, and are never all held at once. `body` must not use
  /// the connection. The caller reads in one transaction, if it needs the rows and their
  /// keys' thumbprints from one snapshot.
  func mapRows<T>(_ body: (StoredAccountRow) -> T) throws(VaultError) -> [T] {
    let thumbprints = try thumbprintCells()
    return try connection.query(selection) { statement in
      body(storedRow(statement, thumbprints: .byID(thumbprints)))
    }
  }

  /// The sealed thumbprint of every key, by its account's row id; none when the schema keeps
  /// none.
  private func thumbprintCells() throws(VaultError) -> [AccountID: [UInt8]] {
    guard keepsThumbprints else { return [:] }
    let cells = try connection.query(
      "SELECT id, \(DPoPKeyTable.thumbprintColumn) FROM \(DPoPKeyTable.name)"
    ) { (AccountID($0.int64(0)), $0.blob(1) ?? []) }
    return Dictionary(cells, uniquingKeysWith: { first, _ in first })
  }

  func row(_ id: AccountID) throws(VaultError) -> StoredAccountRow? {
    try connection.query(rowSelection + " WHERE accounts.id = ?", [.integer(id.rawValue)]) {
      storedRow($0, thumbprints: .joined)
    }
    .first
  }

  func row(nameIndex: [UInt8]) throws(VaultError) -> StoredAccountRow? {
    try connection.query(rowSelection + " WHERE accounts.name_index = ?", [.blob(nameIndex)]) {
      storedRow($0, thumbprints: .joined)
    }
    .first
  }

  /// Where a row's thumbprint cell comes from.
  private enum ThumbprintSource {
    /// The statement's column after the sealed cells (`rowSelection`).
    case joined
    /// Read apart, by row id.
    case byID([AccountID: [UInt8]])
  }

  /// The row, or `accountNotFound`.
  func existingRow(_ id: AccountID) throws(VaultError) -> StoredAccountRow {
    guard let row = try row(id) else { throw .accountNotFound(id) }
    return row
  }

  private func storedRow(_ statement: SQLiteStatement, thumbprints: ThumbprintSource)
    -> StoredAccountRow
  {
    var sealed: [UInt8] = []
    sealed.reserveCapacity(columns.indices.reduce(0) { $0 + statement.byteCount(Int32($1 + 3)) })
    var bounds = [Int](repeating: 0, count: 2 * AccountColumn.allCases.count)
    for (offset, column) in columns.enumerated() {
      // A NULL where a sealed cell belongs reads as an empty cell, which fails authentication.
      bounds[2 * column.ordinal] = sealed.count
      statement.appendBlob(Int32(offset + 3), to: &sealed)
      bounds[2 * column.ordinal + 1] = sealed.count
    }
    let id = AccountID(statement.int64(0))
    let thumbprint: [UInt8]?
    switch thumbprints {
    case .joined: thumbprint = keepsThumbprints ? statement.blob(Int32(columns.count + 3)) : nil
    case .byID(let cells): thumbprint = cells.isEmpty ? nil : cells[id]
    }
    return StoredAccountRow(
      id: id, version: statement.int64(1), nameIndex: statement.blob(2) ?? [], sealed: sealed,
      bounds: bounds, dpopThumbprint: thumbprint)
  }

  // MARK: Decoding

  func decode(_ row: StoredAccountRow) throws(AccountDamage) -> AccountRecord {
    let name = try decodeName(row)
    let (tokens, needsSignIn) = try decodeTokens(row)
    return record(
      row.id, version: row.version, name, tokens, needsSignIn: needsSignIn,
      dpopThumbprint: dpopThumbprint(row))
  }

  /// The thumbprint of the row's DPoP key, when it holds one and its cell opens.
  func dpopThumbprint(_ row: StoredAccountRow) -> String? {
    row.dpopThumbprint.flatMap { DPoPKeyTable.thumbprint(in: $0, of: row.id, sealer: sealer) }
  }

  /// The row decoded, or what of it is damaged.
  func stored(_ row: StoredAccountRow) -> StoredAccount {
    do {
      return .readable(try decode(row))
    } catch {
      return .damaged(damaged(row, error))
    }
  }

  /// The row reported as damaged by `damage`, with the name cells that still open.
  func damaged(_ row: StoredAccountRow, _ damage: AccountDamage) -> DamagedAccount {
    let name = readableName(row)
    return DamagedAccount(
      id: row.id, damage: damage, providerID: name.providerID, label: name.label)
  }

  /// The provider id and label cells, each nil when it does not open; no other cell is read.
  func readableName(_ row: StoredAccountRow) -> (providerID: String?, label: String?) {
    (
      try? value(row, .providerID, CellCodec.decodeName),
      try? value(row, .label, CellCodec.decodeName)
    )
  }

  /// The identifying cells, checked against the row's name index.
  func decodeName(_ row: StoredAccountRow) throws(AccountDamage) -> AccountNameCells {
    let providerID = try value(row, .providerID, CellCodec.decodeName)
    let label = try value(row, .label, CellCodec.decodeName)
    let name = AccountNameCells(
      providerID: providerID, label: label,
      subject: try value(row, .subject, CellCodec.decodeOptionalText),
      identity: try value(row, .identity, CellCodec.decodeFields))
    let expected = keys.nameIndex(providerID: providerID, label: label)
    guard ConstantTime.equals(expected, row.nameIndex) else { throw .nameIndexMismatch }
    return name
  }

  func decodeTokens(_ row: StoredAccountRow) throws(AccountDamage) -> (TokenSet, Bool) {
    let tokens = TokenSet(
      accessToken: try value(row, .accessToken, CellCodec.decodeOptionalText),
      refreshToken: try value(row, .refreshToken, CellCodec.decodeOptionalText),
      idToken: try value(row, .idToken, CellCodec.decodeOptionalText),
      tokenType: try value(row, .tokenType, CellCodec.decodeOptionalText),
      scopes: try value(row, .scopes, CellCodec.decodeList),
      expiresAt: try value(row, .expiresAt, CellCodec.decodeOptionalDate),
      obtainedAt: try value(row, .obtainedAt, CellCodec.decodeDate),
      refreshValidity: sealer.schemaVersion >= AccountColumn.refreshValidity.addedInSchema
        ? try value(row, .refreshValidity, CellCodec.decodeOptionalInterval) : nil)
    return (tokens, try value(row, .signInNeeded, CellCodec.decodeBool))
  }

  private func value<T>(
    _ row: StoredAccountRow, _ column: AccountColumn, _ decode: ([UInt8]) -> T?
  ) throws(AccountDamage) -> T {
    guard
      let opened = sealer.openAccountCell(
        row.cell(column), rowID: row.id.rawValue, column: column, decode)
    else {
      throw .cellRejected(column: column.rawValue)
    }
    guard let decoded = opened else { throw .cellMalformed(column: column.rawValue) }
    return decoded
  }

  func record(
    _ id: AccountID, version: Int64, _ name: AccountNameCells, _ tokens: TokenSet,
    needsSignIn: Bool, dpopThumbprint: String?
  ) -> AccountRecord {
    AccountRecord(
      id: id, version: version, providerID: name.providerID, label: name.label,
      subject: name.subject, identity: name.identity, tokens: tokens, needsSignIn: needsSignIn,
      dpopThumbprint: dpopThumbprint)
  }

  // MARK: Writing

  /// Inserts a new row with the next never-used id; refuses a name already taken.
  func insert(_ account: NewAccount) throws(VaultError) -> AccountRecord {
    guard !account.providerID.isEmpty, !account.label.isEmpty else {
      throw .invalidAccountName
    }
    let nameIndex = keys.nameIndex(providerID: account.providerID, label: account.label)
    if try row(nameIndex: nameIndex) != nil {
      throw .duplicateAccount(providerID: account.providerID, label: account.label)
    }
    // The id must be known before sealing, since every cell's associated data names its row.
    // AUTOINCREMENT keeps ids of deleted rows from coming back, so old cells never fit a new row.
    let nextID =
      try connection.query(
        """
        SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'accounts'), 0),
                   COALESCE((SELECT MAX(id) FROM accounts), 0)) + 1
        """
      ) { $0.int64(0) }.first ?? 1
    let id = AccountID(nextID)
    let name = AccountNameCells(
      providerID: account.providerID, label: account.label, subject: account.subject,
      identity: account.identity)
    let plaintexts = present(
      Self.plaintexts(name) + Self.plaintexts(account.tokens, needsSignIn: false))
    let columns = plaintexts.map(\.0.rawValue).joined(separator: ", ")
    let placeholders = Array(repeating: "?", count: plaintexts.count).joined(separator: ", ")
    var bindings: [SQLiteValue] = [.integer(id.rawValue), .blob(nameIndex)]
    for (column, plaintext) in plaintexts {
      bindings.append(.blob(try seal(plaintext, id, column)))
    }
    do throws(VaultError) {
      try connection.run(
        "INSERT INTO accounts (id, version, name_index, \(columns)) VALUES (?, 1, ?, \(placeholders))",
        bindings)
    } catch .constraint {
      throw .duplicateAccount(providerID: account.providerID, label: account.label)
    }
    return record(id, version: 1, name, account.tokens, needsSignIn: false, dpopThumbprint: nil)
  }

  /// Reseals `plaintexts` into the row (and its name index when given) and bumps its version;
  /// returns the new version, or throws `accountNotFound`.
  func update(
    _ id: AccountID, _ plaintexts: [(AccountColumn, [UInt8])], nameIndex: [UInt8]? = nil
  ) throws(VaultError) -> Int64 {
    let plaintexts = present(plaintexts)
    var assignments = plaintexts.map { "\($0.0.rawValue) = ?" }
    var bindings: [SQLiteValue] = []
    for (column, plaintext) in plaintexts {
      bindings.append(.blob(try seal(plaintext, id, column)))
    }
    if let nameIndex {
      assignments.append("name_index = ?")
      bindings.append(.blob(nameIndex))
    }
    let sql =
      "UPDATE accounts SET \(assignments.joined(separator: ", ")), version = version + 1"
      + " WHERE id = ? RETURNING version"
    let versions = try connection.query(sql, bindings + [.integer(id.rawValue)]) { $0.int64(0) }
    guard let version = versions.first else { throw .accountNotFound(id) }
    return version
  }

  /// Removes the row, any refresh lease on it, its default mark and its DPoP key; false when
  /// there was no such row.
  func delete(_ id: AccountID) throws(VaultError) -> Bool {
    try DPoPKeyTable(self).delete(of: id)
    try connection.run("DELETE FROM refresh_leases WHERE account_id = ?", [.integer(id.rawValue)])
    try connection.run(
      "DELETE FROM provider_defaults WHERE account_id = ?", [.integer(id.rawValue)])
    return try connection.run("DELETE FROM accounts WHERE id = ?", [.integer(id.rawValue)]) > 0
  }

  private func seal(_ plaintext: [UInt8], _ id: AccountID, _ column: AccountColumn)
    throws(VaultError) -> [UInt8]
  {
    try sealer.seal(
      plaintext,
      at: CellSealer.Address(table: Self.name, rowID: id.rawValue, column: column.rawValue))
  }

  // MARK: Cell plaintexts

  /// The cells of `plaintexts` this vault's schema has a column for.
  private func present(_ plaintexts: [(AccountColumn, [UInt8])]) -> [(AccountColumn, [UInt8])] {
    let columns = Set(columns)
    return plaintexts.filter { columns.contains($0.0) }
  }

  static func plaintexts(_ name: AccountNameCells) -> [(AccountColumn, [UInt8])] {
    [
      (.providerID, CellCodec.encode(name.providerID)),
      (.label, CellCodec.encode(name.label)),
      (.subject, CellCodec.encode(name.subject, CellCodec.encode)),
      (.identity, CellCodec.encode(name.identity)),
    ]
  }

  static func plaintexts(_ tokens: TokenSet, needsSignIn: Bool) -> [(AccountColumn, [UInt8])] {
    [
      (.signInNeeded, CellCodec.encode(needsSignIn)),
      (.accessToken, CellCodec.encode(tokens.accessToken, CellCodec.encode)),
      (.refreshToken, CellCodec.encode(tokens.refreshToken, CellCodec.encode)),
      (.idToken, CellCodec.encode(tokens.idToken, CellCodec.encode)),
      (.tokenType, CellCodec.encode(tokens.tokenType, CellCodec.encode)),
      (.scopes, CellCodec.encode(tokens.scopes)),
      (.expiresAt, CellCodec.encode(tokens.expiresAt, CellCodec.encode)),
      (.obtainedAt, CellCodec.encode(tokens.obtainedAt)),
      (.refreshValidity, CellCodec.encode(tokens.refreshValidity, CellCodec.encode)),
    ]
  }
}
