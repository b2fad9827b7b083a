import Accounts
import Foundation
import Providers
import System
import Vault

/// What the UI borrows from the command line, so that both open the vault, word a rejected
/// passphrase and leave an agent running the same way: handed in by the composition root,
/// which builds them from `Commands` (the UI does not import it).
public struct CommandLineAccess: Sendable {
  /// Reads a passphrase from `source` (a variable, a file or a command) and unlocks the vault
  /// with it; nil, or the sentence that says why not and names where the passphrase came from.
  public var unlock: @Sendable (Vault, PassphraseSource) async -> String?
  /// Unlocks the vault with the key `vault unlock --cache` keeps in the kernel keyring, when
  /// one is there and opens it; false, saying nothing, otherwise.
  public var unlockWithCachedKey: @Sendable (Vault) async -> Bool
  /// The sentence for a vault that would not open or unlock.
  public var problem: @Sendable (VaultError) -> String
  /// Under `unlock_once` in config.json, leaves an agent running for the unlocked vault with
  /// the providers of the configuration, as the command line does; returns why none could be
  /// started.
  public var leaveAgentRunning:
    @Sendable (Vault, ConfigurationLocation, [String: String]) async -> String?
  /// The account book over the unlocked vault with these providers, on the real network.
  public var book: @Sendable (Vault, ProviderCatalog) -> AccountBook
  /// The token requests the agent for the vault (found through the environment) holds for a
  /// person (`agent start --confirm`): none when no agent answers for it.
  public var agentQuestions: @Sendable (Vault, [String: String]) async -> [ConfirmationQuestion]
  /// Gives that agent a person's answer to its question: nil, or why it did not take it.
  public var answerAgentQuestion:
    @Sendable (Vault, Int, ConfirmationDecision, [String: String]) async -> String?

  /// The command line's ways, as the composition root has them.
  public init(
    unlock: @escaping @Sendable (Vault, PassphraseSource) async -> String?,
    unlockWithCachedKey: @escaping @Sendable (Vault) async -> Bool,
    problem: @escaping @Sendable (VaultError) -> String,
    leaveAgentRunning:
      @escaping @Sendable (Vault, ConfigurationLocation, [String: String]) async
      -> String?,
    book: @escaping @Sendable (Vault, ProviderCatalog) -> AccountBook,
    agentQuestions:
      @escaping @Sendable (Vault, [String: String]) async -> [ConfirmationQuestion],
    answerAgentQuestion:
      @escaping @Sendable (Vault, Int, ConfirmationDecision, [String: String]) async -> String?
  ) {
    self.unlock = unlock
    self.unlockWithCachedKey = unlockWithCachedKey
    self.problem = problem
    self.leaveAgentRunning = leaveAgentRunning
    self.book = book
    self.agentQuestions = agentQuestions
    self.answerAgentQuestion = answerAgentQuestion
  }
}
