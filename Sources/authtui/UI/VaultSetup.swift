import App
import Commands
import Foundation
import Providers
import System
import Vault

/// How the UI gets its vault and its configuration: the user's (with the passphrase from a
/// variable or the unlock screen), or the demo's throwaway ones.
struct VaultSetup: Sendable {
  /// The vault file.
  let location: VaultLocation
  /// The configuration folder.
  let configuration: ConfigurationLocation
  /// Where a passphrase comes from before the unlock screen (nil: always ask).
  let passphrase: PassphraseSource?
  /// The key derivation cost of a vault created from the UI.
  let newVaultCost: VaultCost
  /// Work to do before the vault is opened (the demo starts its sandbox and writes its files),
  /// returning the passphrase that opens the vault, if it knows it.
  let prepare: @Sendable () async throws(CommandFailure) -> SecretText?

  /// The scrypt cost of a new vault.
  enum VaultCost: Sendable {
    /// The vault's real parameters (N = 2^17).
    case standard
    /// Cheap parameters, for a throwaway vault that protects nothing.
    case throwaway
  }
}
