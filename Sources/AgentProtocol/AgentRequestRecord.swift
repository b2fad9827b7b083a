import Foundation
import JSON

/// One request as the agent's log of recent requests keeps it (`agent status`): when, what,
/// about which account, from whom, and what the agent decided. Never a token.
///
/// ```
/// {"time":1712345678.25,"op":"token","account":"simkl/alice","requester":{"kind":"local","name":"curl","pid":4242},"decision":"answered"}
/// {"time":1712345679.5,"op":"token","account":"nobody","requester":{"kind":"forwarded","via":"ssh","pid":77,"remote_host":"build01"},"decision":"refused","code":"no_such_account","exit":4}
/// ```
public struct AgentRequestRecord: Sendable, Equatable {
  /// What the agent did with a request.
  public enum Decision: Sendable, Equatable {
    /// It answered with what was asked (`answered`).
    case answered
    /// It refused, with the failure's machine code and the exit status the caller gets
    /// (`refused`, `code`, `exit`).
    case refused(code: String, exit: Int32)
    /// It closed the connection without an answer (it was stopping), and the caller did the
    /// work itself (`unanswered`).
    case unanswered
  }

  /// When the request was answered, seconds since 1970 (`time`).
  public var time: TimeInterval
  /// The operation's wire name (`op`: `token`, `export`…); nil for a line that did not read.
  public var operation: String?
  /// The account the request named, as the caller wrote it (`account`); nil for operations
  /// that name none.
  public var account: String?
  /// Who asked (`requester`).
  public var requester: Requester
  /// What became of it (`decision`).
  public var decision: Decision
  /// How a person decided on it, for a request held for confirmation (`confirmation`: "allowed
  /// once in authtui", "nobody to ask"…); nil for one that was not held.
  public var confirmation: String?

  /// A record with every field given.
  public init(
    time: TimeInterval, operation: String?, account: String?, requester: Requester,
    decision: Decision, confirmation: String? = nil
  ) {
    self.time = time
    self.operation = operation
    self.account = account
    self.requester = requester
    self.decision = decision
    self.confirmation = confirmation
  }

  /// True when the caller got what it asked for.
  public var allowed: Bool { decision == .answered }

  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("time", .double(time)), ("op", operation.map(OrderedJSON.string) ?? .null),
      ("account", account.map(OrderedJSON.string) ?? .null), ("requester", requester.json),
    ]
    switch decision {
    case .answered: members.append(("decision", "answered"))
    case .unanswered: members.append(("decision", "unanswered"))
    case .refused(let code, let exit):
      members += [("decision", "refused"), ("code", .string(code)), ("exit", .int(Int(exit)))]
    }
    if let confirmation { members.append(("confirmation", .string(confirmation))) }
    return .object(members)
  }

  init?(json members: [String: JSONValue]) {
    guard case .number(let time)? = members["time"], time.isFinite,
      let operation = OptionalMember.string(members["op"]),
      let account = OptionalMember.string(members["account"]),
      let requester = members["requester"]?.objectValue.flatMap(Requester.init(json:)),
      let confirmation = OptionalMember.string(members["confirmation"])
    else { return nil }
    let decision: Decision
    switch members["decision"]?.stringValue {
    case "answered": decision = .answered
    case "unanswered": decision = .unanswered
    case "refused":
      guard let code = members["code"]?.stringValue, case .number(let exit)? = members["exit"],
        let status = Int32(exactly: exit)
      else { return nil }
      decision = .refused(code: code, exit: status)
    default: return nil
    }
    self.init(
      time: time, operation: operation, account: account, requester: requester,
      decision: decision, confirmation: confirmation)
  }
}
