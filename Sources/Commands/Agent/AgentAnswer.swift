import Agent
import Foundation

/// How `list`, `export`, `logout`, `default` and `rename` ask a running agent for their vault first (as
/// `token` does): its answer, or its failure with the exit status and message the command would have
/// given on its own; nil when no agent answers for this vault (or `AUTHTUI_NO_AGENT` is set),
/// and the command unlocks the vault itself.
enum AgentAnswer {
  /// How long `list` and `export` wait: an export may refresh the token first, as `token` may.
  static let accountsTimeout = AgentConnection.connectTimeout + AgentConnection.tokenTimeout
  /// How long `logout` waits: the provider's discovery and two revocation requests, 30 s each
  /// at most, with room to spare.
  static let signOutTimeout = AgentConnection.connectTimeout + 120

  /// The agent's answer to `operation` on the vault `global` names, as `value` reads it.
  /// `unanswered` is the failure when the request reached the agent and no answer came back
  /// (a request that must not run twice); without it the command then does the work itself.
  static func ask<Value>(
    _ operation: AgentRequest.Operation, _ global: GlobalOptions, timeout: TimeInterval,
    unanswered: CommandFailure? = nil, _ value: (AgentResponse) -> Value?
  ) async -> Result<Value, CommandFailure>? {
    guard AgentClient.enabled() else { return nil }
    let request = AgentRequest(
      operation: operation, vault: VaultAccess.location(global).canonicalPath)
    switch await AgentClient.exchange(request, at: .resolve(), timeout: timeout) {
    case .noAgent:
      return nil
    case .answered(.failure(let failure)):
      return .failure(failure)
    case .answered(let response):
      // An answer of another kind is no answer to this request.
      if let answer = value(response) { return .success(answer) }
      return unanswered.map { .failure($0) }
    case .unanswered:
      return unanswered.map { .failure($0) }
    }
  }
}

extension AgentResponse {
  /// The listing, when this answers `list`.
  var listing: AgentListing? {
    guard case .listing(let listing) = self else { return nil }
    return listing
  }

  /// The token and what goes with it, when this answers `export`.
  var export: AgentExport? {
    guard case .export(let export) = self else { return nil }
    return export
  }

  /// The token and its proof, when this answers `proof`.
  var proof: AgentProof? {
    guard case .proof(let proof) = self else { return nil }
    return proof
  }

  /// The names before and after, when this answers `rename`.
  var renamed: RenameChange? {
    guard case .renamed(let rename) = self else { return nil }
    return rename
  }

  /// What the sign-out did, when this answers `logout`.
  var signedOut: AgentSignOut? {
    guard case .signedOut(let outcome) = self else { return nil }
    return outcome
  }
}
