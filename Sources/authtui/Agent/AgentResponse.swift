import AuthCore
import Foundation

/// The agent's answer to one request: a JSON object on one line.
///
/// ```
/// {"ok":true,"token":"…"}
/// {"ok":true,"pid":4242,"vault":"/abs/vault.db"}
/// {"ok":false,"exit":5,"code":"sign_in_needed","message":"…"}
/// ```
/// A failure carries the exit code, code and message `authtui token` gives for it. Two codes
/// are about the request rather than the account, and make the caller unlock the vault itself
/// instead (`declined`): `other_vault` (this agent serves another vault) and `bad_request`.
enum AgentResponse: Sendable, Equatable {
  /// The access token asked for.
  case token(String)
  /// The answer to a ping: who answers, for which vault.
  case pong(pid: Int32, vault: String)
  /// The request failed, or was declined.
  case failure(CommandFailure)

  /// The agent serves the vault `served`, not the one asked for.
  static func otherVault(served: String, asked: String) -> AgentResponse {
    .failure(
      CommandFailure(
        exitCode: .failure,
        message: "this agent serves the vault \(served), not \(asked); run another agent for "
          + "that vault with its own AUTHTUI_AGENT_SOCKET",
        code: "other_vault"))
  }

  /// The request could not be read.
  static func badRequest(_ reason: String) -> AgentResponse {
    .failure(CommandFailure(exitCode: .usage, message: reason, code: "bad_request"))
  }

  /// True when the agent did not serve the request at all: the caller then asks the vault
  /// itself rather than taking this as the result.
  var declined: Bool {
    guard case .failure(let failure) = self else { return false }
    return failure.code == "other_vault" || failure.code == "bad_request"
  }

  /// The line sent, without its newline.
  var line: String {
    let json: OrderedJSON
    switch self {
    case .token(let token):
      json = ["ok": true, "token": .string(token)]
    case .pong(let pid, let vault):
      json = ["ok": true, "pid": .int(Int(pid)), "vault": .string(vault)]
    case .failure(let failure):
      json = [
        "ok": false, "exit": .int(Int(failure.exitCode.rawValue)), "code": .string(failure.code),
        "message": .string(failure.message),
      ]
    }
    return json.text
  }

  /// Reads an answer line; nil for anything that is not one (the caller then falls back).
  init?(parsing line: String) {
    guard let members = JSONWireValue.object(from: Data(line.utf8)),
      case .bool(let ok)? = members["ok"]
    else { return nil }
    if !ok {
      guard case .number(let exit)? = members["exit"], let status = Int32(exactly: exit),
        let code = members["code"]?.stringValue, let message = members["message"]?.stringValue
      else { return nil }
      self = .failure(
        CommandFailure(
          exitCode: ExitCode(rawValue: status) ?? .failure, message: message, code: code))
    } else if let token = members["token"]?.stringValue {
      self = .token(token)
    } else if case .number(let pid)? = members["pid"], let whole = Int32(exactly: pid),
      let vault = members["vault"]?.stringValue
    {
      self = .pong(pid: whole, vault: vault)
    } else {
      return nil
    }
  }
}
