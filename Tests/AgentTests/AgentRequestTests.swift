import Foundation
import TestSupport
import XCTest

@testable import Agent

final class AgentRequestTests: XCTestCase {
  static let unknownOperation =
    #""op" must be "token", "ping", "list", "export", "logout", "status", "default", "rename", "#
    + #""proof", "questions" or "confirm""#

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

  func testProofRequestReadsBackWhatItWritesWithItsMethodInCapitals() throws {
    let url = try XCTUnwrap(URL(string: "https://api.example.com/me?page=2"))
    let request = AgentRequest(
      operation: .proof(
        account: "work/alice", minimumValidity: 60,
        startedAt: Date(timeIntervalSince1970: 1_712_345_678.25), method: "GET", url: url),
      vault: "/v.db")
    XCTAssertEqual(
      request.line,
      #"{"op":"proof","account":"work/alice","min_valid":60,"method":"GET","url":"https://api.example.com/me?page=2","vault":"/v.db","started_at":1712345678.25}"#
    )
    XCTAssertEqual(try AgentRequest(parsing: request.line), request)
    let lowercase = try AgentRequest(
      parsing:
        #"{"op":"proof","account":"work/alice","method":"post","url":"http://127.0.0.1:9/x","vault":"/v.db"}"#
    )
    guard case .proof(_, 60, nil, "POST", let read) = lowercase.operation else {
      return XCTFail("\(lowercase)")
    }
    XCTAssertEqual(read.absoluteString, "http://127.0.0.1:9/x")
  }

