import Foundation

/// One step of the vault's schema history. Step `n` turns a version `n − 1` vault into version `n`.
///
/// Steps are applied in order, all in one `BEGIN IMMEDIATE` transaction together with the
/// `user_version` stamp, after a successful unlock (a wrong passphrase must change nothing). Since
/// every cell's associated data names the schema version, the migrator then reseals every cell
/// under the new version in the same transaction. Two rules keep old files readable: a step never
/// rewrites history (add a new step instead), and `vault_meta` keeps its columns, because it is
/// read before any migration can run.
package struct SchemaMigration: Sendable {
  /// A sealed column the step adds, and the plaintext its cell gets in every existing row: SQL
  /// cannot seal, and a NULL cell reads as damaged, never as "absent".
  package struct SealedColumn: Sendable {
    /// The table.
    package let table: String
    /// The column.
    package let column: String
    /// What each existing row's cell holds (`CellCodec`'s encoding).
    package let plaintext: [UInt8]
  }

  /// The version this step produces.
  package let version: Int
  /// Statements run in order (each may be several, separated by semicolons).
  package let sql: String
  /// The sealed columns `sql` adds, filled in every existing row under the new version.
  package let sealedColumns: [SealedColumn]
  /// Fills cells the step adds whose plaintext comes from other cells, under the new version's
  /// sealer, once every cell is resealed; nil for most steps.
  let derive: (@Sendable (SQLiteConnection, CellSealer) throws(VaultError) -> Void)?

  package init(version: Int, sql: String, sealedColumns: [SealedColumn] = []) {
    self.init(version: version, sql: sql, sealedColumns: sealedColumns, derive: nil)
  }

  init(
    version: Int, sql: String, sealedColumns: [SealedColumn] = [],
    derive: (@Sendable (SQLiteConnection, CellSealer) throws(VaultError) -> Void)?
  ) {
    self.version = version
    self.sql = sql
    self.sealedColumns = sealedColumns
    self.derive = derive
  }
}

/// The schema of the vault file.
package enum VaultSchema {
  /// `PRAGMA application_id` of every vault ("atui"), telling a vault from any other SQLite file.
  static let applicationID: Int64 = 0x6174_7569

  /// Every step of the schema's history, oldest first.
  package static let migrations: [SchemaMigration] = [
    SchemaMigration(
      version: 1,
      sql: """
        CREATE TABLE vault_meta (
          singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
          vault_id BLOB NOT NULL,
          kdf_algorithm TEXT NOT NULL,
          kdf_cost INTEGER NOT NULL,
          kdf_block_size INTEGER NOT NULL,
          kdf_parallelism INTEGER NOT NULL,
          kdf_salt BLOB NOT NULL,
          wrapped_data_key BLOB NOT NULL
        ) STRICT;
        CREATE TABLE accounts (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          version INTEGER NOT NULL,
          name_index BLOB NOT NULL UNIQUE,
          provider_id BLOB NOT NULL,
          label BLOB NOT NULL,
          subject BLOB NOT NULL,
          identity BLOB NOT NULL,
          sign_in_needed BLOB NOT NULL,
          access_token BLOB NOT NULL,
          refresh_token BLOB NOT NULL,
          id_token BLOB NOT NULL,
          token_type BLOB NOT NULL,
          scopes BLOB NOT NULL,
          expires_at BLOB NOT NULL,
          obtained_at BLOB NOT NULL
        ) STRICT;
        CREATE TABLE refresh_leases (
          account_id INTEGER PRIMARY KEY,
          lease_token BLOB NOT NULL,
          holder TEXT NOT NULL,
          expires_at_ms INTEGER NOT NULL
        ) STRICT;
        """),
    // Who holds a lease, so a waiter can take over from a holder that died, and whether its
    // request reached the provider: the account's version then (0: nothing sent), so the next
    // holder knows that refresh token may be spent (Vault+RefreshLease.swift).
    SchemaMigration(
      version: 2,
      sql: """
        ALTER TABLE refresh_leases ADD COLUMN holder_pid INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE refresh_leases ADD COLUMN holder_process TEXT NOT NULL DEFAULT '';
        ALTER TABLE refresh_leases ADD COLUMN sent_account_version INTEGER NOT NULL DEFAULT 0;
        """),
    // The account a bare PROVIDER names when the provider has several (`authtui default`):
    // keyed by the provider id's blind index (`VaultKeys.providerIndex`), so the file says only
    // how many providers have a default, never which. The primary key keeps one per provider.
    SchemaMigration(
      version: 3,
      sql: """
        CREATE TABLE provider_defaults (
          provider_index BLOB PRIMARY KEY,
          account_id INTEGER NOT NULL UNIQUE
        ) STRICT;
        """),
    // How long the refresh token works, when known (`TokenSet.refreshValidity`): Google ends
    // those of an app in "Testing" after 7 days, GitHub says `refresh_token_expires_in`.
    // Every existing row gets a sealed "not known".
    SchemaMigration(
      version: 4, sql: "ALTER TABLE accounts ADD COLUMN refresh_validity BLOB;",
      sealedColumns: [
        SchemaMigration.SealedColumn(
          table: AccountTable.name, column: AccountColumn.refreshValidity.rawValue,
          plaintext: CellCodec.encode(DateInterval?.none, CellCodec.encode))
      ]),
    // Turns at the key derivation (scrypt: 128 MiB and a core for half a second each): a burst
    // of commands unlocking at once takes turns instead of running out of memory
    // (Vault+UnlockTurns.swift). Bookkeeping only: which process holds a turn, until when.
    SchemaMigration(
      version: 5,
      sql: """
        CREATE TABLE unlock_turns (
          turn_token BLOB PRIMARY KEY,
          holder_pid INTEGER NOT NULL,
          holder_process TEXT NOT NULL,
          expires_at_ms INTEGER NOT NULL
        ) STRICT;
        """),
    // The rows' versions on their own, a few bytes a row: a reload after another process wrote
    // reads every row's id and version, then only the rows whose version changed
    // (`Vault.listAccounts(updating:)`). From the table itself, those two numbers would cost a
    // read of every row with all its sealed cells.
    SchemaMigration(version: 6, sql: "CREATE INDEX accounts_versions ON accounts (version);"),
    // Each account's own DPoP key pair (RFC 9449), when its tokens are bound to one: the
    // private key sealed like a token, keyed by the account's row id, in a table of its own so
    // that a listing never opens it. Written with the tokens of a sign-in, deleted with the
    // account or its tokens (`DPoPKeyTable`).
    SchemaMigration(
      version: 7,
      sql: """
        CREATE TABLE dpop_keys (
          id INTEGER PRIMARY KEY,
          private_key BLOB NOT NULL
        ) STRICT;
        """),
    // Each DPoP key's thumbprint (RFC 7638, its `jkt`) beside it, sealed the same way, so that
    // a listing shows which key an account's tokens are bound to without opening a private key
    // (`AccountTable` reads it with the account's row). Existing keys get theirs from their
    // private key (`DPoPKeyTable.fillThumbprints`).
    SchemaMigration(
      version: 8, sql: "ALTER TABLE dpop_keys ADD COLUMN thumbprint BLOB;",
      derive: { connection, sealer throws(VaultError) in
        try DPoPKeyTable.fillThumbprints(connection, sealer: sealer)
      }),
  ]

  /// Tables with sealed columns, and those columns, as of schema `version`.
  static func sealedColumns(atSchema version: Int) -> [(table: String, columns: [String])] {
    var tables: [(table: String, columns: [String])] = [
      (AccountTable.name, AccountColumn.present(atSchema: version).map(\.rawValue))
    ]
    if version >= DPoPKeyTable.thumbprintAddedInSchema {
      tables.append(
        (DPoPKeyTable.name, [DPoPKeyTable.privateKeyColumn, DPoPKeyTable.thumbprintColumn]))
    } else if version >= DPoPKeyTable.addedInSchema {
      tables.append((DPoPKeyTable.name, [DPoPKeyTable.privateKeyColumn]))
    }
    return tables
  }
}

