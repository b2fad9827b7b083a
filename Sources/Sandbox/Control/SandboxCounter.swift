import AuthCore
import JSON

/// What the sandbox counts, globally and per profile (`GET /_sandbox/stats`).
public enum SandboxCounter: String, Sendable, CaseIterable, Codable {
  /// Requests to a profile (hooks excluded).
  case requests
  /// Approvals a user gave: on a consent page, or for a device or PIN code.
  case authorizations
  /// Denials a user gave.
  case denials
  /// Authorization codes exchanged for tokens.
  case exchanges
  /// Code exchanges refused (wrong verifier, used or expired code, …).
  case failedExchanges = "failed_exchanges"
  /// An already redeemed code presented again (OIDC and Muhajir then revoke what it gave).
  case codeReplays = "code_replays"
  /// Device or PIN codes handed out.
  case deviceAuthorizations = "device_authorizations"
  /// Polls of a device or PIN code.
  case devicePolls = "device_polls"
  /// Polls answered "slow down".
  case slowDowns = "slow_downs"
  /// Tokens issued at the end of a device or PIN flow.
  case deviceTokens = "device_tokens"
  /// Refresh grants that succeeded.
  case refreshes
  /// Refresh grants refused.
  case failedRefreshes = "failed_refreshes"
  /// Rotated-out refresh tokens presented again (the whole token family is then revoked).
  case reuseDetections = "reuse_detections"
  /// A refresh token that a refresh already replaced, presented again. Microsoft still honours
  /// it (its old refresh tokens are not revoked), so only this counter shows a client that
  /// kept the old one instead of storing the new.
  case replacedRefreshTokenUses = "replaced_refresh_token_uses"
  /// Revocation requests answered (RFC 7009 answers 200 for unknown tokens too).
  case revocations
  /// Identity requests answered with an account (`userinfo`, `/api/me`, `users/settings`, …).
  case identityRequests = "identity_requests"
  /// Identity requests refused with 401 or 403.
  case identityRefusals = "identity_refusals"
  /// Sign-outs confirmed on the end-session page.
  case endSessions = "end_sessions"
  /// Clients registered (RFC 7591).
  case registrations
  /// Registrations refused (RFC 7591 §3.2.2, or no initial access token).
  case refusedRegistrations = "refused_registrations"
  /// Registrations deleted (RFC 7592 §2.3).
  case registrationDeletions = "registration_deletions"
  /// Authorization requests a PAR endpoint took (RFC 9126 §2.2).
  case pushedRequests = "pushed_requests"
  /// Authorization requests a PAR endpoint refused (RFC 9126 §2.3).
  case refusedPushedRequests = "refused_pushed_requests"
  /// DPoP proofs accepted (RFC 9449 §4.3), at the token, revocation and userinfo endpoints.
  case dpopProofs = "dpop_proofs"
  /// DPoP proofs refused: a bad signature, `typ`, `alg`, `htm`, `htu` or `ath`, an `iat` out of
  /// its window, a `jti` seen before, another key than the token's, or none where one is due.
  case refusedDPoPProofs = "refused_dpop_proofs"
  /// Proofs answered `use_dpop_nonce` (RFC 9449 §8, §9).
  case dpopNonceChallenges = "dpop_nonce_challenges"
  /// Injected faults that fired.
  case faults
}

/// A snapshot of the counters.
public struct SandboxStats: Sendable, Equatable {
  private var global: [SandboxCounter: Int] = [:]
  private var perProfile: [SandboxProfile: [SandboxCounter: Int]] = [:]

  /// Empty counters.
  public init() {}

  /// The global value of `counter`.
  public subscript(counter: SandboxCounter) -> Int { global[counter, default: 0] }

  /// The value of `counter` for `profile`.
  public subscript(counter: SandboxCounter, profile: SandboxProfile) -> Int {
    perProfile[profile]?[counter, default: 0] ?? 0
  }

  mutating func record(_ counter: SandboxCounter, profile: SandboxProfile?) {
    global[counter, default: 0] += 1
    if let profile { perProfile[profile, default: [:]][counter, default: 0] += 1 }
  }

  /// The `/_sandbox/stats` document: every counter at the top level (global), then
  /// `"profiles": {"simkl": {…}, …}` with the same counters per profile.
  public var jsonText: String { json.text }

  var json: OrderedJSON {
    func counters(_ values: [SandboxCounter: Int]) -> [(String, OrderedJSON)] {
      SandboxCounter.allCases.map { ($0.rawValue, .int(values[$0, default: 0])) }
    }
    let profiles = SandboxProfile.allCases.map { profile in
      (profile.rawValue, OrderedJSON.object(counters(perProfile[profile] ?? [:])))
    }
    return .object(counters(global) + [("profiles", .object(profiles))])
  }
}
