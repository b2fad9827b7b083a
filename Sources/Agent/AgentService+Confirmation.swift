import Accounts
import Foundation

extension AgentService {
  /// Holds a request that hands out a token (`token`, `export`, `proof`) until a person
  /// answers, when the rules say so for its account and `requester`: what they decided, or nil
  /// when it is not held (answered at once). A name that finds no account is not held (the
  /// work itself then fails as it would), nor a request this agent declines (another vault).
  /// `peer` is the process that connected, which an allowance for 15 minutes is tied to.
  func confirmation(of request: AgentRequest, for requester: Requester, from peer: AgentPeer)
    async -> ConfirmationDesk.Outcome?
  {
    let rules = confirmationRules
    guard !rules.holdsNothing, let text = Self.accountHandedOut(by: request.operation),
      request.vault == vaultPath || requester.isForwarded,
      let record = try? await book.account(named: text), let name = try? record.accountName,
      rules.holds(name, forwarded: requester.isForwarded)
    else { return nil }
    return await confirmation.confirm(
      account: name, requester: requester.description,
      forwarded: requester.isForwarded,
      scope: peer.confirmationScope(forwarded: requester.isForwarded))
  }

  /// The account whose token `operation` hands out, as the caller named it.
  static func accountHandedOut(by operation: AgentRequest.Operation) -> String? {
    switch operation {
    case .token(let account, _, _), .export(let account, _, _),
      .proof(let account, _, _, _, _):
      return account
    case .ping, .list, .logout, .status, .makeDefault, .clearDefault, .rename, .questions,
      .confirm:
      return nil
    }
  }

  /// The answer to `questions` and `confirm`: only a process on this machine that unlocked
  /// the vault (its request carries the vault's code: an authtui UI) may see or answer them,
  /// never one whose request came through a forward, nor any other process of the user:
  /// either could allow its own request.
  func answerAboutConfirmations(_ request: AgentRequest, from requester: Requester)
    async -> AgentResponse
  {
    guard !requester.isForwarded else { return .failure(failure(.confirmationFromAfar)) }
    guard let words = AgentRequest.codedWords(of: request.operation, vault: vaultPath),
      let code = request.vaultCode, await vault.isAgentCode(code, for: words)
    else { return .failure(failure(.confirmationUnproven)) }
    switch request.operation {
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

extension AgentPeer {
  /// Who an allowance for 15 minutes covers, by what the requester cannot choose: a forward
  /// by the ssh client that relays it (its process id and start time: one ssh session, not
  /// the host name its remote side claims); a local process by its executable
  /// (`/proc/PID/exe`), or by its name (`comm`, which a process sets itself) only when the
  /// executable cannot be read (a process that made itself not dumpable, as authtui does).
  func confirmationScope(forwarded: Bool) -> String {
    if forwarded { return "forwarded:\(pid):\(startTime.map(String.init) ?? "?")" }
    if let executable { return "executable:" + executable }
    return "name:" + name
  }
}
