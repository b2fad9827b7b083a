import Crypto
import Foundation
import System
import Vault

/// `authtui vault init`: creates the vault, asking for its passphrase twice.
struct VaultInitCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "init",
    summary: "Create the vault (0600, in a 0700 folder); the passphrase is asked twice.")

  var global = GlobalOptions()

  func run(console: Console) async -> ExitCode {
    let environment = ProcessInfo.processInfo.environment
    let location = VaultAccess.location(global, environment: environment)
    do throws(CommandFailure) {
      // Refuse before asking for a passphrase that would be thrown away.
      if let problem = location.creationProblem { throw VaultAccess.failure(problem) }
      let vault = try await Self.create(
        at: location, source: .current(environment: environment), report: console.out)
      await vault.close()
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// Creates the vault at `location` (which must not exist) with a passphrase from `source`,
  /// asked twice on a terminal, and returns it unlocked; `report` gets what was made and the
  /// advice to keep the passphrase safe.
  static func create(
    at location: VaultLocation, source: PassphraseSource, report: (String) -> Void
  ) async throws(CommandFailure) -> Vault {
    let passphrase = try await VaultAccess.read(
      source, prompt: "New vault passphrase: ", confirmation: "Repeat the passphrase: ")
    let vault: Vault
    do {
      vault = try await Vault.create(
        at: location, passphrase: passphrase, parameters: .interactive)
    } catch {
      throw VaultAccess.failure(error)
    }
    report(
      """
      Created the vault \(location.fileURL.path)
      (scrypt \(VaultCommand.describe(Scrypt.Parameters.interactive)), AES-256-GCM).
      Keep the passphrase safe: without it the tokens in this vault cannot be recovered.
      """)
    return vault
  }
}
