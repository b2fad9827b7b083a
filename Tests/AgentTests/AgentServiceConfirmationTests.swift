import Accounts
import Foundation
import XCTest

@testable import Agent

/// `AgentService` holding token requests for a person (`agent start --confirm`): which
/// requests wait, what a denied caller is told, and who may see and answer the questions.
final class AgentServiceConfirmationTests: XCTestCase {
  static let ssh = AgentPeer(pid: 77, name: "ssh", executable: "/usr/bin/ssh")

  /// A service over `AgentServiceTests`' vault (sandbox/alice) with `rules` and `desk`.
  func makeService(_ rules: ConfirmationRules, desk: ConfirmationDesk) async throws
    -> (AgentService, String, URL)
  {
    let (plain, vault, folder) = try await AgentServiceTests.makeService()
    let service = AgentService(
      book: await plain.book, vaultPath: vault, confirmation: desk, rules: rules,
      failure: AgentServiceTests.failure)
    return (service, vault, folder)
  }

  /// `operation` asked of `service` by `peer`; `questions` and `confirm` carry the code of
  /// the vault's agent key (as the UI's do) unless `code` says otherwise.
  static func ask(
    _ service: AgentService, _ operation: AgentRequest.Operation, vault: String,
    from peer: AgentPeer, host: String? = nil, code: String?? = .none
  ) async -> AgentResponse? {
    var vaultCode: String?
    if case .some(let given) = code {
      vaultCode = given
    } else if let words = AgentRequest.codedWords(of: operation, vault: vault) {
      vaultCode = try? await service.vault.agentCode(for: words)
    }
    return await service.answer(
      .request(
        AgentRequest(operation: operation, vault: vault, host: host, vaultCode: vaultCode).line),
      from: peer
    ).flatMap(AgentResponse.init(parsing:))
  }

  /// A forwarded `token` request from build01, under way.
  static func forwardedToken(from service: AgentService, vault: String) -> Task<
    AgentResponse?, Never
  > {
    Task { await ask(service, token, vault: vault, from: ssh, host: "build01") }
  }

  struct NoQuestion: Error {}

