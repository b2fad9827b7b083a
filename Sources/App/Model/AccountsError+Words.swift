import Accounts
import AuthCore
import Foundation
import Spelling

extension AccountsError {
  /// The sentence for the account list's status line: where the error asks for a new
  /// sign-in, the UI's own key (`s`) instead of the command line's `authtui login …`.
  func listMessage(signInAgainKey key: String) -> String {
    message(signInAgain: "press \(key) to sign in again")
  }

  /// What ended a sign-in, as the flow screen of the ended attempt says it before its retry
  /// key: for the ends a person causes (a decline, no answer, an expired code) in a few words
  /// without the command line's "start a new sign-in" advice, which the retry key replaces;
  /// any other failure in its full sentence, which names its own fix.
  func signInEnding(provider: String) -> String {
    switch self {
    case .auth(.accessDenied(let description, let issuerMissing)):
      let reason = description.map { " (\(TerminalText.cleaned($0)))" } ?? ""
      let note =
        issuerMissing
        ? " Its answer lacked the `iss` it promises (RFC 9207); no code was used." : ""
      return "\(provider) declined the sign-in\(reason).\(note)"
    case .auth(.noAnswer(let waited)):
      return "No answer from \(provider) in \(TimeText.duration(waited)) (the sign-in may have "
        + "been declined)."
    case .auth(.userCodeExpired):
      return "The code expired before it was approved."
    default:
      return message
    }
  }
}
