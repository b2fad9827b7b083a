import AccountFacts

/// The agent's question about a token request it holds (`agent start --confirm`), shown over
/// whatever screen is open until it is answered or its deadline passes.
public struct ConfirmationState: Sendable, Equatable {
  /// The question shown.
  public var question: ConfirmationQuestion
  /// The answer being sent, and the request sending it.
  public var answering: (request: RequestID, decision: ConfirmationDecision)?
  /// Why the last answer did not reach the agent.
  public var problem: String?

  /// The dialog for `question`.
  public init(question: ConfirmationQuestion) {
    self.question = question
  }

  public static func == (lhs: ConfirmationState, rhs: ConfirmationState) -> Bool {
    lhs.question == rhs.question && lhs.answering?.request == rhs.answering?.request
      && lhs.answering?.decision == rhs.answering?.decision && lhs.problem == rhs.problem
  }
}
