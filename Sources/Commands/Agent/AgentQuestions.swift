import Agent
import Foundation

/// The UI's side of the agent's confirmations: the token requests the agent for its vault
/// holds for a person, and the person's answer (`questions` and `confirm`). The UI asks once
/// a second; each ask tells the agent a UI is open to answer.
package enum AgentQuestions {
  /// The questions the agent for the vault at `vaultPath` holds now; none when no agent
  /// answers for it (or `AUTHTUI_NO_AGENT` is set).
  package static func held(for vaultPath: String, environment: [String: String]) async
    -> [ConfirmationQuestion]
  {
    guard AgentClient.enabled(environment: environment) else { return [] }
    let request = AgentRequest(operation: .questions, vault: vaultPath)
    guard
      case .questions(let questions)? = await AgentClient.ask(
        request, at: .resolve(environment: environment), timeout: AgentConnection.connectTimeout)
    else { return [] }
    return questions
  }

  /// Gives the agent `decision` for its question `id`: nil once it took it, else why not.
  package static func answer(
    _ id: Int, _ decision: ConfirmationDecision, for vaultPath: String,
    environment: [String: String]
  ) async -> String? {
    let request = AgentRequest(operation: .confirm(id: id, decision: decision), vault: vaultPath)
    switch await AgentClient.exchange(
      request, at: .resolve(environment: environment), timeout: AgentConnection.connectTimeout)
    {
    case .answered(.confirmed): return nil
    case .answered(.failure(let failure)): return failure.message
    case .answered: return "the agent gave an answer of another kind"
    case .noAgent: return "the agent for this vault is gone; its caller got no token"
    case .unanswered: return "the agent did not answer in time"
    }
  }
}
