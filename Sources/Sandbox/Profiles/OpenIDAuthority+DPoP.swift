import AuthCore
import Foundation
import JSON
import Loopback

/// DPoP (RFC 9449) when the settings' `dpop` is `offered` or `required`: the token endpoint
/// binds the tokens it issues to the key of the request's proof, a refresh must prove the key
/// its refresh token is bound to, revoking a bound token too, and the identity endpoint takes a
/// bound token only as `Authorization: DPoP` with a proof whose `ath` is the token's hash. With
/// `dpop_nonce`, every proof must carry the server's nonce, given in `DPoP-Nonce` on every
/// answer of these endpoints.
extension OpenIDAuthority {
  /// What a token or revocation request's proof decided.
  enum ProofVerdict {
    /// Go on; tokens issued are bound to the key with this thumbprint, or to none.
    case proven(jkt: String?)
    /// Answer this refusal.
    case refused(HTTPResponse)
  }

  /// Checks the proof of a request to the token or revocation endpoint (RFC 9449 §4.3, §5):
  /// none at all is fine unless `dpop` is `required`; a bad one is `invalid_dpop_proof`, one
  /// without the nonce `use_dpop_nonce` (§8). With `dpop` off the header is ignored.
  mutating func tokenRequestProof(_ request: HTTPRequest, context: inout ProviderContext)
    -> ProofVerdict
  {
    let settings = context.settings
    guard settings.dpop != .off else { return .proven(jkt: nil) }
    let outcome = dpopLedger.check(
      request, url: context.absolute(request.path), accessToken: nil, settings: settings,
      now: context.now)
    switch outcome {
    case .absent:
      guard settings.dpop == .required else { return .proven(jkt: nil) }
      context.count(.refusedDPoPProofs)
      return .refused(
        withDPoPNonce(
          Answers.oauthError(
            "invalid_dpop_proof",
            "This server takes token requests only with a DPoP proof (RFC 9449)."),
          context: context))
    case .refused(let reason):
      context.count(.refusedDPoPProofs)
      return .refused(
        withDPoPNonce(Answers.oauthError("invalid_dpop_proof", reason), context: context))
    case .nonceNeeded:
      context.count(.dpopNonceChallenges)
      return .refused(
        withDPoPNonce(
          Answers.oauthError(
            "use_dpop_nonce", "Send the proof again with the nonce in DPoP-Nonce (RFC 9449 §8)."),
          context: context, always: true))
    case .valid(let proof):
      context.count(.dpopProofs)
      return .proven(jkt: proof.thumbprint)
    }
  }

  /// `response` with the server's current nonce in `DPoP-Nonce` when proofs must carry one
  /// (RFC 9449 §8.2: a server may give it in any answer), or `always`.
  func withDPoPNonce(_ response: HTTPResponse, context: ProviderContext, always: Bool = false)
    -> HTTPResponse
  {
    guard always || (context.settings.dpop != .off && context.settings.dpopNonceRequired) else {
      return response
    }
    var answered = response
    answered.headers.append(("DPoP-Nonce", dpopLedger.nonce))
    return answered
  }

  /// Nil when a request presenting `token` with a proof of `jkt` (nil: no proof) may use it:
  /// a bound token needs a proof of its own key (RFC 9449 §5, a refresh keeps the key its
  /// refresh token was issued for). Else the refusal, counted.
  func keyMismatch(of token: String, proven jkt: String?, context: inout ProviderContext)
    -> HTTPResponse?
  {
    guard let bound = tokens.boundKey(of: token), bound != jkt else { return nil }
    context.count(.refusedDPoPProofs)
    let description =
      jkt == nil
      ? "The token is DPoP-bound: send a DPoP proof of its key (RFC 9449 §5)."
      : "The token is bound to another DPoP key; it works only with the key it was issued for "
        + "(RFC 9449 §5)."
    return withDPoPNonce(Answers.oauthError("invalid_dpop_proof", description), context: context)
  }

