import JSON

/// A request as `AgentConnection` sends it: one JSON line. `AgentRequest` is every request;
/// `TokenRequest` is the front's one.
package protocol AgentWireRequest: Sendable {
  /// What the agent answers to it.
  associatedtype Answer: AgentWireAnswer
  /// The host name of the machine the request comes from, when it says (`host`).
  var host: String? { get }
  /// The same request, coming from `host`.
  func from(host: String?) -> Self
  /// The line sent, without its newline.
  var line: String { get }
}

/// An answer as `AgentConnection` reads it: one JSON line. `AgentResponse` reads every answer;
/// `TokenAnswer` the few the front reads.
package protocol AgentWireAnswer: Sendable, Equatable {
  /// Reads an answer line; nil for anything that is not one (the caller then falls back).
  init?(parsing line: String)
  /// The answer that is `failure`.
  static func failure(_ failure: CommandFailure) -> Self
  /// The failure, when the answer is one.
  var failed: CommandFailure? { get }
}

extension CommandFailure {
  /// True for the failures about the request rather than the account: the agent did not serve
  /// it at all (it serves another vault, could not read the request, would answer with more
  /// than a client reads, or is stopping), and the caller asks the vault itself instead.
  package var declinesRequest: Bool {
    code == "other_vault" || code == "bad_request" || code == "answer_too_long"
      || code == "agent_stopping"
  }

  /// The answer line of this failure, without its newline:
  /// `{"ok":false,"exit":5,"code":"sign_in_needed","message":"…"}`.
  package var answerLine: String {
    let json: OrderedJSON = [
      "ok": false, "exit": .int(Int(exitStatus)), "code": .string(code),
      "message": .string(message),
    ]
    return json.text
  }

  /// Reads the members of a failure answer (`"ok":false`); nil unless it exits like one: never
  /// 0, and never a status the shell reserves.
  package init?(answer members: [String: JSONValue]) {
    guard case .number(let exit)? = members["exit"], let status = Int32(exactly: exit),
      (1...125).contains(status), let code = members["code"]?.stringValue,
      let message = members["message"]?.stringValue
    else { return nil }
    self.init(exitStatus: status, code: code, message: message)
  }
}

/// The front's one request: `token` for an account (`min_valid`, `started_at`), or, for
/// `token --header --for METHOD URL`, `proof` with the request's method and URL. The full
/// program writes the same two requests through it (`AgentRequest.line`), so that both send
/// the same line.
package struct TokenRequest: AgentWireRequest, Equatable {
  package typealias Answer = TokenAnswer

  /// The longest `min_valid` accepted: a year, as for `token --min-valid`.
  package static let maximumValidity = 31_536_000

  /// The account as written (`account`).
  package let account: String
  /// How many seconds the token must stay valid (`min_valid`).
  package let minimumValidity: Int
  /// When the caller's `token` started, in seconds since 1970 (`started_at`).
  package let startedAt: Double?
  /// For `proof`: the request the proof is for.
  package let target: Target?
  /// The canonical path of the caller's vault (`vault`).
  package let vault: String
  package let host: String?

  /// A `token` request, or a `proof` one when `target` is given.
  package init(
    account: String, minimumValidity: Int, startedAt: Double?,
    target: Target? = nil, vault: String, host: String? = nil
  ) {
    self.account = account
    self.minimumValidity = minimumValidity
    self.startedAt = startedAt
    self.target = target
    self.vault = vault
    self.host = host
  }

  package func from(host: String?) -> TokenRequest {
    TokenRequest(
      account: account, minimumValidity: minimumValidity, startedAt: startedAt, target: target,
      vault: vault, host: host)
  }

  /// `{"op":"token","account":"simkl/alice","min_valid":60,"vault":"/abs/vault.db","started_at":1712345678.25}`,
  /// or `{"op":"proof",…,"min_valid":60,"method":"GET","url":"https://…","vault":…}`.
  package var line: String {
    var members: [(String, OrderedJSON)] = [
      ("op", target == nil ? "token" : "proof"), ("account", .string(account)),
      ("min_valid", .int(minimumValidity)),
    ]
    if let target {
      members += [("method", .string(target.method)), ("url", .string(target.url))]
    }
    members.append(("vault", .string(vault)))
    if let startedAt { members.append(("started_at", .double(startedAt))) }
    if let host { members.append(("host", .string(host))) }
    return OrderedJSON.object(members).text
  }

  /// The request a proof is for (`method`, `url`).
  package struct Target: Sendable, Equatable {
    /// The method, in capitals.
    package let method: String
    /// The URL, as it is sent.
    package let url: String

    /// A `method` request to `url`.
    package init(method: String, url: String) {
      self.method = method
      self.url = url
    }
  }
}

