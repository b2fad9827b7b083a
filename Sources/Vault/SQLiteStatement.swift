internal import CSQLite

/// Owns one prepared `sqlite3_stmt` and finalises it in `deinit`.
final class SQLiteStatement {
  private let handle: OpaquePointer
  private unowned let connection: SQLiteConnection

  init(handle: OpaquePointer, connection: SQLiteConnection) {
    self.handle = handle
    self.connection = connection
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Binds `values` to parameters 1…n.
  func bind(_ values: [SQLiteValue]) throws(VaultError) {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .integer(let number):
        status = sqlite3_bind_int64(handle, index, number)
      case .blob(let bytes):
        // A zero-length blob must still be a blob, not NULL: pass a valid pointer.
        status = bytes.withUnsafeBytes { buffer in
          sqlite3_bind_blob(
            handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
            Int32(buffer.count),
            authtui_sqlite_transient())
        }
      case .text(let string):
        status = sqlite3_bind_text(handle, index, string, -1, authtui_sqlite_transient())
      case .null:
        status = sqlite3_bind_null(handle, index)
      }
      guard status == SQLITE_OK else { throw connection.error(status) }
    }
  }

  /// Advances to the next row: true when there is one, false when the statement is done.
  func step() throws(VaultError) -> Bool {
    let status = sqlite3_step(handle)
    switch status {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw connection.error(status)
    }
  }

  /// Makes the statement ready to run again, with no parameters bound.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Column `index` of the current row as an integer.
  func int64(_ index: Int32) -> Int64 {
    sqlite3_column_int64(handle, index)
  }

  /// Column `index` of the current row as text.
  func text(_ index: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, index) else { return "" }
    return String(cString: pointer)
  }

  /// Appends column `index` of the current row to `bytes` (nothing for NULL or empty), without
  /// an array of its own.
  func appendBlob(_ index: Int32, to bytes: inout [UInt8]) {
    let count = Int(sqlite3_column_bytes(handle, index))
    guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return }
    bytes.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// The size in bytes of column `index` of the current row (0 for NULL).
  func byteCount(_ index: Int32) -> Int {
    Int(sqlite3_column_bytes(handle, index))
  }

  /// Column `index` of the current row as bytes, or nil when it is NULL.
  func blob(_ index: Int32) -> [UInt8]? {
    if sqlite3_column_type(handle, index) == SQLITE_NULL { return nil }
    let count = Int(sqlite3_column_bytes(handle, index))
    guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }
}
