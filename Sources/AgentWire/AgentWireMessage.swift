/// A request as `AgentConnection` sends it: one JSON line. `AgentRequest` is every request;
/// `TokenRequest` is the front's one.
package protocol AgentWireRequest: Sendable {
  /// What the agent answers to it.
  associatedtype Answer: AgentWireAnswer
  /// The host name of the machine the request comes from, when it says (`host`).
  var host: String? { get }
  /// The same request, coming from `host`.
  func from(host: String?) -> Self
  /// The line sent, without its newline.
  var line: String { get }
}

/// An answer as `AgentConnection` reads it: one JSON line. `AgentResponse` reads every answer;
/// `TokenAnswer` the few the front reads.
package protocol AgentWireAnswer: Sendable, Equatable {
  /// Reads an answer line; nil for anything that is not one (the caller then falls back).
  init?(parsing line: String)
  /// The answer that is `failure`.
  static func failure(_ failure: CommandFailure) -> Self
  /// The failure, when the answer is one.
  var failed: CommandFailure? { get }
}
