import AccountFacts

/// The agent's question about a token request it holds (`agent start --confirm`), shown over
/// whatever screen is open until it is answered or its deadline passes.
public struct ConfirmationState: Sendable, Equatable {
  /// An answer on its way to the agent.
  public struct Answering: Sendable, Equatable {
    /// The request sending it.
    public var request: RequestID
    /// What was answered.
    public var decision: ConfirmationDecision
  }

  /// The question shown.
  public var question: ConfirmationQuestion
  /// The answer being sent, if any.
  public var answering: Answering?
  /// Why the last answer did not reach the agent.
  public var problem: String?

  /// The dialog for `question`.
  public init(question: ConfirmationQuestion) {
    self.question = question
  }
}
