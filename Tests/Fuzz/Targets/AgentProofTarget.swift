import Agent
import Foundation

extension FuzzTargets {
  /// The `proof` request (`token --header --for METHOD URL` through the agent) and its answer,
  /// as any local process of the user can send the one and whatever listens on the socket the
  /// other.
  ///
  /// A request accepted names a method of capital letters and an absolute https or http URL
  /// with a host, and reads back the same once written again; an answer accepted has a proof
  /// exactly when its token is DPoP, and reads back the same.
  static let agentProof = FuzzTarget(
    name: "agent-proof",
    summary: "AgentRequest .proof and AgentResponse .proof: the proof op's wire form"
  ) { bytes in
    let line = String(fuzzInput: bytes)
    if let request = try? AgentRequest(parsing: line),
      case .proof(let account, _, _, let method, let url) = request.operation
    {
      require(!account.isEmpty, "accepted a proof request without an account")
      require(
        !method.isEmpty && method.utf8.allSatisfy { (0x41...0x5A).contains($0) },
        "accepted the method \(method)")
      let scheme = url.scheme?.lowercased()
      require(scheme == "https" || scheme == "http", "accepted the URL \(url)")
      require(url.host?.isEmpty == false, "accepted a URL without a host: \(url)")
      require(
        (try? AgentRequest(parsing: request.line)) == request, "parse(line) differs: \(line)")
    }
    if case .proof(let proof)? = AgentResponse(parsing: line) {
      require((proof.tokenType == "DPoP") == (proof.proof != nil), "a proof without DPoP")
      require(
        AgentResponse(parsing: AgentResponse.proof(proof).line) == .proof(proof),
        "parse(line) differs: \(line)")
    }
  }
}
