import Agent
import Foundation

extension FuzzTargets {
  /// The `proof` request (`token --header --for METHOD URL` through the agent) and its answer,
  /// as any local process of the user can send the one and whatever listens on the socket the
  /// other.
  ///
  /// A request accepted names a method of capital letters and an absolute https or http URL
  /// with a host, and reads back the same once written again; an answer accepted has a proof
  /// exactly when its token is DPoP, and reads back the same. The front's readers, which link
  /// no Foundation, agree with the full program's: a URL `plainURL` takes is one `url` takes
  /// and writes back as it is, and an answer `TokenAnswer` reads is what `AgentResponse` reads.
  static let agentProof = FuzzTarget(
    name: "agent-proof",
    summary: "AgentRequest .proof and AgentResponse .proof: the proof op's wire form; "
      + "the front's plain URLs and answers"
  ) { bytes in
    let line = String(fuzzInput: bytes)
    if let plain = ProofTarget.plainURL(line) {
      require(
        ProofTarget.url(plain)?.absoluteString == plain,
        "the front sends \(plain), the full program another URL or none")
    }
    let response = AgentResponse(parsing: line)
    switch TokenAnswer(parsing: line) {
    case .token(let token)?:
      require(response == .token(token), "the front reads a token the full program does not")
    case .notedToken(let token, let note)?:
      require(
        response == .notedToken(token, note: note),
        "the front reads a noted token the full program does not")
    case .failure(let failure)?:
      require(response == .failure(failure), "the front reads a failure the full program does not")
    case .headers(let headers)?:
      if case .proof(let proof)? = response {
        require(proof.headerLines == headers.lines, "the front prints other headers")
      }
    case nil:
      if case .token? = response { require(false, "the front misses a token") }
      if case .notedToken? = response { require(false, "the front misses a token") }
      if case .failure? = response { require(false, "the front misses a failure") }
    }
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
