import App

/// How the UI gets into the vault at start, decided from what is known before anything is
/// asked: whether the vault exists, the passphrase the setup knows (the demo's), and where
/// else one may come from (a variable, a file or a command; never the terminal, which the
/// unlock screen owns).
public enum UnlockPolicy {
  /// The first step.
  public enum Step: Sendable, Equatable {
    /// Create the vault with this passphrase (the setup knows it).
    case create(SecretText)
    /// Show the screen that creates a vault.
    case askToCreate
    /// Unlock with this passphrase (the setup knows it); a wrong one shows the unlock screen
    /// with the reason.
    case unlock(SecretText)
    /// Unlock with the passphrase from the variable, file or command; a wrong one shows the
    /// unlock screen with the sentence that names it.
    case unlockFromSource
    /// Show the unlock screen.
    case ask
  }

  /// The first step for a vault that exists or not (`vaultExists`), with the passphrase the
  /// setup knows (`known`) and whether a passphrase variable, file or command is set
  /// (`sourceOutsideTerminal`).
  public static func firstStep(vaultExists: Bool, known: SecretText?, sourceOutsideTerminal: Bool)
    -> Step
  {
    if !vaultExists { return known.map(Step.create) ?? .askToCreate }
    if let known { return .unlock(known) }
    return sourceOutsideTerminal ? .unlockFromSource : .ask
  }
}
