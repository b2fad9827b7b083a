import Accounts
import Foundation
import Isolation

/// The UI's export of an access token to an env file: `~` expanded, the folder made when it
/// is missing, the file written as `EnvFile` writes it (0600, atomically, its other lines
/// kept). The folder, the write and its fsyncs block: they run on a thread of their own, off
/// the cooperative pool.
public enum EnvFileExport {
  /// Writes `token` as `variable` (with `variable_EXPIRES_AT` when `expiresAt` is known) to
  /// the env file at `path`, as typed; a failure names the file as typed.
  public static func write(
    token: String, expiresAt: Date?, variable: String, path: String
  ) async throws(AccountsError) {
    let expanded = EnvFile.expandingHome(path)
    try await onOwnThread(named: "env-file") { () throws(AccountsError) in
      do throws(EnvFile.FolderError) {
        try EnvFile.createFolder(of: expanded)
      } catch {
        throw .envFile(
          path: path,
          reason: "its folder cannot be created (\(error.reason)); choose another file")
      }
      try EnvFile.write(variable: variable, value: token, expiresAt: expiresAt, to: expanded)
    }
  }
}
