import Accounts
import Foundation

/// Why the agent did not give the token asked for: the kinds of failure its answers carry. The
/// command line gives each its exit status, as for `authtui token` run on its own.
package enum AgentRefusal: Sendable {
  /// The account's own failure (no such account, sign-in needed, the provider failed…).
  case account(AccountsError)
  /// This agent serves the vault `served`, not the one asked for (`other_vault`).
  case otherVault(served: String, asked: String)
  /// The request could not be read (`bad_request`).
  case badRequest(String)
  /// The answer would be longer than a client reads (`answer_too_long`): a listing of
  /// hundreds of accounts. The caller then reads the vault itself.
  case answerTooLong(bytes: Int)
  /// The agent is stopping and takes no new request (`agent_stopping`).
  case stopping
  /// The agent for `vault` is reading `connections` requests already, its limit, and closed
  /// this one unread (`agent_busy`): the caller tries again shortly, then says so.
  case busy(vault: String, connections: Int)
  /// The request waited for a person (`agent start --confirm`) and was not allowed
  /// (`not_confirmed`): what became of it.
  case notConfirmed(ConfirmationDesk.Outcome, window: TimeInterval)
  /// A `questions` or `confirm` request came through a forward (`confirm_forwarded`): only a
  /// process on the agent's machine may answer its questions.
  case confirmationFromAfar
  /// A `questions` or `confirm` request without the vault's code (`confirm_unproven`): only a
  /// process that unlocked the vault (an authtui UI) may see or answer the questions, not any
  /// process of the user, which could otherwise allow its own request.
  case confirmationUnproven
  /// A `confirm` named no question that waits (`no_such_question`): answered already, or
  /// past its window.
  case noSuchQuestion(Int)
  /// A sign-out, rename or default change came through a forward (`manage_forwarded`): a
  /// forward lends the remote machine tokens to use, not the accounts to change or revoke.
  case managementFromAfar
  /// A `status` came through a forward (`status_forwarded`): the agent's status names this
  /// machine's vault path, every account and which local programs asked for them, none of
  /// which a forward lends.
  case statusFromAfar

  /// The stable machine name (the answer's `code`); an account's failure is named by the
  /// command line, as for `authtui token`.
  package var code: String {
    switch self {
    case .account(let error): return error.code
    case .otherVault: return "other_vault"
    case .badRequest: return "bad_request"
    case .answerTooLong: return "answer_too_long"
    case .stopping: return "agent_stopping"
    case .busy: return AgentConnection.busyCode
    case .notConfirmed: return "not_confirmed"
    case .confirmationFromAfar: return "confirm_forwarded"
    case .confirmationUnproven: return "confirm_unproven"
    case .noSuchQuestion: return "no_such_question"
    case .managementFromAfar: return "manage_forwarded"
    case .statusFromAfar: return "status_forwarded"
    }
  }

  /// The sentence for standard error (for an account's failure, the command line's words).
  package var message: String {
    switch self {
    case .account(let error): return error.message
    case .otherVault(let served, let asked):
      return "this agent serves the vault \(served), not \(asked); run another agent for "
        + "that vault with its own AUTHTUI_AGENT_SOCKET"
    case .badRequest(let reason): return reason
    case .answerTooLong(let bytes):
      return "the answer (\(bytes) bytes) is longer than the \(AgentConnection.maximumAnswerBytes) "
        + "bytes a client reads; run the command with AUTHTUI_NO_AGENT=1"
    case .stopping: return "the agent is stopping; the command does without it"
    case .busy(let vault, let connections):
      return "the agent for \(vault) is busy (\(connections) connections); try again in a moment"
    case .notConfirmed(let outcome, let window):
      return Self.notConfirmedMessage(outcome, window: window)
    case .confirmationFromAfar:
      return "only a process on the agent's machine may see or answer its questions; this "
        + "request came through a forward"
    case .confirmationUnproven:
      return "only an authtui that unlocked this vault may see or answer the agent's questions; "
        + "this request carried no code of the vault's key (vault_code), or a wrong one"
    case .noSuchQuestion(let id):
      return "no request \(id) waits for confirmation (answered already, or past its "
        + "deadline)"
    case .managementFromAfar:
      return "a forwarded agent hands out tokens, but does not sign out, rename or change the "
        + "default of the accounts it serves; do that on the machine that holds the vault"
    case .statusFromAfar:
      return "a forwarded agent hands out tokens, but shows its status (its vault, the "
        + "requests it answered) only on the machine that holds the vault: run `authtui agent "
        + "status` there"
    }
  }
}

extension AgentRefusal {
  /// Where a person confirms, said to every denied caller.
  static let whereToConfirm =
    "open `authtui` on the vault's machine (it asks in a dialog), or set "
    + "AUTHTUI_CONFIRM_COMMAND for the agent"

  /// What became of a held request, and where to confirm the next one.
  static func notConfirmedMessage(_ outcome: ConfirmationDesk.Outcome, window: TimeInterval)
    -> String
  {
    let seconds = Int(window.rounded())
    switch outcome {
    case .deniedInUI:
      return "the agent asked for confirmation and it was denied in authtui's dialog"
    case .deniedByCommand(let reason):
      return "the agent asked for confirmation and \(reason)"
    case .timedOut:
      return "the agent asked for confirmation and nobody allowed it within \(seconds) s: "
        + whereToConfirm
    case .agentStopped:
      return "the agent asked for confirmation, but it was stopped before anyone answered; "
        + "ask again"
    case .tooManyHeld:
      return "the agent holds \(ConfirmationDesk.mostHeld) requests for confirmation already, "
        + "so it denied this one without asking; ask again once they are answered"
    case .nobodyToAsk, .allowedInUI, .allowedByCommand, .allowedEarlier:
      return "the agent asked for confirmation, but no authtui was open on its vault and "
        + "AUTHTUI_CONFIRM_COMMAND is not set: " + whereToConfirm
    }
  }
}
