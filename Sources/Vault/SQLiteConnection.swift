internal import CSQLite
import Foundation

/// Owns one `sqlite3*` connection and closes it in `deinit`.
///
/// Not `Sendable`: exactly one `Vault` actor holds it, so every use is serialised by the actor.
/// Errors come back as `VaultError` already, because every caller is the vault.
final class SQLiteConnection {
  /// The file this connection opened, for error messages.
  let path: String
  /// Whether it was opened as an immutable snapshot (`init`'s `immutable`).
  let isSnapshot: Bool
  private let handle: OpaquePointer
  private var statements: [String: SQLiteStatement] = [:]

  /// Opens an existing file read-write (SQLite falls back to reading only when the file cannot
  /// be written); never creates one (creation goes through `VaultLocation.createFile`, which
  /// controls the mode).
  ///
  /// `immutable` opens it for reading only, as a file nobody changes (SQLite's `immutable=1`:
  /// no locks, no `-shm`, no `-wal` read): for a file in a folder this process cannot write,
  /// where SQLite could not make the `-shm` its WAL journal needs to read (see
  /// `VaultLocation.readsAsSnapshot`).
  init(path: String, busyTimeout: Duration, immutable: Bool = false) throws(VaultError) {
    self.path = path
    isSnapshot = immutable
    var opened: OpaquePointer?
    let flags =
      (immutable ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI : SQLITE_OPEN_READWRITE)
      | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    let name = immutable ? Self.immutableURI(path) : path
    // The default VFS, except in a debug build asked to inject faults (`VaultFaults`).
    let status = sqlite3_open_v2(name, &opened, flags, VaultFaults.vfsName)
    guard status == SQLITE_OK, let opened else {
      let detail = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(opened)
      throw VaultError.storage(path: path, detail: detail)
    }
    handle = opened
    let milliseconds =
      busyTimeout.components.seconds * 1000
      + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
  }

  /// `file:PATH?immutable=1`, every byte of PATH but the unreserved ones and `/`
  /// percent-encoded (a `?`, `#` or `%` in a folder's name is part of the path).
  private static func immutableURI(_ path: String) -> String {
    let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
    let encoded = path.utf8.map { byte in
      plain.contains(byte)
        ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded
    }
    return "file:" + encoded.joined() + "?immutable=1"
  }

  deinit {
    // Finalise every statement first: sqlite3_close_v2 would otherwise keep the file open.
    statements.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Runs one or more statements that take no parameters and return no rows we need.
  func execute(_ sql: String) throws(VaultError) {
    var message: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    if status != SQLITE_OK {
      throw error(status, message.map { String(cString: $0) })
    }
  }

  /// A prepared statement for `sql`, reused across calls (reset and unbound first).
  func statement(_ sql: String) throws(VaultError) -> SQLiteStatement {
    if let cached = statements[sql] {
      cached.reset()
      return cached
    }
    var prepared: OpaquePointer?
    let status = sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
    guard status == SQLITE_OK, let prepared else { throw error(status) }
    let statement = SQLiteStatement(handle: prepared, connection: self)
    statements[sql] = statement
    return statement
  }

  /// Runs `sql` with `bindings` and returns each row mapped by `row`.
  func query<T>(
    _ sql: String, _ bindings: [SQLiteValue] = [],
    row: (SQLiteStatement) throws(VaultError) -> T
  ) throws(VaultError) -> [T] {
    let statement = try statement(sql)
    defer { statement.reset() }
    try statement.bind(bindings)
    var rows: [T] = []
    while try statement.step() {
      rows.append(try row(statement))
    }
    return rows
  }

  /// Runs `sql` with `bindings` and returns the number of rows it changed.
  @discardableResult
  func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws(VaultError) -> Int {
    let statement = try statement(sql)
    defer { statement.reset() }
    try statement.bind(bindings)
    while try statement.step() {}
    return Int(sqlite3_changes(handle))
  }

  /// True when the file could be opened for reading only (its mode or its folder's): nothing
  /// can be written, not even bookkeeping.
  var isReadOnly: Bool {
    sqlite3_db_readonly(handle, "main") == 1
  }

  /// True when the file has a table named `name`.
  func hasTable(_ name: String) throws(VaultError) -> Bool {
    try query(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]
    ) { _ in true }.first ?? false
  }

  /// An integer pragma such as `user_version`.
  func integerPragma(_ name: String) throws(VaultError) -> Int64 {
    try query("PRAGMA \(name)") { $0.int64(0) }.first ?? 0
  }

  /// A text pragma such as `journal_mode`.
  func textPragma(_ name: String) throws(VaultError) -> String {
    try query("PRAGMA \(name)") { $0.text(0) }.first ?? ""
  }

  /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
  ///
  /// `.immediate` takes the write lock up front (`BEGIN IMMEDIATE`), so a read-then-write inside
  /// cannot fail halfway with `SQLITE_BUSY_SNAPSHOT`; other processes wait in their busy handler.
  func transaction<T>(
    _ kind: TransactionKind, _ body: () throws(VaultError) -> T
  ) throws(VaultError) -> T {
    try execute(kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      // The transaction may already be gone (SQLite rolls back on some I/O errors).
      if sqlite3_get_autocommit(handle) == 0 {
        try? execute("ROLLBACK")
      }
      throw error
    }
  }

  /// Which lock a transaction starts with.
  enum TransactionKind {
    case deferred
    case immediate
  }

  /// Translates an SQLite status into the vault's error, with SQLite's message (which names
  /// tables and constraints, never bound values).
  func error(_ status: Int32, _ message: String? = nil) -> VaultError {
    let primary = status & 0xFF
    let detail = message ?? String(cString: sqlite3_errmsg(handle))
    switch primary {
    case SQLITE_BUSY, SQLITE_LOCKED:
      return .busy(path: path)
    // SQLITE_CONSTRAINT_UNIQUE is a macro that does not import.
    case SQLITE_CONSTRAINT where status == SQLITE_CONSTRAINT | (8 << 8):
      return .constraint(detail)
    case SQLITE_NOTADB:
      return .notAVault(path: path)
    case SQLITE_READONLY:
      return VaultLocation(path: path).writeBlock().map { .readOnly(path: path, $0) }
        ?? .storage(path: path, detail: detail)
    case SQLITE_CORRUPT:
      return .storage(path: path, detail: "the file is corrupt (\(detail))")
    default:
      return .storage(path: path, detail: detail)
    }
  }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
  case integer(Int64)
  case blob([UInt8])
  case text(String)
  case null
}

extension String {
  /// Two hex digits: a leading zero for a single one.
  fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
