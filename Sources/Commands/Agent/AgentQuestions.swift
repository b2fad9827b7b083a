import Agent
import Foundation
import Vault

/// The UI's side of the agent's confirmations: the token requests the agent for its vault
/// holds for a person, and the person's answer (`questions` and `confirm`). The UI asks once
/// a second; each ask tells the agent a UI is open to answer. Each request carries the code
/// of its words under the vault's agent key (`Vault.agentCode`): the agent takes them only
/// from a process that unlocked the vault.
package enum AgentQuestions {
  /// The questions the agent for `vault` holds now; none when no agent answers for it (or
  /// `AUTHTUI_NO_AGENT` is set), or the vault is locked.
  package static func held(for vault: Vault, environment: [String: String]) async
    -> [ConfirmationQuestion]
  {
    guard AgentClient.enabled(environment: environment),
      let request = await request(.questions, for: vault),
      case .questions(let questions)? = await AgentClient.ask(
        request, at: .resolve(environment: environment), timeout: AgentConnection.connectTimeout)
    else { return [] }
    return questions
  }

  /// Gives the agent for `vault` `decision` for its question `id`: nil once it took it, else
  /// why not.
  package static func answer(
    _ id: Int, _ decision: ConfirmationDecision, for vault: Vault,
    environment: [String: String]
  ) async -> String? {
    guard let request = await request(.confirm(id: id, decision: decision), for: vault) else {
      return "the vault is locked: unlock it to answer the agent"
    }
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

  /// `operation` for `vault`, with the code of its words; nil while the vault is locked.
  private static func request(_ operation: AgentRequest.Operation, for vault: Vault) async
    -> AgentRequest?
  {
    let path = vault.location.canonicalPath
    guard let words = AgentRequest.codedWords(of: operation, vault: path),
      let code = try? await vault.agentCode(for: words)
    else { return nil }
    return AgentRequest(operation: operation, vault: path, vaultCode: code)
  }
}
