import App
import Crypto
import Foundation
import Providers
import System
import Vault

/// How the UI gets its vault and its configuration: the user's (with the passphrase from a
/// variable or the unlock screen), or the demo's throwaway ones.
public struct VaultSetup: Sendable {
  /// The vault file.
  public let location: VaultLocation
  /// The configuration folder.
  public let configuration: ConfigurationLocation
  /// Where a passphrase comes from before the unlock screen (nil: always ask).
  public let passphrase: PassphraseSource?
  /// The key derivation cost of a vault created from the UI (the demo's is cheap: its
  /// throwaway vault protects nothing).
  public let newVaultParameters: Scrypt.Parameters
  /// Work to do before the vault is opened (the demo starts its sandbox and writes its files),
  /// returning the passphrase that opens the vault, if it knows it.
  public let prepare: @Sendable () async throws(SetupFailure) -> SecretText?

  /// A setup; `prepare` runs once, before the vault is opened.
  public init(
    location: VaultLocation, configuration: ConfigurationLocation, passphrase: PassphraseSource?,
    newVaultParameters: Scrypt.Parameters,
    prepare: @escaping @Sendable () async throws(SetupFailure) -> SecretText? = { nil }
  ) {
    self.location = location
    self.configuration = configuration
    self.passphrase = passphrase
    self.newVaultParameters = newVaultParameters
    self.prepare = prepare
  }
}

/// Why the UI's setup could not be made: the sentence the unusable screen shows.
public struct SetupFailure: Error, Sendable, Equatable {
  /// What went wrong, and what to do.
  public let message: String

  /// A failure saying `message`.
  public init(_ message: String) {
    self.message = message
  }
}
