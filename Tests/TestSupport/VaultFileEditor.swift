import Foundation

/// Changes a vault file as someone who has the file but not the passphrase would: through the
/// `sqlite3` shell, from outside the process that may have the vault open.
public enum VaultFileEditor {
  /// Runs `sql` on the vault file at `path`; the shell's output, trimmed.
  @discardableResult
  public static func sqlite(_ path: String, _ sql: String) async throws -> String {
    let result = try await ChildProcess.run("/usr/bin/env", ["sqlite3", path, sql])
    guard result.status == 0 else { throw WorkspaceError("sqlite3 failed: \(result.stderr)") }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The bytes of the vault file at `path` with the pages of `unlock_turns` (and its index)
  /// blanked out: an unlock's turn is bookkeeping written before the passphrase is tried and
  /// deleted after it, and SQLite leaves the zeroed husk of a deleted row in its page's free
  /// space. The caller checks that the table is empty.
  public static func bytesBesideTheUnlockTurns(_ path: String) async throws -> Data {
    let pages = try await sqlite(
      path, "SELECT rootpage FROM sqlite_master WHERE tbl_name = 'unlock_turns'"
    ).split(separator: "\n").compactMap { Int($0) }
    var file = try Data(contentsOf: URL(fileURLWithPath: path))
    guard file.count > 17 else { return file }
    // The page size is the big-endian 16-bit number at offset 16 of the SQLite header.
    let pageSize = Int(file[16]) << 8 | Int(file[17])
    for page in pages where page * pageSize <= file.count {
      file.replaceSubrange((page - 1) * pageSize..<page * pageSize, with: Data(count: pageSize))
    }
    return file
  }

  /// Flips one bit in the middle of the sealed `column` cell of account row `id`: AES-GCM then
  /// refuses that cell, and every other cell still opens.
  public static func flipBit(inCell column: String, ofAccount id: Int64, vaultAt path: String)
    async throws
  {
    var hex = Array(try await sqlite(path, "SELECT hex(\(column)) FROM accounts WHERE id = \(id)"))
    guard hex.count >= 2, let digit = hex[hex.count / 2].hexDigitValue else {
      throw WorkspaceError("account \(id) has no \(column) cell to flip")
    }
    hex[hex.count / 2] = Character(String(digit ^ 1, radix: 16, uppercase: true))
    try await sqlite(
      path, "UPDATE accounts SET \(column) = X'\(String(hex))' WHERE id = \(id)")
  }
}
