import Accounts

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
    }
  }
}
