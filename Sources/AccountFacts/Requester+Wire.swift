import JSON

extension Requester {
  /// The JSON form, in the agent's `status` answer and `agent status --json`:
  /// `{"kind":"local","name":"curl","pid":4242}` or
  /// `{"kind":"forwarded","via":"ssh","pid":77,"remote_host":"build01"}` (`remote_host` null
  /// when the remote side said nothing).
  package var json: OrderedJSON {
    switch self {
    case .local(let name, let pid):
      return .object([("kind", "local"), ("name", .string(name)), ("pid", .int(Int(pid)))])
    case .forwarded(let via, let pid, let host):
      return .object([
        ("kind", "forwarded"), ("via", .string(via)), ("pid", .int(Int(pid))),
        ("remote_host", host.map(OrderedJSON.string) ?? .null),
      ])
    }
  }

  /// Reads `json`'s form back; nil when it is not one.
  package init?(json members: [String: JSONValue]) {
    guard case .number(let number)? = members["pid"], let pid = Int32(exactly: number) else {
      return nil
    }
    switch members["kind"]?.stringValue {
    case "local":
      guard let name = members["name"]?.stringValue else { return nil }
      self = .local(name: name, pid: pid)
    case "forwarded":
      guard let via = members["via"]?.stringValue,
        let host = OptionalMember.string(members["remote_host"])
      else { return nil }
      self = .forwarded(via: via, pid: pid, remoteHost: host)
    default:
      return nil
    }
  }
}
