import AgentProtocol

extension AgentResponse {
  /// The request failed with `failure`, as `authtui token` would have.
  static func failure(_ failure: CommandFailure) -> AgentResponse {
    .failure(
      AgentFailure(
        exitStatus: failure.exitCode.rawValue, code: failure.code, message: failure.message))
  }

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
}

extension CommandFailure {
  /// The failure an agent answered with; a status authtui does not define becomes 1.
  init(_ failure: AgentFailure) {
    self.init(
      exitCode: ExitCode(rawValue: failure.exitStatus) ?? .failure, message: failure.message,
      code: failure.code)
  }
}
