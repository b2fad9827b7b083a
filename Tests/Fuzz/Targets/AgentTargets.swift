import Agent

extension FuzzTargets {
  /// A line a client sends to `authtui agent` (any local process of the user can).
  ///
  /// A request read, written again, reads back the same.
  static let agentRequest = FuzzTarget(
    name: "agent-request", summary: "AgentRequest: lines the agent reads from its clients"
  ) { bytes in
    guard let request = try? AgentRequest(parsing: String(fuzzInput: bytes)) else { return }
    require(request.vault.hasPrefix("/"), "accepted a relative vault path")
    if case .rename(let account, let label) = request.operation {
      require(!account.isEmpty && !label.isEmpty, "accepted a rename without account or label")
    }
    let again = try? AgentRequest(parsing: request.line)
    require(again == request, "parse(line) differs for \(request.line)")
  }

  /// An answer line `authtui token` reads from whatever listens on the agent socket.
  ///
  /// An answer read, written again, reads back the same.
  static let agentResponse = FuzzTarget(
    name: "agent-response", summary: "AgentResponse: lines authtui token reads from the agent"
  ) { bytes in
    guard let response = AgentResponse(parsing: String(fuzzInput: bytes)) else { return }
    if case .renamed(let rename) = response {
      require(
        !rename.previous.label.isEmpty && !rename.account.label.isEmpty,
        "accepted a name without a label")
    }
    require(AgentResponse(parsing: response.line) == response, "parse(line) differs")
  }
}
