import Accounts
import AuthCore

extension AccountsError {
  /// The sentence the sign-in screen shows under its countdown. An attempt that ran out of
  /// time is said in a few words: the countdown above already shows the wait, and the retry
  /// hint below says what to do, so the command line's full advice would only repeat them.
  /// The sentence for the account list's status line: where the error asks for a new
  /// sign-in, the UI's own key (`s`) instead of the command line's `authtui login …`.
  func listMessage(signInAgainKey key: String) -> String {
    message(signInAgain: "press \(key) to sign in again")
  }

  var signInScreenMessage: String {
    switch self {
    case .auth(.noAnswer):
      return "no answer from the provider (the sign-in may have been declined)"
    case .auth(.userCodeExpired):
      return "the code expired before it was approved"
    default:
      return message
    }
  }
}
