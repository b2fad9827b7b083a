import AgentProtocol

extension ExitCode {
  /// What the code means, as the manual page says it.
  var meaning: String {
    switch self {
    case .ok: return "Success."
    case .failure: return "An error that fits no other code."
    case .usage: return "The command line was wrong."
    case .vaultLocked: return "The vault is locked or the passphrase is wrong."
    case .notFound: return "No such account or provider."
    case .signInNeeded:
      return "The account needs a new sign-in (no refresh token, or the provider refused it)."
    case .cancelled: return "The user cancelled, the provider denied, or the wait timed out."
    case .providerError: return "The provider or the network failed."
    }
  }
}
