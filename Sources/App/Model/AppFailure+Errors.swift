import Accounts
import AuthCore

extension AppFailure {
  /// How the UI shows an AuthCore error: its one-sentence message, and the kind the screens
  /// react to (a silent denial reads as the sign-in screen's "no answer", with its retry key).
  public init(_ error: AuthError) {
    switch error {
    case .noAnswer:
      self = .noAnswer
    case .userCodeExpired:
      self.init(.codeExpired, error.message)
    case .cancelled:
      self.init(.cancelled, error.message)
    case .accessDenied:
      self.init(.denied, error.message)
    case .refreshTokenRejected:
      self.init(.signInNeeded, error.message)
    case .transport, .serverError, .unexpectedStatus, .emptyResponse, .nonJSONResponse,
      .malformedResponse, .redirectRefused:
      self.init(.provider, error.message)
    default:
      self.init(.other, error.message)
    }
  }
}

extension AppFailure {
  /// How the UI shows an account error.
  public init(_ error: AccountsError) {
    switch error {
    case .auth(let auth):
      self.init(auth)
    case .signInNeeded:
      self.init(.signInNeeded, error.message)
    default:
      self.init(.other, error.message)
    }
  }
}
