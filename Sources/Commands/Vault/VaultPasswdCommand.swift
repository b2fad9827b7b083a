import Foundation
import System
import Vault

/// `authtui vault passwd`: changes the vault's passphrase (only the wrapped data key is
/// rewritten).
struct VaultPasswdCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "passwd", summary: "Change the passphrase (only the wrapped data key is rewritten).",
    details: """
      The current passphrase comes as for every command; the new one from
      AUTHTUI_NEW_PASSPHRASE, …_FILE or …_COMMAND, else the terminal. The current one is
      asked even while `vault unlock --cache` keeps the vault's key, and that key, which the
      new passphrase makes stale, is removed from the kernel keyring.
      """)

  var global = GlobalOptions()

  func run(console: Console) async -> ExitCode {
    let environment = ProcessInfo.processInfo.environment
    let location = VaultAccess.location(global, environment: environment)
    do throws(CommandFailure) {
      let vault = try await VaultAccess.open(location)
      try await VaultAccess.unlock(
        vault, with: .current(environment: environment), prompt: "Current vault passphrase: ",
        cachedKey: false)
      let replacement = PassphraseSource.replacement(environment: environment)
      let passphrase = try await VaultAccess.read(
        replacement, prompt: "New vault passphrase: ", confirmation: "Repeat the new passphrase: ")
      do {
        try await vault.changePassphrase(to: passphrase, parameters: .interactive)
      } catch {
        throw VaultAccess.failure(error)
      }
      let id = try? await vault.identifier()
      await vault.close()
      var lines = ["Changed the passphrase of \(location.fileURL.path)."]
      if let id, UnlockKeyCache.forget(vaultID: id) {
        lines.append(
          "Removed the unlock key cached in the kernel keyring: the new passphrase made it "
            + "stale (`authtui vault unlock --cache DURATION` caches the new one).")
      }
      if let variable = PassphraseSource.current(environment: environment).origin.variable {
        lines.append("Update \(variable) where you set it: it gives the old passphrase now.")
      }
      console.out(lines.joined(separator: "\n"))
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }
}