  func testProofRequestsWithoutAMethodOrAnAbsoluteWebURLAreRefused() {
    let cases: [(String, String)] = [
      (
        #""method":"G ET","url":"https://a.example/""#,
        #""method" must be an HTTP method (GET, POST…)"#
      ),
      (#""url":"https://a.example/""#, #""method" must be an HTTP method (GET, POST…)"#),
      (
        #""method":"GET","url":"ftp://a.example/""#, #""url" must be an absolute https or http URL"#
      ),
      (#""method":"GET","url":"/relative""#, #""url" must be an absolute https or http URL"#),
      (
        #""method":"GET","url":"https://a.example/x y""#,
        #""url" must be an absolute https or http URL"#
      ),
      (#""method":"GET""#, #""url" must be an absolute https or http URL"#),
    ]
    for (members, reason) in cases {
      let line = #"{"op":"proof","account":"work/alice","vault":"/v.db","# + members + "}"
      XCTAssertThrowsError(try AgentRequest(parsing: line), line) { error in
        XCTAssertEqual((error as? MalformedAgentRequest)?.reason, reason, line)
      }
    }
  }

  /// A vault whose first folder starts with a combining mark is still an absolute path.
  func testVaultPathStartingWithASlashBeforeACombiningMarkIsAbsolute() throws {
    let request = AgentRequest(operation: .ping, vault: "/\u{349}o/v.db")
    XCTAssertEqual(try AgentRequest(parsing: request.line), request)
    XCTAssertThrowsError(try AgentRequest(parsing: #"{"op":"ping","vault":"\u0349/v.db"}"#))
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

  func testAccountRequestsReadBackWhatTheyWrite() throws {
    let requests: [(AgentRequest, String)] = [
      (AgentRequest(operation: .list, vault: "/v.db"), #"{"op":"list","vault":"/v.db"}"#),
      (
        AgentRequest(
          operation: .export(
            account: "simkl/alice", startedAt: Date(timeIntervalSince1970: 1_712_345_678.25)),
          vault: "/v.db"),
        #"{"op":"export","account":"simkl/alice","vault":"/v.db","started_at":1712345678.25}"#
      ),
      (
        AgentRequest(operation: .export(account: "simkl", startedAt: nil), vault: "/v.db"),
        #"{"op":"export","account":"simkl","vault":"/v.db"}"#
      ),
      (
        AgentRequest(
          operation: .export(account: "simkl", startedAt: nil, minimumValidity: 600),
          vault: "/v.db"),
        #"{"op":"export","account":"simkl","min_valid":600,"vault":"/v.db"}"#
      ),
      (
        AgentRequest(operation: .logout(account: "#3", localOnly: true), vault: "/v.db"),
        ##"{"op":"logout","account":"#3","local_only":true,"vault":"/v.db"}"##
      ),
      (
        AgentRequest(operation: .makeDefault(account: "simkl/bob"), vault: "/v.db"),
        #"{"op":"default","account":"simkl/bob","vault":"/v.db"}"#
      ),
      (
        AgentRequest(operation: .clearDefault(provider: "simkl"), vault: "/v.db"),
        #"{"op":"default","clear":"simkl","vault":"/v.db"}"#
      ),
      (
        AgentRequest(operation: .rename(account: "simkl/1029", label: "bob"), vault: "/v.db"),
        #"{"op":"rename","account":"simkl/1029","label":"bob","vault":"/v.db"}"#
      ),
    ]
    for (request, line) in requests {
      XCTAssertEqual(request.line, line)
      XCTAssertEqual(try AgentRequest(parsing: line), request)
    }
    // A logout that does not say is a full one, with revocation.
    XCTAssertEqual(
      try AgentRequest(parsing: #"{"op":"logout","account":"a","vault":"/v.db"}"#).operation,
      .logout(account: "a", localOnly: false))
  }

  func testAForwardedRequestCarriesTheHostTheRemoteGives() throws {
    let request = AgentRequest(
      operation: .token(account: "simkl/alice", minimumValidity: 60, startedAt: nil),
      vault: "/home/b/vault.db", host: "build01")
    XCTAssertEqual(
      request.line,
      #"{"op":"token","account":"simkl/alice","min_valid":60,"vault":"/home/b/vault.db","host":"build01"}"#
    )
    XCTAssertEqual(try AgentRequest(parsing: request.line), request)
    XCTAssertNil(try AgentRequest(parsing: #"{"op":"ping","vault":"/v.db"}"#).host)
    // A quote, a space or a control character would let the remote write its own words
    // into the question a person answers.
    let bad = [
      #""""#, "7", "\"" + String(repeating: "h", count: 256) + "\"",
      #""build01\" (as the remote says) — verified: your laptop. \"x""#, #""two words""#,
      #""tab\there""#, #""caf\u00e9""#,
    ]
    for host in bad {
      XCTAssertThrowsError(
        try AgentRequest(parsing: #"{"op":"ping","vault":"/v.db","host":"# + host + "}")
      ) {
        XCTAssertEqual(
          $0 as? MalformedAgentRequest,
          MalformedAgentRequest(
            "\"host\" must be a host name of 1 to 255 bytes (letters, digits, '.', '-' and "
              + "'_')"), host)
      }
    }
    XCTAssertEqual(
      try AgentRequest(parsing: #"{"op":"ping","vault":"/v.db","host":"Build-01.lan_2"}"#)
        .host, "Build-01.lan_2")
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
      (#"{"op":"shutdown","vault":"/v.db"}"#, Self.unknownOperation),
      (#"{"vault":"/v.db"}"#, Self.unknownOperation),
      (#"{"op":"export","vault":"/v.db"}"#, "\"account\" must name an account (PROVIDER/LABEL)"),
      (
        #"{"op":"logout","account":7,"vault":"/v.db"}"#,
        "\"account\" must name an account (PROVIDER/LABEL)"
      ),
      (
        #"{"op":"logout","account":"a","local_only":"yes","vault":"/v.db"}"#,
        "\"local_only\" must be true or false"
      ),
      (
        #"{"op":"export","account":"a","started_at":-5,"vault":"/v.db"}"#,
        "\"started_at\" must be seconds since 1970"
      ),
      (#"{"op":"list","vault":"v.db"}"#, "\"vault\" must be the absolute path of the vault"),
      (#"{"op":"default","vault":"/v.db"}"#, "\"account\" must name an account (PROVIDER/LABEL)"),
      (
        #"{"op":"rename","account":"simkl/1","vault":"/v.db"}"#,
        "\"label\" must be the account's new label"
      ),
      (
        #"{"op":"rename","account":"simkl/1","label":"","vault":"/v.db"}"#,
        "\"label\" must be the account's new label"
      ),
      (
        #"{"op":"rename","label":"bob","vault":"/v.db"}"#,
        "\"account\" must name an account (PROVIDER/LABEL)"
      ),
      (
        #"{"op":"default","clear":"simkl","account":"simkl/bob","vault":"/v.db"}"#,
        "\"clear\" must name a provider, and comes without \"account\""
      ),
      (
        #"{"op":"default","clear":"","vault":"/v.db"}"#,
        "\"clear\" must name a provider, and comes without \"account\""
      ),
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
        "\"min_valid\" takes at most 31536000 seconds (a year)"
      ),
      (
        #"{"op":"token","account":"a","min_valid":34560000,"vault":"/v.db"}"#,
        "\"min_valid\" takes at most 31536000 seconds (a year)"
      ),
      (
        #"{"op":"token","account":"a","min_valid":1e300,"vault":"/v.db"}"#,
        "\"min_valid\" takes at most 31536000 seconds (a year)"
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
      (.notedToken("tok-en", note: "short"), #"{"ok":true,"token":"tok-en","note":"short"}"#),
      (.pong(pid: 4242, vault: "/v.db"), #"{"ok":true,"pid":4242,"vault":"/v.db"}"#),
      (
        .failure(CommandFailure(exitStatus: 5, code: "sign_in_needed", message: "sign in again")),
        #"{"ok":false,"exit":5,"code":"sign_in_needed","message":"sign in again"}"#
      ),
      (
        .status(
          AgentStatus(
            pid: 42, vault: "/v.db", since: 1_712_345_678.25, idleTimeout: 3600,
            accounts: [
              AgentStatus.Account(
                AccountSummary(
                  name: AccountName(provider: "simkl", label: "alice"),
                  expiresAt: Date(timeIntervalSince1970: 1_712_349_278), tokenType: nil,
                  refreshable: true),
                nextRefresh: Date(timeIntervalSince1970: 1_712_348_978)),
              AgentStatus.Account(
                AccountSummary(
                  name: AccountName(provider: "hivesigner", label: "bob"), hasAccessToken: false,
                  tokenType: nil),
                nextRefresh: nil),
              AgentStatus.Account(
                AccountSummary(
                  name: AccountName(provider: "work", label: "dana"), tokenType: nil,
                  isDPoPBound: true, dpopThumbprint: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"),
                nextRefresh: nil),
            ])),
        #"{"ok":true,"pid":42,"vault":"/v.db","since":1712345678.25,"idle_timeout":3600,"ends_at":null,"accounts":[{"account":"simkl/alice","expires_at":1712349278.0,"sign_in_needed":false,"refreshable":true,"next_refresh":1712348978.0},{"account":"hivesigner/bob","expires_at":null,"sign_in_needed":true,"refreshable":false,"next_refresh":null},"#
          + #"{"account":"work/dana","expires_at":null,"sign_in_needed":false,"refreshable":false,"next_refresh":null,"dpop_bound":true,"dpop_jkt":"NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"}],"requests":[]}"#
      ),
      (
        .status(AgentStatus(pid: 7, vault: "/v.db", since: 1, idleTimeout: nil, accounts: [])),
        #"{"ok":true,"pid":7,"vault":"/v.db","since":1.0,"idle_timeout":null,"ends_at":null,"accounts":[],"requests":[]}"#
      ),
      (
        .status(
          AgentStatus(
            pid: 7, vault: "/v.db", since: 1, idleTimeout: nil, endsAt: 91.5, accounts: [],
            requests: [
              AgentRequestRecord(
                time: 2.5, operation: "token", account: "simkl/alice",
                requester: .local(name: "curl", pid: 4242), decision: .answered),
              AgentRequestRecord(
                time: 3, operation: "token", account: "nobody",
                requester: .forwarded(via: "ssh", pid: 77, remoteHost: "build01"),
                decision: .refused(code: "no_such_account", exit: 4)),
              AgentRequestRecord(
                time: 4, operation: nil, account: nil,
                requester: .forwarded(via: "ssh", pid: 77, remoteHost: nil),
                decision: .unanswered),
            ])),
        #"{"ok":true,"pid":7,"vault":"/v.db","since":1.0,"idle_timeout":null,"ends_at":91.5,"accounts":[],"requests":["#
          + #"{"time":2.5,"op":"token","account":"simkl/alice","requester":{"kind":"local","name":"curl","pid":4242},"decision":"answered"},"#
          + #"{"time":3.0,"op":"token","account":"nobody","requester":{"kind":"forwarded","via":"ssh","pid":77,"remote_host":"build01"},"decision":"refused","code":"no_such_account","exit":4},"#
          + #"{"time":4.0,"op":null,"account":null,"requester":{"kind":"forwarded","via":"ssh","pid":77,"remote_host":null},"decision":"unanswered"}]}"#
      ),
    ]
    for (answer, line) in answers {
      XCTAssertEqual(answer.line, line)
      XCTAssertEqual(AgentResponse(parsing: line), answer)
    }
  }

  func testAccountAnswersReadBackWhatTheyWrite() throws {
    let listing = AgentListing(
      accounts: [
        .init(
          name: AccountName(provider: "simkl", label: "alice"),
          expiresAt: Date(timeIntervalSince1970: 1_712_349_278.5),
          obtainedAt: Date(timeIntervalSince1970: 1_712_345_678), scopes: ["read", "write"],
          tokenType: nil, refreshable: true),
        .init(
          name: AccountName(provider: "google", label: "me"), tokenType: nil, refreshable: true,
          isDefault: true,
          refreshValidity: DateInterval(
            start: Date(timeIntervalSince1970: 1_712_345_678.5), duration: 604_800)),
        .init(
          name: AccountName(provider: "microsoft", label: "ann"), tokenType: nil,
          tenant: "9188040d-6c67-4c5b-b112-36a304b66dad"),
        .init(
          name: AccountName(provider: "work", label: "日本"), hasAccessToken: false, tokenType: nil),
        .init(
          name: AccountName(provider: "work", label: "dana"), tokenType: nil, isDPoPBound: true,
          dpopThumbprint: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"),
      ],
      damaged: [
        .init(id: 3, name: nil, damage: "its sealed label cell does not decode"),
        .init(id: 4, name: "work/bob", damage: "altered"),
      ])
    let signOut = AgentSignOut(
      account: "sandbox/alice", damaged: false,
      revocation: .failed(code: "provider_error", message: "HTTP 500"),
      endSessionURL: URL(string: "https://id.example/logout?id_token_hint=x"),
      accessSettingsURL: "https://id.example/apps")
    let answers: [(AgentResponse, String)] = [
      (
        .listing(listing),
        #"{"ok":true,"listing":{"accounts":[{"account":"simkl/alice","provider":"simkl","label":"alice","usable":true,"expires_at":1712349278.5,"scopes":["read","write"],"refreshable":true,"obtained_at":1712345678.0},"#
          + #"{"account":"google/me","provider":"google","label":"me","usable":true,"expires_at":null,"scopes":[],"refreshable":true,"default":true,"refresh_issued_at":1712345678.5,"refresh_expires_at":1712950478.5},"#
          + #"{"account":"microsoft/ann","provider":"microsoft","label":"ann","usable":true,"expires_at":null,"scopes":[],"refreshable":false,"tenant":"9188040d-6c67-4c5b-b112-36a304b66dad"},"#
          + #"{"account":"work/日本","provider":"work","label":"日本","usable":false,"expires_at":null,"scopes":[],"refreshable":false},"#
          + #"{"account":"work/dana","provider":"work","label":"dana","usable":true,"expires_at":null,"scopes":[],"refreshable":false,"dpop_bound":true,"dpop_jkt":"NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"}],"#
          + #""damaged":[{"id":3,"name":null,"damage":"its sealed label cell does not decode"},{"id":4,"name":"work/bob","damage":"altered"}]}}"#
      ),
      (
        .export(
          AgentExport(
            account: "simkl/alice", token: "tok-en",
            expiresAt: Date(timeIntervalSince1970: 1_712_349_278), variable: "SIMKL_TOKEN")),
        #"{"ok":true,"export":{"account":"simkl/alice","token":"tok-en","expires_at":1712349278.0,"variable":"SIMKL_TOKEN"}}"#
      ),
      (
        .export(
          AgentExport(
            account: "work/alice", token: "tok-en", expiresAt: nil, variable: "WORK_TOKEN",
            tokenType: "DPoP")),
        #"{"ok":true,"export":{"account":"work/alice","token":"tok-en","expires_at":null,"variable":"WORK_TOKEN","token_type":"DPoP"}}"#
      ),
      (
        .export(
          AgentExport(
            account: "simkl/alice", token: "tok-en", expiresAt: nil, variable: "SIMKL_TOKEN",
            note: "short")),
        #"{"ok":true,"export":{"account":"simkl/alice","token":"tok-en","expires_at":null,"variable":"SIMKL_TOKEN","note":"short"}}"#
      ),
      (
        .proof(AgentProof(account: "work/alice", token: "tok-en", proof: "a.b.c")),
        #"{"ok":true,"proof":{"account":"work/alice","token":"tok-en","token_type":"DPoP","proof":"a.b.c"}}"#
      ),
      (
        .proof(AgentProof(account: "simkl/alice", token: "tok-en", proof: nil)),
        #"{"ok":true,"proof":{"account":"simkl/alice","token":"tok-en","token_type":"Bearer","proof":null}}"#
      ),
      (
        .proof(AgentProof(account: "simkl/alice", token: "tok-en", proof: nil, note: "short")),
        #"{"ok":true,"proof":{"account":"simkl/alice","token":"tok-en","token_type":"Bearer","proof":null,"note":"short"}}"#
      ),
      (
        .defaultChanged(
          DefaultChange(provider: "simkl", account: "simkl/bob", previous: "simkl/alice")),
        #"{"ok":true,"default":{"provider":"simkl","account":"simkl/bob","previous":"simkl/alice"}}"#
      ),
      (
        .defaultChanged(DefaultChange(provider: "simkl", account: nil, previous: nil)),
        #"{"ok":true,"default":{"provider":"simkl","account":null,"previous":null}}"#
      ),
      (
        .renamed(RenameChange(previous: "simkl/1029", account: "simkl/bob")),
        #"{"ok":true,"renamed":{"previous":"simkl/1029","account":"simkl/bob"}}"#
      ),
      (
        .signedOut(signOut),
        #"{"ok":true,"signed_out":{"account":"sandbox/alice","damaged":false,"revocation":"failed","revocation_code":"provider_error","revocation_message":"HTTP 500","end_session_url":"https://id.example/logout?id_token_hint=x","access_settings_url":"https://id.example/apps"}}"#
      ),
      (
        .signedOut(
          AgentSignOut(
            account: "the damaged account #3", damaged: true, revocation: .skipped,
            endSessionURL: nil, accessSettingsURL: nil)),
        #"{"ok":true,"signed_out":{"account":"the damaged account #3","damaged":true,"revocation":"skipped","end_session_url":null,"access_settings_url":null}}"#
      ),
    ]
    for (answer, line) in answers {
      XCTAssertEqual(answer.line, line)
      XCTAssertEqual(AgentResponse(parsing: line), answer)
    }
    for revocation in [
      Revocation.revoked, .unsupported, .skipped, .providerMissing,
    ] {
      let answer = AgentResponse.signedOut(
        AgentSignOut(
          account: "a/b", damaged: false, revocation: revocation, endSessionURL: nil,
          accessSettingsURL: nil))
      XCTAssertEqual(AgentResponse(parsing: answer.line), answer)
    }
  }

  func testAnAccountAnswerMissingAPartIsNoAnswer() {
    for line in [
      #"{"ok":true,"listing":{"accounts":[]}}"#,
      #"{"ok":true,"listing":{"accounts":[{"account":"a/b"}],"damaged":[]}}"#,
      #"{"ok":true,"listing":{"accounts":[],"damaged":[{"id":1.5,"damage":"x"}]}}"#,
      // A refresh validity needs both ends, in order.
      #"{"ok":true,"listing":{"accounts":[{"account":"a/b","provider":"a","label":"b","usable":true,"expires_at":null,"scopes":[],"refreshable":true,"refresh_expires_at":2}],"damaged":[]}}"#,
      #"{"ok":true,"listing":{"accounts":[{"account":"a/b","provider":"a","label":"b","usable":true,"expires_at":null,"scopes":[],"refreshable":true,"refresh_issued_at":3,"refresh_expires_at":2}],"damaged":[]}}"#,
      #"{"ok":true,"listing":{"accounts":[],"damaged":[{"id":1,"name":2,"damage":"x"}]}}"#,
      #"{"ok":true,"export":{"account":"a/b","token":"t","expires_at":"soon","variable":"V"}}"#,
      #"{"ok":true,"export":{"account":"a/b","expires_at":null,"variable":"V"}}"#,
      #"{"ok":true,"signed_out":{"account":"a/b","damaged":false,"revocation":"maybe"}}"#,
      #"{"ok":true,"signed_out":{"account":"a/b","damaged":false,"revocation":"failed"}}"#,
      #"{"ok":true,"signed_out":{"account":"a/b","damaged":false,"revocation":"revoked","end_session_url":"not a url"}}"#,
      #"{"ok":true,"listing":[]}"#,
      #"{"ok":true,"default":{"account":"a/b","previous":null}}"#,
      #"{"ok":true,"default":{"provider":"a","account":7,"previous":null}}"#,
      #"{"ok":true,"renamed":{"previous":"a/b"}}"#,
      #"{"ok":true,"renamed":{"previous":"a/b","account":""}}"#,
    ] {
      XCTAssertNil(AgentResponse(parsing: line), line)
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
      .failure(CommandFailure(exitStatus: 1, code: code, message: "m"))
    }
    XCTAssertTrue(failure("other_vault").declined)
    XCTAssertTrue(failure("bad_request").declined)
    XCTAssertTrue(failure("answer_too_long").declined)
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
    XCTAssertEqual(AgentRefusal.answerTooLong(bytes: 70000).code, "answer_too_long")
    XCTAssertEqual(
      AgentRefusal.answerTooLong(bytes: 70000).message,
      "the answer (70000 bytes) is longer than the 65536 bytes a client reads; run the command "
        + "with AUTHTUI_NO_AGENT=1")
  }
}
