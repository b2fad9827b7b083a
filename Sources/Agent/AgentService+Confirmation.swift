import Accounts
import Foundation

extension AgentService {
  /// Holds a request that hands out a token of the account `text` names until a person
  /// allows it, when the rules say so for that account and `requester`: nil when it may go
  /// on (at once when it is not held), else the `not_confirmed` failure. A name that finds no
  /// account is not held: the work itself then fails as it would.
  func confirmation(of text: String, for requester: Requester) async -> AgentResponse? {
    let rules = confirmationRules
    guard !rules.holdsNothing, let record = try? await book.account(named: text),
      let name = try? record.accountName,
      rules.holds(name, forwarded: requester.isForwarded)
    else { return nil }
    let outcome = await confirmation.confirm(
      account: name.description, requester: requester.description,
      forwarded: requester.isForwarded, scope: requester.confirmationScope)
    guard outcome.allowed else {
      return .failure(failure(.notConfirmed(outcome, window: confirmation.window)))
    }
    return nil
  }

  /// The answer to `questions` and `confirm`: only a process on this machine may see or
  /// answer them, never one whose request came through a forward (it could allow its own).
  func answerAboutConfirmations(_ operation: AgentRequest.Operation, from requester: Requester)
    async -> AgentResponse
  {
    guard !requester.isForwarded else { return .failure(failure(.confirmationFromAfar)) }
    switch operation {
    case .confirm(let id, let decision):
      guard await confirmation.answer(id, with: decision) else {
        return .failure(failure(.noSuchQuestion(id)))
      }
      return .confirmed(id: id, decision: decision)
    default:
      return .questions(await confirmation.questions())
    }
  }
}

extension Requester {
  /// Who an allowance for 15 minutes covers: a local process by its name, a forward by the
  /// host its remote side names (not by process id: a new connection is a new ssh process).
  var confirmationScope: String {
    switch self {
    case .local(let name, _): return "local:" + name
    case .forwarded(_, _, let host): return "forwarded:" + (host ?? "")
    }
  }
}