  /// The first question `service` holds, as the UI's look (once every 20 ms) finds it; fails
  /// after 60 s without one.
  static func heldQuestion(of service: AgentService, vault: String) async throws
    -> ConfirmationQuestion
  {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      if case .questions(let questions)? = await ask(
        service, .questions, vault: vault, from: AgentServiceTests.curl),
        let first = questions.first
      {
        return first
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw NoQuestion()
  }

  /// Allows `question` once, as the UI does: the agent's answer, then what the held `request`
  /// got.
  static func allowOnce(
    _ question: ConfirmationQuestion, of service: AgentService, vault: String,
    _ request: Task<AgentResponse?, Never>
  ) async -> (confirmed: AgentResponse?, answered: AgentResponse?) {
    let confirmed = await ask(
      service, .confirm(id: question.id, decision: .allowOnce), vault: vault,
      from: AgentServiceTests.curl)
    return (confirmed, await request.value)
  }

  /// A local `token` request from curl, under way.
  static func localToken(from service: AgentService, vault: String) -> Task<
    AgentResponse?, Never
  > {
    Task { await ask(service, token, vault: vault, from: AgentServiceTests.curl) }
  }

  static let token = AgentRequest.Operation.token(
    account: "sandbox", minimumValidity: 60, startedAt: nil)

  func testForwardedHoldsAForwardedRequestAndDeniesItWithNobodyToAsk() async throws {
    let (service, vault, folder) = try await makeService(
      ConfirmationRules(mode: .forwarded), desk: ConfirmationDesk(window: 60, command: nil))
    defer { try? FileManager.default.removeItem(at: folder) }
    let denied = await Self.ask(service, Self.token, vault: vault, from: Self.ssh, host: "build01")
    XCTAssertEqual(
      denied,
      .failure(
        CommandFailure(
          exitStatus: 9, code: "not_confirmed",
          message: "the agent asked for confirmation, but no authtui was open on its vault and "
            + "AUTHTUI_CONFIRM_COMMAND is not set: open `authtui` on the vault's machine (it "
            + "asks in a dialog), or set AUTHTUI_CONFIRM_COMMAND for the agent")))
    // A local request is not held: answered without asking anyone.
    let local = await Self.ask(service, Self.token, vault: vault, from: AgentServiceTests.curl)
    XCTAssertEqual(local, .token("stored-alice"))
    // The log has both, the denial with its code.
    let records = await service.records
    XCTAssertEqual(records.map(\.decision), [.refused(code: "not_confirmed", exit: 9), .answered])
    XCTAssertEqual(records.map(\.confirmation), ["nobody to ask", nil])
  }

  /// Any process of the user could allow its own request if it could answer the questions:
  /// only one that unlocked the vault (its requests carry the vault key's code) may see or
  /// answer them, and a look without the code does not count as an open UI.
  func testOnlyAProcessThatUnlockedTheVaultMaySeeOrAnswerTheQuestions() async throws {
    let (service, vault, folder) = try await makeService(
      ConfirmationRules(mode: .always), desk: ConfirmationDesk(window: 600, command: nil))
    defer { try? FileManager.default.removeItem(at: folder) }
    let unproven = CommandFailure(
      exitStatus: 9, code: "confirm_unproven",
      message: "only an authtui that unlocked this vault may see or answer the agent's "
        + "questions; this request carried no code of the vault's key (vault_code), or a "
        + "wrong one")
    let looks = [
      await Self.ask(
        service, .questions, vault: vault, from: AgentServiceTests.curl, code: .some(nil)),
      await Self.ask(
        service, .questions, vault: vault, from: AgentServiceTests.curl, code: "AAAA"),
    ]
    XCTAssertEqual(looks, [.failure(unproven), .failure(unproven)])
    // Those looks did not open a UI: with nobody to ask, the request is denied at once.
    let denied = await Self.ask(service, Self.token, vault: vault, from: AgentServiceTests.curl)
    guard case .failure(let failure)? = denied else {
      return XCTFail("\(String(describing: denied))")
    }
    XCTAssertEqual(failure.code, "not_confirmed")
    // A UI looks; a request is held; a code for another answer, or another question, fails.
    _ = await Self.ask(service, .questions, vault: vault, from: AgentServiceTests.curl)
    let request = Self.localToken(from: service, vault: vault)
    let question = try await Self.heldQuestion(of: service, vault: vault)
    let denyCode = try await service.vault.agentCode(
      for: try XCTUnwrap(
        AgentRequest.codedWords(of: .confirm(id: question.id, decision: .deny), vault: vault)))
    let selfAllowed = await Self.ask(
      service, .confirm(id: question.id, decision: .allowOnce), vault: vault,
      from: AgentServiceTests.curl, code: denyCode)
    XCTAssertEqual(selfAllowed, .failure(unproven))
    let (confirmed, answered) = await Self.allowOnce(question, of: service, vault: vault, request)
    XCTAssertEqual(confirmed, .confirmed(id: question.id, decision: .allowOnce))
    XCTAssertEqual(answered, .token("stored-alice"))
  }

  /// The status names this machine's vault, every account and the local programs that asked:
  /// none of it is lent through a forward.
  func testTheStatusIsRefusedThroughAForward() async throws {
    let (service, vault, folder) = try await makeService(
      ConfirmationRules(), desk: ConfirmationDesk(window: 60, command: nil))
    defer { try? FileManager.default.removeItem(at: folder) }
    let forwarded = await Self.ask(service, .status, vault: vault, from: Self.ssh)
    XCTAssertEqual(
      forwarded,
      .failure(
        CommandFailure(
          exitStatus: 9, code: "status_forwarded",
          message: "a forwarded agent hands out tokens, but shows its status (its vault, the "
            + "requests it answered) only on the machine that holds the vault: run `authtui "
            + "agent status` there")))
    let claimed = await Self.ask(
      service, .status, vault: vault, from: AgentServiceTests.curl, host: "build01")
    XCTAssertEqual(claimed, forwarded)
    guard
      case .status? = await Self.ask(service, .status, vault: vault, from: AgentServiceTests.curl)
    else { return XCTFail("a local status was not answered") }
  }

  func testAForwardedRequestAllowedInTheUIGetsItsTokenAndOnlyALocalPeerMayAnswer() async throws {
    let (service, vault, folder) = try await makeService(
      ConfirmationRules(mode: .forwarded), desk: ConfirmationDesk(window: 600, command: nil))
    defer { try? FileManager.default.removeItem(at: folder) }
    // The UI looks, and is then counted as open.
    let none = await Self.ask(service, .questions, vault: vault, from: AgentServiceTests.curl)
    XCTAssertEqual(none, .questions([]))
    let request = Self.forwardedToken(from: service, vault: vault)
    let question = try await Self.heldQuestion(of: service, vault: vault)
    XCTAssertEqual(question.account, "sandbox/alice")
    XCTAssertEqual(
      question.requester, "forwarded by ssh (pid 77) from \"build01\" (as the remote says)")
    XCTAssertTrue(question.forwarded)
    // The forwarded side can neither see nor answer it.
    let peek = await Self.ask(service, .questions, vault: vault, from: Self.ssh, host: "build01")
    guard case .failure(let refusal)? = peek else { return XCTFail("\(String(describing: peek))") }
    XCTAssertEqual(refusal.code, "confirm_forwarded")
    let selfAllowed = await Self.ask(
      service, .confirm(id: question.id, decision: .allowOnce), vault: vault, from: Self.ssh,
      host: "build01")
    guard case .failure(let forwardedAnswer)? = selfAllowed else {
      return XCTFail("\(String(describing: selfAllowed))")
    }
    XCTAssertEqual(forwardedAnswer.code, "confirm_forwarded")
    // A local peer answers it.
    let (confirmed, answered) = await Self.allowOnce(question, of: service, vault: vault, request)
    XCTAssertEqual(confirmed, .confirmed(id: question.id, decision: .allowOnce))
    XCTAssertEqual(answered, .token("stored-alice"))
    // The log says how it was allowed; the looks at the questions are not in it.
    let records = await service.records
    XCTAssertEqual(
      records.filter { $0.operation == "token" }.map(\.confirmation), ["allowed once in authtui"])
    XCTAssertEqual(records.filter { $0.operation == "confirm" }.map(\.confirmation), [nil, nil])
    XCTAssertFalse(records.contains { $0.operation == "questions" })
    let again = await Self.ask(
      service, .confirm(id: question.id, decision: .deny), vault: vault,
      from: AgentServiceTests.curl)
    guard case .failure(let gone)? = again else { return XCTFail("\(String(describing: again))") }
    XCTAssertEqual(gone.code, "no_such_question")
  }

  func testAnOpenUIsLooksDoNotKeepTheAgentFromItsIdleTimeout() async throws {
    let (service, vault, folder) = try await makeService(
      ConfirmationRules(mode: .forwarded), desk: ConfirmationDesk(window: 60, command: nil))
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = await Self.ask(service, .list, vault: vault, from: AgentServiceTests.curl)
    let since = await service.idleSince()
    let idle = try XCTUnwrap(since)
    for _ in 0..<3 {
      _ = await Self.ask(service, .questions, vault: vault, from: AgentServiceTests.curl)
    }
    let after = await service.idleSince()
    XCTAssertEqual(after, idle)
  }

  func testAnAccountOfConfigJSONIsHeldEvenWhenLocal() async throws {
    let alice = try XCTUnwrap(AccountName("sandbox/alice"))
    let rules = ConfirmationRules(accounts: [alice: .always])
    let (service, vault, folder) = try await makeService(
      rules, desk: ConfirmationDesk(window: 60, command: { _, _ in "said no" }))
    defer { try? FileManager.default.removeItem(at: folder) }
    let denied = await Self.ask(service, Self.token, vault: vault, from: AgentServiceTests.curl)
    guard case .failure(let failure)? = denied else {
      return XCTFail("\(String(describing: denied))")
    }
    XCTAssertEqual(failure.code, "not_confirmed")
    XCTAssertEqual(failure.message, "the agent asked for confirmation and said no")
    // Another account's request, or a name that finds none, is not held.
    let missing = await Self.ask(
      service, .token(account: "nobody/x", minimumValidity: 60, startedAt: nil), vault: vault,
      from: AgentServiceTests.curl)
    guard case .failure(let notFound)? = missing else {
      return XCTFail("\(String(describing: missing))")
    }
    XCTAssertEqual(notFound.code, "no_such_account")
  }
}
