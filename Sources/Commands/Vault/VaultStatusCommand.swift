import Foundation
import System
import Vault

/// `authtui vault status`: the vault's facts, none of them secret, without its passphrase.
struct VaultStatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "status",
    summary:
      "Show the vault's facts: path, schema, key derivation, accounts, permissions, cached key.",
    details: """
      Needs no passphrase and shows no secret. The `unlock key` line says whether `authtui
      vault unlock --cache` keeps the vault's unlock key in the kernel keyring, until when (to
      the second, UTC) and under which name. Exit 1 when the file permissions are not safe (the
      line says the chmod that fixes them).
      """)

  var global = GlobalOptions()

  func run(console: Console) async -> ExitCode {
    let location = VaultAccess.location(global)
    do throws(CommandFailure) {
      let status = try await VaultAccess.inspect(location)
      let permissions: String
      if let problem = status.permissionProblem {
        permissions =
          "0\(String(status.fileMode, radix: 8)), UNSAFE: run `chmod 600 '\(problem.path)'`"
      } else {
        permissions = "0\(String(status.fileMode, radix: 8)), private to its owner"
      }
      let unlockKey =
        UnlockKeyCache.until(vaultID: status.identifier).map {
          "cached in the kernel keyring until \(VaultUnlockCommand.time($0)) "
            + "(user key \(UnlockKeyCache.keyDescription(vaultID: status.identifier)))"
        } ?? "not cached (`authtui vault unlock --cache DURATION` keeps it for a while)"
      console.out(
        """
        vault        \(status.path)
        schema       version \(status.schemaVersion) (this authtui reads up to \(status.supportedSchemaVersion))
        key          scrypt \(VaultCommand.describe(status.kdfParameters)), \(status.saltByteCount)-byte salt; AES-256-GCM cells
        accounts     \(status.accountCount)
        permissions  \(permissions)
        journal      \(status.journalMode)
        unlock key   \(unlockKey)
        """)
      if let problem = status.permissionProblem {
        console.err("authtui: \(problem)")
        return .failure
      }
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }
}
