import App
import Commands
import Crypto
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
  /// The key derivation cost of a vault created from the UI (the demo's is cheap: its
  /// throwaway vault protects nothing).
  let newVaultParameters: Scrypt.Parameters
  /// Work to do before the vault is opened (the demo starts its sandbox and writes its files),
  /// returning the passphrase that opens the vault, if it knows it.
  let prepare: @Sendable () async throws(CommandFailure) -> SecretText?
}
