import Accounts
import AuthCore
import Foundation
import Spelling

extension AccountsError {
  /// True when another process held the vault's write lock too long (`VaultError.busy`).
  var vaultIsBusy: Bool {
    if case .vault(.busy) = self { return true }
    return false
  }

  /// The sentence for `action` ("rename work/alice") that failed so: a vault kept busy by
  /// another process is named with the action it stopped, which its own sentence cannot say;
  /// any other failure says its own sentence, which names its subject.
  func message(failing action: String) -> String {
    vaultIsBusy ? "could not \(action): \(message)" : message
  }

  /// The sentence for the account list's status line: where the error asks for a new
  /// sign-in, the UI's own key (`s`) instead of the command line's `authtui login …`.
  func listMessage(signInAgainKey key: String) -> String {
    message(signInAgain: "press \(key) to sign in again")
  }

  /// What ended a sign-in, as the flow screen of the ended attempt says it before its retry
  /// key: for the ends a person causes (a decline, no answer, an expired code) in a few words
  /// without the command line's "start a new sign-in" advice, which the retry key replaces;
  /// any other failure in its full sentence, which names its own fix.
  /// `labelKey` names the key that chooses another label on the provider choice, `backKey`
  /// the one that goes back to it; `started` is false for an attempt refused before it asked
  /// the provider anything (a vault that cannot be written).
  func signInEnding(
    provider: String, backKey: String = "Esc", labelKey: String = "l", started: Bool = true
  ) -> String {
    switch self {
    case .vault(.readOnly) where !started:
      return "The sign-in to \(provider) was not started, since its tokens could not be kept: "
        + message
    case .labelTaken(let account):
      // The command line's "another --label": here the label is chosen on the provider choice.
      return "\(account) belongs to another user of the provider; nothing was stored. Go back "
        + "with \(backKey) and choose another label with \(labelKey), or sign \(account) out "
        + "first"
    case .auth(.accessDenied(let description, let issuerMissing)):
      // "(The user declined.)." reads twice-ended: the provider's full stop goes.
      let reason =
        description.map { text in
          var cleaned = TerminalText.cleaned(text)
          while cleaned.hasSuffix(".") { cleaned.removeLast() }
          return " (\(cleaned))"
        } ?? ""
      let note =
        issuerMissing
        ? " Its answer lacked the `iss` it promises (RFC 9207); no code was used." : ""
      return "\(provider) declined the sign-in\(reason).\(note)"
    case .auth(.noAnswer(let waited)):
      return "No answer from \(provider) in \(TimeText.duration(waited)) (the sign-in may have "
        + "been declined)."
    case .auth(.userCodeExpired):
      return "The code expired before it was approved."
    case .vault(.busy):
      return "Could not finish the sign-in to \(provider): \(message)"
    default:
      return message
    }
  }
}