extension SQLiteConnection {
  /// Throws `newerSchema` when the file's version is above `supported`.
  func requireSchema(atMost supported: Int) throws(VaultError) {
    let found = Int(try integerPragma("user_version"))
    if found > supported {
      throw VaultError.newerSchema(path: path, found: found, supported: supported)
    }
  }

  /// Applies every step after the file's version, then reseals every cell from the old version to
  /// the new one. Runs under the write lock and re-reads the version there, so two processes
  /// unlocking an old vault at once migrate it once.
  func migrate(with migrations: [SchemaMigration], sealer: CellSealer) throws(VaultError) {
    let target = migrations.count
    guard try integerPragma("user_version") < target else { return }
    try transaction(.immediate) { () throws(VaultError) in
      try requireSchema(atMost: target)
      let found = Int(try integerPragma("user_version"))
      guard found < target else { return }
      try applyMigrations(migrations, from: found)
      let new = sealer.atVersion(target)
      try reseal(
        from: sealer.atVersion(found), to: new, columns: VaultSchema.sealedColumns(atSchema: found))
      for migration in migrations where migration.version > found {
        try fill(migration.sealedColumns, sealer: new)
        try migration.derive?(self, new)
      }
    }
  }

  /// Seals each added column's plaintext into every row of its table, under `sealer`.
  private func fill(
    _ added: [SchemaMigration.SealedColumn], sealer: CellSealer
  ) throws(VaultError) {
    for column in added {
      let rows = try query(
        "SELECT id FROM \(column.table) WHERE \(column.column) IS NULL"
      ) { $0.int64(0) }
      for rowID in rows {
        let address = CellSealer.Address(table: column.table, rowID: rowID, column: column.column)
        try run(
          "UPDATE \(column.table) SET \(column.column) = ? WHERE id = ?",
          [.blob(try sealer.seal(column.plaintext, at: address)), .integer(rowID)])
      }
    }
  }

  /// Runs the steps after `version` and stamps the newest version; the caller holds the
  /// transaction.
  func applyMigrations(_ migrations: [SchemaMigration], from version: Int) throws(VaultError) {
    for migration in migrations where migration.version > version {
      try execute(migration.sql)
    }
    try execute("PRAGMA user_version = \(migrations.count)")
  }

  /// Reseals every sealed cell of `sealed` (the columns the file had before the steps) that opens
  /// under `old` so that it opens under `new`. A cell that
  /// opens under neither stays as it is, still damaged and still reported.
  private func reseal(
    from old: CellSealer, to new: CellSealer, columns sealed: [(table: String, columns: [String])]
  ) throws(VaultError) {
    for (table, columns) in sealed {
      let rows = try query("SELECT id, \(columns.joined(separator: ", ")) FROM \(table)") { row in
        (row.int64(0), columns.indices.map { row.blob(Int32($0 + 1)) ?? [] })
      }
      for (rowID, cells) in rows {
        for (column, cell) in zip(columns, cells) {
          let address = CellSealer.Address(table: table, rowID: rowID, column: column)
          guard let plaintext = old.open(cell, at: address) else { continue }
          try run(
            "UPDATE \(table) SET \(column) = ? WHERE id = ?",
            [.blob(try new.seal(plaintext, at: address)), .integer(rowID)])
        }
      }
    }
  }
}
