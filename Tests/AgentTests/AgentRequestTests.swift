import Foundation
import XCTest

@testable import Agent

final class AgentRequestTests: XCTestCase {
  func testTokenRequestReadsBackWhatItWrites() throws {
    let request = AgentRequest(
      operation: .token(
        account: "simkl/alice", minimumValidity: 120,
        startedAt: Date(timeIntervalSince1970: 1_712_345_678.25)),
      vault: "/home/a/vault.db")
    XCTAssertEqual(
      request.line,
      #"{"op":"token","account":"simkl/alice","min_valid":120,"vault":"/home/a/vault.db","started_at":1712345678.25}"#
    )
    XCTAssertEqual(try AgentRequest(parsing: request.line), request)
  }

  func testPingRequestReadsBackWhatItWrites() throws {
    let request = AgentRequest(operation: .ping, vault: "/v.db")
    XCTAssertEqual(request.line, #"{"op":"ping","vault":"/v.db"}"#)
    XCTAssertEqual(try AgentRequest(parsing: request.line), request)
  }

  func testStatusRequestReadsBackWhatItWrites() throws {
    let request = AgentRequest(operation: .status, vault: "/v.db")
    XCTAssertEqual(request.line, #"{"op":"status","vault":"/v.db"}"#)
    XCTAssertEqual(try AgentRequest(parsing: request.line), request)
  }

  func testTokenRequestDefaultsToSixtySecondsAndNoStart() throws {
    let request = try AgentRequest(parsing: #"{"op":"token","account":"simkl","vault":"/v.db"}"#)
    XCTAssertEqual(
      request.operation, .token(account: "simkl", minimumValidity: 60, startedAt: nil))
  }

  func testMalformedRequestsSayWhatIsWrong() {
    let cases: [(String, String)] = [
      ("not json", "the request is not a JSON object on one line"),
      ("[1,2]", "the request is not a JSON object on one line"),
      (#"{"op":"ping"}"#, "\"vault\" must be the absolute path of the vault"),
      (#"{"op":"ping","vault":"relative.db"}"#, "\"vault\" must be the absolute path of the vault"),
      (#"{"op":"ping","vault":7}"#, "\"vault\" must be the absolute path of the vault"),
      (#"{"op":"shutdown","vault":"/v.db"}"#, "\"op\" must be \"token\", \"ping\" or \"status\""),
      (#"{"vault":"/v.db"}"#, "\"op\" must be \"token\", \"ping\" or \"status\""),
      (#"{"op":"token","vault":"/v.db"}"#, "\"account\" must name an account (PROVIDER/LABEL)"),
      (
        #"{"op":"token","account":"","vault":"/v.db"}"#,
        "\"account\" must name an account (PROVIDER/LABEL)"
      ),
      (
        #"{"op":"token","account":"a","min_valid":-1,"vault":"/v.db"}"#,
        "\"min_valid\" must be a whole number of seconds"
      ),
      (
        #"{"op":"token","account":"a","min_valid":1.5,"vault":"/v.db"}"#,
        "\"min_valid\" must be a whole number of seconds"
      ),
      (
        #"{"op":"token","account":"a","min_valid":31536001,"vault":"/v.db"}"#,
        "\"min_valid\" must be a whole number of seconds"
      ),
      (
        #"{"op":"token","account":"a","min_valid":"60","vault":"/v.db"}"#,
        "\"min_valid\" must be a whole number of seconds"
      ),
      (
        #"{"op":"token","account":"a","started_at":0,"vault":"/v.db"}"#,
        "\"started_at\" must be seconds since 1970"
      ),
      (
        #"{"op":"token","account":"a","started_at":"now","vault":"/v.db"}"#,
        "\"started_at\" must be seconds since 1970"
      ),
    ]
    for (line, reason) in cases {
      XCTAssertThrowsError(try AgentRequest(parsing: line), line) {
        XCTAssertEqual(($0 as? MalformedAgentRequest)?.reason, reason, line)
      }
    }
  }

  func testLongestValidityIsAYear() throws {
    let request = try AgentRequest(
      parsing: #"{"op":"token","account":"a","min_valid":31536000,"vault":"/v.db"}"#)
    XCTAssertEqual(
      request.operation,
      .token(account: "a", minimumValidity: AgentRequest.maximumValidity, startedAt: nil))
  }
}

final class AgentResponseTests: XCTestCase {
  func testEachAnswerReadsBackWhatItWrites() {
    let answers: [(AgentResponse, String)] = [
      (.token("tok-en"), #"{"ok":true,"token":"tok-en"}"#),
      (.pong(pid: 4242, vault: "/v.db"), #"{"ok":true,"pid":4242,"vault":"/v.db"}"#),
      (
        .failure(AgentFailure(exitStatus: 5, code: "sign_in_needed", message: "sign in again")),
        #"{"ok":false,"exit":5,"code":"sign_in_needed","message":"sign in again"}"#
      ),
      (
        .status(
          AgentStatus(
            pid: 42, vault: "/v.db", since: 1_712_345_678.25, idleTimeout: 3600,
            accounts: [
              AgentStatus.Account(
                name: "simkl/alice", expiresAt: 1_712_349_278, signInNeeded: false,
                refreshable: true, nextRefresh: 1_712_348_978),
              AgentStatus.Account(
                name: "hivesigner/bob", expiresAt: nil, signInNeeded: true, refreshable: false,
                nextRefresh: nil),
            ])),
        #"{"ok":true,"pid":42,"vault":"/v.db","since":1712345678.25,"idle_timeout":3600,"accounts":[{"account":"simkl/alice","expires_at":1712349278.0,"sign_in_needed":false,"refreshable":true,"next_refresh":1712348978.0},{"account":"hivesigner/bob","expires_at":null,"sign_in_needed":true,"refreshable":false,"next_refresh":null}]}"#
      ),
      (
        .status(AgentStatus(pid: 7, vault: "/v.db", since: 1, idleTimeout: nil, accounts: [])),
        #"{"ok":true,"pid":7,"vault":"/v.db","since":1.0,"idle_timeout":null,"accounts":[]}"#
      ),
    ]
    for (answer, line) in answers {
      XCTAssertEqual(answer.line, line)
      XCTAssertEqual(AgentResponse(parsing: line), answer)
    }
  }

  func testAnythingElseIsNoAnswer() {
    for line in [
      "", "garbage", "[]", #"{"token":"t"}"#, #"{"ok":"yes","token":"t"}"#, #"{"ok":true}"#,
      #"{"ok":true,"pid":1.5,"vault":"/v"}"#, #"{"ok":false,"exit":5,"code":"x"}"#,
      #"{"ok":false,"exit":"5","code":"x","message":"m"}"#,
      #"{"ok":true,"pid":7,"vault":"/v","since":1,"idle_timeout":-1,"accounts":[]}"#,
      #"{"ok":true,"pid":7,"vault":"/v","since":1,"idle_timeout":null,"accounts":[{"account":"a"}]}"#,
      #"{"ok":true,"pid":7,"vault":"/v","since":1,"accounts":[]}"#,
    ] {
      XCTAssertNil(AgentResponse(parsing: line), line)
    }
  }

  func testOnlyRequestProblemsAreDeclined() {
    func failure(_ code: String) -> AgentResponse {
      .failure(AgentFailure(exitStatus: 1, code: code, message: "m"))
    }
    XCTAssertTrue(failure("other_vault").declined)
    XCTAssertTrue(failure("bad_request").declined)
    XCTAssertFalse(failure("sign_in_needed").declined)
    XCTAssertFalse(AgentResponse.token("t").declined)
  }

  func testRefusalsAboutTheRequestCarryTheCodesThatDeclineThem() {
    let other = AgentRefusal.otherVault(served: "/a.db", asked: "/b.db")
    XCTAssertEqual(other.code, "other_vault")
    XCTAssertEqual(
      other.message,
      "this agent serves the vault /a.db, not /b.db; run another agent for that vault with its "
        + "own AUTHTUI_AGENT_SOCKET")
    XCTAssertEqual(AgentRefusal.badRequest("why").code, "bad_request")
    XCTAssertEqual(AgentRefusal.badRequest("why").message, "why")
  }
}
