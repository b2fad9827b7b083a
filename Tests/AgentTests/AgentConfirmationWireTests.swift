import Foundation
import XCTest

@testable import Agent

/// The wire forms of the agent's confirmations: the `questions` and `confirm` requests and
/// their answers, read back as written, and what a malformed one is told.
final class AgentConfirmationWireTests: XCTestCase {
  func testQuestionsAndConfirmRequestsReadBackWhatTheyWrite() throws {
    let questions = AgentRequest(operation: .questions, vault: "/v.db")
    XCTAssertEqual(questions.line, #"{"op":"questions","vault":"/v.db"}"#)
    XCTAssertEqual(try AgentRequest(parsing: questions.line), questions)
    for decision in ConfirmationDecision.allCases {
      let confirm = AgentRequest(operation: .confirm(id: 3, decision: decision), vault: "/v.db")
      XCTAssertEqual(
        confirm.line,
        #"{"op":"confirm","id":3,"decision":""# + decision.rawValue + #"","vault":"/v.db"}"#)
      XCTAssertEqual(try AgentRequest(parsing: confirm.line), confirm)
    }
  }

  func testAMalformedConfirmSaysWhatIsWrong() {
    let cases: [(String, String)] = [
      (
        #"{"op":"confirm","decision":"deny","vault":"/v.db"}"#,
        "\"id\" must be the number of a held request"
      ),
      (
        #"{"op":"confirm","id":0,"decision":"deny","vault":"/v.db"}"#,
        "\"id\" must be the number of a held request"
      ),
      (
        #"{"op":"confirm","id":2,"decision":"maybe","vault":"/v.db"}"#,
        "\"decision\" must be \"allow_once\", \"allow_15m\" or \"deny\""
      ),
    ]
    for (line, reason) in cases {
      XCTAssertThrowsError(try AgentRequest(parsing: line), line) {
        XCTAssertEqual(($0 as? MalformedAgentRequest)?.reason, reason, line)
      }
    }
  }

  func testTheAnswersReadBackWhatTheyWrite() throws {
    let question = ConfirmationQuestion(
      id: 7, account: "sandbox/alice",
      requester: "forwarded by ssh (pid 77) from \"build01\" (as the remote says)",
      forwarded: true, deadline: Date(timeIntervalSince1970: 1_800_000_060.5))
    let listed = AgentResponse.questions([question])
    XCTAssertEqual(
      listed.line,
      #"{"ok":true,"questions":[{"id":7,"account":"sandbox/alice","requester":"forwarded by ssh (pid 77) from \"build01\" (as the remote says)","forwarded":true,"deadline":1800000060.5}]}"#
    )
    XCTAssertEqual(AgentResponse(parsing: listed.line), listed)
    XCTAssertEqual(AgentResponse(parsing: AgentResponse.questions([]).line), .questions([]))
    let confirmed = AgentResponse.confirmed(id: 7, decision: .allowFifteenMinutes)
    XCTAssertEqual(confirmed.line, #"{"ok":true,"confirmed":{"id":7,"decision":"allow_15m"}}"#)
    XCTAssertEqual(AgentResponse(parsing: confirmed.line), confirmed)
    // A question missing a part is no answer.
    XCTAssertNil(AgentResponse(parsing: #"{"ok":true,"questions":[{"id":7}]}"#))
  }

  func testTheStricterModeHoldsAndOnlyAlwaysHoldsLocalRequests() {
    XCTAssertEqual(ConfirmationMode.stricter(.forwarded, .always), .always)
    XCTAssertEqual(ConfirmationMode.stricter(nil, .forwarded), .forwarded)
    XCTAssertNil(ConfirmationMode.stricter(nil, nil))
    XCTAssertTrue(ConfirmationMode.forwarded.holds(forwarded: true))
    XCTAssertFalse(ConfirmationMode.forwarded.holds(forwarded: false))
    XCTAssertTrue(ConfirmationMode.always.holds(forwarded: false))
  }

  func testTheCommandsQuestionKeepsARemoteHostNameOnOneLine() {
    let question = ConfirmationQuestion(
      id: 1, account: "sandbox/alice",
      requester: "forwarded by ssh (pid 77) from \"x\naccount: other/bob\" (as the remote says)",
      forwarded: true, deadline: Date())
    let lines = question.commandInput.split(separator: "\n")
    XCTAssertEqual(lines.count, 3)
    XCTAssertEqual(lines.first, "account: sandbox/alice")
    XCTAssertEqual(lines.filter { $0.hasPrefix("account: ") }.count, 1)
  }
}