  // MARK: The identity endpoint

  /// The protected account endpoint (userinfo): 401 for an unusable token, 403 when the token
  /// lacks `openid`, else the claims. A Bearer token as RFC 6750 has it; a DPoP-bound one only
  /// as `Authorization: DPoP TOKEN` with a proof of its key for this request (RFC 9449 §7),
  /// refused with a `WWW-Authenticate: DPoP` challenge (`use_dpop_nonce` when the nonce is
  /// missing).
  mutating func identity(_ request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    let realm = configuration.profile.rawValue
    let token: String
    if let dpopToken = Answers.dpopToken(of: request), context.settings.dpop != .off {
      token = dpopToken
      if let refusal = identityProof(request, token: token, context: &context) {
        context.count(.identityRefusals)
        return refusal
      }
    } else {
      guard let bearer = Answers.bearerToken(of: request) else {
        context.count(.identityRefusals)
        return Answers.bearerRefusal(.missing, realm: realm)
      }
      guard tokens.boundKey(of: bearer) == nil else {
        context.count(.identityRefusals)
        let description =
          "The access token is DPoP-bound: send it as Authorization: DPoP with a proof "
          + "(RFC 9449 §7.1)."
        return dpopRefusal("invalid_token", description, context: context)
      }
      token = bearer
    }
    guard let grant = tokens.activeAccessToken(token, now: context.now) else {
      context.count(.identityRefusals)
      return Answers.bearerRefusal(.invalid, realm: realm)
    }
    guard grant.scopes.contains("openid") else {
      context.count(.identityRefusals)
      return Answers.bearerRefusal(.insufficientScope("openid"), realm: realm)
    }
    context.count(.identityRequests)
    return withDPoPNonce(
      Answers.json(
        .object(
          [("sub", .string(subject(grant.username, context.settings)))]
            + profileClaims(for: grant, context: context))), context: context)
  }

  /// Nil when `request`'s proof is good for `token` at this endpoint and of the key `token` is
  /// bound to; else the refusal.
  private mutating func identityProof(
    _ request: HTTPRequest, token: String, context: inout ProviderContext
  ) -> HTTPResponse? {
    let outcome = dpopLedger.check(
      request, url: context.absolute(request.path), accessToken: token,
      settings: context.settings, now: context.now)
    switch outcome {
    case .absent:
      context.count(.refusedDPoPProofs)
      return dpopRefusal(
        "invalid_dpop_proof", "A DPoP token needs a DPoP proof.", context: context)
    case .refused(let reason):
      context.count(.refusedDPoPProofs)
      return dpopRefusal("invalid_dpop_proof", reason, context: context)
    case .nonceNeeded:
      context.count(.dpopNonceChallenges)
      return dpopRefusal(
        "use_dpop_nonce", "Send the proof again with the nonce in DPoP-Nonce.", context: context,
        nonce: true)
    case .valid(let proof):
      context.count(.dpopProofs)
      guard tokens.boundKey(of: token) == proof.thumbprint else {
        context.count(.refusedDPoPProofs)
        return dpopRefusal(
          "invalid_token", "The access token is not bound to the proof's key.", context: context)
      }
      return nil
    }
  }

  /// 401 with `WWW-Authenticate: DPoP error=…, error_description=…, algs=…` (RFC 9449 §7.1).
  func dpopRefusal(
    _ error: String, _ description: String, context: ProviderContext, nonce: Bool = false
  ) -> HTTPResponse {
    var response = Answers.json(
      ["error": .string(error), "error_description": .string(description)], status: 401)
    let algorithms = context.settings.dpopSigningAlgorithms.joined(separator: " ")
    response.headers.append(
      (
        "WWW-Authenticate",
        "DPoP error=\"\(error)\", error_description=\"\(description)\", algs=\"\(algorithms)\""
      ))
    return withDPoPNonce(response, context: context, always: nonce)
  }
}
