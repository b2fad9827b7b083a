import Testing

@testable import AgentProtocol
@testable import AgentWire

/// The front reads the agent's answers with `TokenAnswer`, the full program with
/// `AgentResponse`: the same lines must read the same.
@Suite struct TokenAnswerTests {
  static let alice = AccountName(provider: "sandbox", label: "alice")

  @Test(arguments: [
    AgentResponse.token("tok-123"),
    .notedToken("tok-123", note: "sandbox/alice's token is valid for 42s more"),
    .failure(CommandFailure(exitStatus: 5, code: "sign_in_needed", message: "sign in again")),
    .failure(CommandFailure(exitStatus: 1, code: "agent_busy", message: "busy")),
  ])
  func readsATokenOrAFailureAsTheFullProgramDoes(_ response: AgentResponse) throws {
    let answer = try #require(TokenAnswer(parsing: response.line))
    switch (answer, response) {
    case (.token(let token), .token(let expected)): #expect(token == expected)
    case (.notedToken(let token, let note), .notedToken(let expected, let expectedNote)):
      #expect(token == expected && note == expectedNote)
    case (.failure(let failure), .failure(let expected)): #expect(failure == expected)
    default: Issue.record("\(answer) read from \(response.line)")
    }
    #expect(answer.failed == response.failed)
  }

  @Test(arguments: [nil, "eyJ0eXAiOiJkcG9wK2p3dCJ9.e30.sig"])
  func readsTheHeadersOfAProof(_ proof: String?) throws {
    let response = AgentProof(account: Self.alice, token: "tok", proof: proof)
    let answer = try #require(TokenAnswer(parsing: AgentResponse.proof(response).line))
    guard case .headers(let headers) = answer else {
      Issue.record("\(answer)")
      return
    }
    #expect(headers.lines == response.headerLines)
    #expect(headers.tokenType == response.tokenType)
  }

  /// Answers to other requests, and lines that are no answer, are not the front's to read.
  @Test(arguments: [
    AgentResponse.pong(pid: 42, vault: "/v.db").line,
    AgentResponse.confirmed(id: 3, decision: .allowOnce).line,
    #"{"ok":true,"proof":{"account":"sandbox/alice","token":"t","token_type":"DPoP","proof":null}}"#,
    #"{"ok":true,"proof":{"account":"sandbox/alice","token":"t","token_type":"Bearer","proof":"p"}}"#,
    #"{"ok":false,"exit":0,"code":"x","message":"m"}"#,
    #"{"ok":false,"exit":126,"code":"x","message":"m"}"#,
    #"{"token":"t"}"#, "not json", "",
  ])
  func readsNothingElse(_ line: String) {
    #expect(TokenAnswer(parsing: line) == nil)
  }

  /// A failure about the request itself makes the caller unlock the vault instead, on both
  /// sides.
  @Test(arguments: [
    ("other_vault", true), ("bad_request", true), ("answer_too_long", true),
    ("agent_stopping", true), ("sign_in_needed", false), ("agent_busy", false),
  ])
  func declinesOnlyForTheRequestsOwnFailures(_ code: String, declined: Bool) {
    let failure = CommandFailure(exitStatus: 1, code: code, message: "m")
    #expect(failure.declinesRequest == declined)
    #expect(AgentResponse.failure(failure).declined == declined)
  }
}