/// An answer line as every reader reads it first (`TokenAnswer` in the front, `AgentResponse`
/// in the full program): a failure, a token, or the members of another answer.
package enum AnswerLine {
  /// `{"ok":false,"exit":5,"code":"sign_in_needed","message":"…"}`.
  case failure(CommandFailure)
  /// `{"ok":true,"token":"…"}`.
  case token(String)
  /// Any other `{"ok":true,…}` object: the reader's to read.
  case other([String: JSONValue])

  /// Reads `line`; nil when it is not a JSON object with `ok`, or a failure that does not exit
  /// like one.
  package init?(parsing line: String) {
    guard let members = JSONValue.object(fromLine: line), case .bool(let ok)? = members["ok"]
    else { return nil }
    if !ok {
      guard let failure = CommandFailure(answer: members) else { return nil }
      self = .failure(failure)
    } else if let token = members["token"]?.stringValue {
      self = .token(token)
    } else {
      self = .other(members)
    }
  }
}

/// The agent's answers the front reads: a token, the headers for one request, or a failure.
/// Any other answer, or a line that is not one, is not read (nil): the full program then asks
/// again.
package enum TokenAnswer: AgentWireAnswer {
  /// `{"ok":true,"token":"…"}`.
  case token(String)
  /// `{"ok":true,"proof":{"account":…,"token":"…","token_type":"DPoP","proof":"…"}}`.
  case headers(ProofHeaders)
  /// `{"ok":false,"exit":5,"code":"sign_in_needed","message":"…"}`.
  case failure(CommandFailure)

  package init?(parsing line: String) {
    switch AnswerLine(parsing: line) {
    case .failure(let failure)?: self = .failure(failure)
    case .token(let token)?: self = .token(token)
    case .other(let members)?:
      guard let headers = members["proof"]?.objectValue.flatMap(ProofHeaders.init(json:)) else {
        return nil
      }
      self = .headers(headers)
    case nil: return nil
    }
  }

  package var failed: CommandFailure? {
    guard case .failure(let failure) = self else { return nil }
    return failure
  }
}

/// The headers `token --header --for METHOD URL` prints: the access token with its scheme, and
/// for a DPoP-bound token the proof (RFC 9449 §7.1) the agent signed for that one request.
package struct ProofHeaders: Sendable, Equatable {
  /// The access token (`token`).
  package let token: String
  /// The proof (`proof`); nil for a Bearer token, which takes none.
  package let proof: String?

  /// `token`, with `proof` when it is DPoP-bound.
  package init(token: String, proof: String?) {
    self.token = token
    self.proof = proof
  }

  /// The token's scheme (`token_type`): `DPoP` with a proof, else `Bearer`.
  package var tokenType: String { proof == nil ? "Bearer" : "DPoP" }

  /// The header lines, without a final newline: `Authorization: Bearer TOKEN`, or
  /// `Authorization: DPoP TOKEN` and `DPoP: PROOF`, one a line, as `curl -H @-` reads them.
  package var lines: String {
    guard let proof else { return "Authorization: Bearer \(token)" }
    return "Authorization: DPoP \(token)\nDPoP: \(proof)"
  }

  /// Reads the answer's `proof` object; nil when it is not one, names no account, or when
  /// `token_type` and `proof` disagree (a DPoP token needs its proof, a Bearer token takes none).
  package init?(json members: [String: JSONValue]) {
    guard members["account"]?.stringValue != nil, let token = members["token"]?.stringValue,
      let type = members["token_type"]?.stringValue
    else { return nil }
    let proof: String?
    switch members["proof"] {
    case .string(let text)?: proof = text
    case .null?, nil: proof = nil
    default: return nil
    }
    guard (type == "DPoP") == (proof != nil), type == "DPoP" || type == "Bearer" else {
      return nil
    }
    self.init(token: token, proof: proof)
  }
}
