/// How the vault stands when the UI starts.
public enum VaultAvailability: Sendable, Equatable {
  /// Open: a passphrase variable (`AUTHTUI_PASSPHRASE`, `_FILE`, `_COMMAND`) unlocked it.
  case unlocked
  /// The vault exists and needs its passphrase; `problem` says why a supplied one failed (the
  /// command line's sentence, which names the variable that supplied it).
  case locked(problem: String?)
  /// There is no vault yet: the UI asks for a new passphrase (twice) and creates it.
  case missing
  /// The vault cannot be used at all (unreadable, refused permissions, newer schema): the
  /// sentence that says why and what to do.
  case unusable(String)
}
