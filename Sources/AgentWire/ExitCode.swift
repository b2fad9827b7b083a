/// The exit statuses of every authtui command, as the README, docs/configuration.md and DESIGN.md promise them to
/// scripts; the agent's failures carry one, so that the small front exits as the full program
/// would.
public enum ExitCode: Int32, Sendable, CaseIterable {
  /// Success.
  case ok = 0
  /// An error that fits no other code.
  case failure = 1
  /// The command line was wrong.
  case usage = 2
  /// The vault is locked or the passphrase is wrong.
  case vaultLocked = 3
  /// No such account or provider.
  case notFound = 4
  /// The account needs a new sign-in (no refresh token, or the provider said `invalid_grant`).
  case signInNeeded = 5
  /// The user cancelled, the provider denied, or the wait timed out.
  case cancelled = 6
  /// The provider or the network failed.
  case providerError = 7
}

extension ExitCode {
  /// The code's meaning as a snake_case word, for JSON error events and a failure's default
  /// `code`.
  public var name: String {
    switch self {
    case .ok: return "ok"
    case .failure: return "error"
    case .usage: return "usage"
    case .vaultLocked: return "vault_locked"
    case .notFound: return "not_found"
    case .signInNeeded: return "sign_in_needed"
    case .cancelled: return "cancelled"
    case .providerError: return "provider_error"
    }
  }
}
