import JSON

/// An answer line as every reader reads it first (`TokenAnswer` in the front, `AgentResponse`
/// in the full program): a failure, a token, or the members of another answer.
package enum AnswerLine {
  /// `{"ok":false,"exit":5,"code":"sign_in_needed","message":"…"}`.
  case failure(CommandFailure)
  /// `{"ok":true,"token":"…"}`.
  case token(String)
  /// `{"ok":true,"token":"…","note":"…"}`: a token and a sentence for standard error (a
  /// `TokenShortfall`: less validity than asked for, and why).
  case notedToken(String, note: String)
  /// Any other `{"ok":true,…}` object: the reader's to read.
  case other([String: JSONValue])

  /// Reads `line`; nil when it is not a JSON object with `ok`, a failure that does not exit
  /// like one, or a token that is empty.
  package init?(parsing line: String) {
    guard let members = JSONValue.object(fromLine: line), case .bool(let ok)? = members["ok"]
    else { return nil }
    if !ok {
      guard let failure = CommandFailure(answer: members) else { return nil }
      self = .failure(failure)
    } else if let token = members["token"]?.stringValue {
      // An empty token is no answer (a broken or fake agent): the vault is asked instead.
      guard !token.isEmpty else { return nil }
      if let note = members["note"]?.stringValue {
        self = .notedToken(token, note: note)
      } else {
        self = .token(token)
      }
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
  /// `{"ok":true,"token":"…","note":"…"}`: the token, and a sentence for standard error.
  case notedToken(String, note: String)
  /// `{"ok":true,"proof":{"account":…,"token":"…","token_type":"DPoP","proof":"…"}}`.
  case headers(ProofHeaders)
  /// `{"ok":false,"exit":5,"code":"sign_in_needed","message":"…"}`.
  case failure(CommandFailure)

  package init?(parsing line: String) {
    switch AnswerLine(parsing: line) {
    case .failure(let failure)?: self = .failure(failure)
    case .token(let token)?: self = .token(token)
    case .notedToken(let token, let note)?: self = .notedToken(token, note: note)
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
  /// A sentence for standard error (`note`): less validity left than asked for, and why.
  package let note: String?

  /// `token`, with `proof` when it is DPoP-bound, and `note` to say.
  package init(token: String, proof: String?, note: String? = nil) {
    self.token = token
    self.proof = proof
    self.note = note
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
      !token.isEmpty, let type = members["token_type"]?.stringValue
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
    self.init(token: token, proof: proof, note: members["note"]?.stringValue)
  }
}
