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
