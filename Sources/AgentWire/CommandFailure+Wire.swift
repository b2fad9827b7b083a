import JSON

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
