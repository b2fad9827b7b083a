import Agent

extension CommandFailure {
  /// What the agent answers for `refusal`: the exit status `authtui token` would have.
  @Sendable static func answering(_ refusal: AgentRefusal) -> CommandFailure {
    switch refusal {
    case .account(let error):
      return AccountAccess.failure(error)
    case .otherVault, .answerTooLong, .stopping, .busy:
      return CommandFailure(exitCode: .failure, message: refusal.message, code: refusal.code)
    case .badRequest:
      return CommandFailure(exitCode: .usage, message: refusal.message, code: refusal.code)
    case .notConfirmed, .noSuchQuestion:
      return CommandFailure(exitCode: .cancelled, message: refusal.message, code: refusal.code)
    case .confirmationFromAfar, .confirmationUnproven, .managementFromAfar, .statusFromAfar:
      return CommandFailure(exitCode: .failure, message: refusal.message, code: refusal.code)
    }
  }
}

extension AgentSocketProblem {
  /// The failure a command reports.
  var failure: CommandFailure {
    // `agent_running` lets a command that would have started one see that one runs already.
    let code: String
    if case .agentRunning = self { code = "agent_running" } else { code = "agent_socket" }
    return CommandFailure(exitCode: .failure, message: message, code: code)
  }
}

extension AgentSocketLocation {
  /// Makes the socket's folder ready and clears a dead agent's socket, or refuses: a folder
  /// others could use, something else at the path, or a live agent (`agent_running`).
  func claim() throws(CommandFailure) {
    do {
      try prepareDirectory()
      try removeStaleSocket()
    } catch {
      throw error.failure
    }
  }
}
