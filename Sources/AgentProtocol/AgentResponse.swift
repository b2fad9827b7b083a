import Foundation
import JSON

/// The agent's answer to one request: a JSON object on one line.
///
/// ```
/// {"ok":true,"token":"…"}
/// {"ok":true,"token":"…","note":"…"}
/// {"ok":true,"pid":4242,"vault":"/abs/vault.db"}
/// {"ok":false,"exit":5,"code":"sign_in_needed","message":"…"}
/// {"ok":true,"listing":{"accounts":[…],"damaged":[…]}}
/// {"ok":true,"export":{"account":"simkl/alice","token":"…","expires_at":1712349278,"variable":"SIMKL_TOKEN"}}
/// {"ok":true,"signed_out":{"account":"simkl/alice","damaged":false,"revocation":"revoked",…}}
/// {"ok":true,"pid":4242,"vault":"/abs/vault.db","since":1712345678.25,"idle_timeout":3600,"accounts":[…]}
/// {"ok":true,"default":{"provider":"simkl","account":"simkl/alice","previous":null}}
/// {"ok":true,"renamed":{"previous":"simkl/1029384","account":"simkl/alice"}}
/// {"ok":true,"proof":{"account":"sandbox/alice","token":"…","token_type":"DPoP","proof":"…"}}
/// {"ok":true,"questions":[{"id":3,"account":"sandbox/alice","requester":"…","forwarded":true,"deadline":1712345738.25}]}
/// {"ok":true,"confirmed":{"id":3,"decision":"allow_once"}}
/// ```
/// A failure carries the exit code, code and message `authtui token` gives for it. Some codes
/// are about the request rather than the account, and make the caller unlock the vault itself
/// instead (`declined`): `other_vault` (this agent serves another vault), `bad_request`,
/// `answer_too_long` (a listing over what a client reads) and `agent_stopping`.
public enum AgentResponse: AgentWireAnswer {
  /// The access token asked for.
  case token(String)
  /// The access token asked for, with a sentence the caller writes to standard error: it has
  /// less validity left than asked for, and why (`TokenShortfall`).
  case notedToken(String, note: String)
  /// The answer to a ping: who answers, for which vault.
  case pong(pid: Int32, vault: String)
  /// The request failed, or was declined.
  case failure(CommandFailure)
  /// The answer to `list`: every account, without its tokens.
  case listing(AgentListing)
  /// The answer to `export`: the token and what the caller writes with it.
  case export(AgentExport)
  /// The answer to `logout`: what the sign-out did.
  case signedOut(AgentSignOut)
  /// The answer to `status`: what the agent serves.
  case status(AgentStatus)
  /// The answer to `default`: what changed.
  case defaultChanged(DefaultChange)
  /// The answer to `rename`: the account's name before and now.
  case renamed(RenameChange)
  /// The answer to `proof`: the token, its scheme, and a DPoP-bound token's proof.
  case proof(AgentProof)
  /// The answer to `questions`: the token requests held for a person now.
  case questions([ConfirmationQuestion])
  /// The answer to `confirm`: the held request `id` got `decision`.
  case confirmed(id: Int, decision: ConfirmationDecision)

  /// True when the agent did not serve the request at all: the caller then asks the vault
  /// itself rather than taking this as the result.
  public var declined: Bool { failed?.declinesRequest == true }

  /// The failure, when the answer is one.
  package var failed: CommandFailure? {
    guard case .failure(let failure) = self else { return nil }
    return failure
  }

  /// The line sent, without its newline.
  public var line: String {
    let json: OrderedJSON
    switch self {
    case .token(let token):
      json = ["ok": true, "token": .string(token)]
    case .notedToken(let token, let note):
      json = ["ok": true, "token": .string(token), "note": .string(note)]
    case .pong(let pid, let vault):
      json = ["ok": true, "pid": .int(Int(pid)), "vault": .string(vault)]
    case .failure(let failure):
      return failure.answerLine
    case .listing(let listing):
      json = ["ok": true, "listing": listing.json]
    case .export(let export):
      json = ["ok": true, "export": export.json]
    case .signedOut(let signOut):
      json = ["ok": true, "signed_out": signOut.json]
    case .status(let status):
      json = status.json
    case .defaultChanged(let change):
      json = ["ok": true, "default": change.json]
    case .renamed(let rename):
      json = ["ok": true, "renamed": rename.json]
    case .proof(let proof):
      json = ["ok": true, "proof": proof.json]
    case .questions(let questions):
      json = ["ok": true, "questions": .array(questions.map(\.json))]
    case .confirmed(let id, let decision):
      json = [
        "ok": true,
        "confirmed": .object([("id", .int(id)), ("decision", .string(decision.rawValue))]),
      ]
    }
    return json.text
  }

  /// Reads an answer line; nil for anything that is not one (the caller then falls back).
  public init?(parsing line: String) {
    // A failure and a token as the front reads them.
    let members: [String: JSONValue]
    switch AnswerLine(parsing: line) {
    case .failure(let failure)?:
      self = .failure(failure)
      return
    case .token(let token)?:
      self = .token(token)
      return
    case .notedToken(let token, let note)?:
      self = .notedToken(token, note: note)
      return
    case .other(let other)?: members = other
    case nil: return nil
    }
    if members["since"] != nil {
      guard let status = AgentStatus(members) else { return nil }
      self = .status(status)
    } else if case .number(let pid)? = members["pid"], let whole = Int32(exactly: pid),
      let vault = members["vault"]?.stringValue
    {
      self = .pong(pid: whole, vault: vault)
    } else if let listing = members["listing"]?.objectValue.flatMap(AgentListing.init(json:)) {
      self = .listing(listing)
    } else if let export = members["export"]?.objectValue.flatMap(AgentExport.init(json:)) {
      self = .export(export)
    } else if let signOut = members["signed_out"]?.objectValue.flatMap(AgentSignOut.init(json:)) {
      self = .signedOut(signOut)
    } else if let change = members["default"]?.objectValue.flatMap(DefaultChange.init(json:)) {
      self = .defaultChanged(change)
    } else if let rename = members["renamed"]?.objectValue.flatMap(RenameChange.init(json:)) {
      self = .renamed(rename)
    } else if let proof = members["proof"]?.objectValue.flatMap(AgentProof.init(json:)) {
      self = .proof(proof)
    } else if let elements = members["questions"]?.arrayValue {
      let questions = elements.compactMap { $0.objectValue.flatMap(ConfirmationQuestion.init) }
      guard questions.count == elements.count else { return nil }
      self = .questions(questions)
    } else if let confirmed = members["confirmed"]?.objectValue,
      case .number(let number)? = confirmed["id"], let id = Int(exactly: number),
      let decision = confirmed["decision"]?.stringValue.flatMap(ConfirmationDecision.init)
    {
      self = .confirmed(id: id, decision: decision)
    } else {
      return nil
    }
  }
}
