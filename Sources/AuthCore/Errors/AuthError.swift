import Foundation

/// Everything that can end a sign-in, a refresh or a revocation without the wanted result.
///
/// Each case has a one-sentence `message` that names the problem and what to do next, a stable
/// machine `code` (the `error` of `login --json`); the command line gives each case its exit
/// status (Commands' `ExitCode`). No case carries a token, a code, a verifier or a URL query.
public enum AuthError: Error, Sendable, Equatable {
  // MARK: The user, the clock or the provider ended the sign-in

  /// The sign-in was cancelled by the user (or the calling task was cancelled).
  case cancelled
  /// The user or the provider declined (`access_denied`, RFC 6749 §4.1.2.1, RFC 8628 §3.5).
  /// `issuerMissing`: the redirect lacked the `iss` the provider promises (RFC 9207 §3); the
  /// provider's answer still ends the sign-in, and no code is exchanged.
  case accessDenied(description: String?, issuerMissing: Bool = false)
  /// The browser sign-in's countdown ran out with no redirect: the provider never answered,
  /// which is how Simkl reports a declined consent.
  case noAnswer(waited: TimeInterval)
  /// A device or PIN code expired before it was approved (`expired_token`, RFC 8628 §3.5, or the
  /// local deadline at `expires_in`).
  case userCodeExpired

  // MARK: The account must sign in again

  /// The provider refused the refresh token (`invalid_grant` on refresh, RFC 6749 §5.2).
  case refreshTokenRejected(description: String?)

  // MARK: The redirect back from the browser

  /// The fixed redirect port the provider's registration requires is taken.
  case portInUse(UInt16)
  /// The loopback listener could not start.
  case listenerFailed(String)
  /// A redirect's `state` did not match this attempt's (RFC 6749 §10.12): its code was discarded.
  case stateMismatch
  /// A redirect's `iss` was not the provider's issuer, or was missing where the provider
  /// promised it (RFC 9207 §2.4): a mix-up attack or a misconfigured provider.
  case issuerMismatch(expected: String, received: String?)
  /// A pasted or received redirect could not be read (not a URL, no `code`, wrong path).
  case malformedRedirect(String)
  /// The authorization endpoint answered with an error other than `access_denied`
  /// (RFC 6749 §4.1.2.1); `issuerMissing` as for `accessDenied`.
  case authorizationFailed(OAuthError, issuerMissing: Bool = false)

  // MARK: The token endpoint

  /// The provider refused the PKCE verifier: Simkl's `secret_error`, or an `invalid_grant` about
  /// the verifier (Hivesigner). At Simkl the code is used up by this failure.
  case pkceVerificationFailed(description: String?)
  /// The authorization code was already exchanged (`invalid_grant`, "The code was already used").
  case authorizationCodeUsed
  /// The authorization code was too old (`invalid_grant`, "The code has expired").
  case authorizationCodeExpired
  /// The provider thinks the code was issued in the future: a clock is wrong
  /// (`invalid_grant`, "The code is dated in the future").
  case authorizationCodeFromTheFuture
  /// A Simkl PIN poll answered with a fresh code: the code the user was shown is gone.
  case pinCodeReplaced
  /// The token endpoint answered with another OAuth error (RFC 6749 §5.2, RFC 8628 §3.5).
  case tokenRequestRejected(OAuthError)
  /// The revocation endpoint refused (RFC 7009 §2.2.1).
  case revocationRejected(OAuthError)
  /// The provider failed (HTTP 5xx without an OAuth error).
  case serverError(status: Int)
  /// An HTTP status the request does not expect, without an OAuth error body.
  case unexpectedStatus(Int)
  /// The endpoint answered with a redirect, which is never followed for OAuth endpoints.
  case redirectRefused(status: Int)
  /// The answer had no body where one was needed.
  case emptyResponse(status: Int)
  /// The answer was not JSON.
  case nonJSONResponse(status: Int)
  /// The answer was JSON but lacked something required (the text says what).
  case malformedResponse(String)

  // MARK: The network

  /// The request failed before an answer arrived (timeout, dropped connection, size cap, TLS).
  case transport(TransportError)

  // MARK: The provider's configuration

  /// The provider does not offer this flow (its `flows` list).
  case flowNotOffered(SignInFlow, provider: String)
  /// The provider's configuration lacks an endpoint this step needs (named by its wire name).
  case missingEndpoint(String, provider: String)
  /// The provider's discovery document (at `issuer`) lists no such endpoint, and the
  /// configuration sets none: the server does not offer this step (a GitLab older than 17.1
  /// has no device grant).
  case endpointNotDiscovered(String, provider: String, issuer: String)
  /// An endpoint uses plain http off loopback; every provider endpoint must be https.
  case insecureEndpoint(String, provider: String)

  /// The provider file says `"par": "required"` but the server publishes no
  /// `pushed_authorization_request_endpoint` (RFC 9126 §5); or the server says it takes only
  /// pushed requests (`requiredByServer`) and publishes none.
  case pushedAuthorizationUnavailable(String, requiredByServer: Bool)
  /// The server takes only pushed authorization requests
  /// (`require_pushed_authorization_requests`, RFC 9126 §5) and the provider file says
  /// `"par": "off"`.
  case pushedAuthorizationRequiredByServer(String)
  /// The PAR endpoint refused the authorization request (RFC 9126 §2.3).
  case pushedAuthorizationRejected(OAuthError)
  /// The provider file says `"dpop": "required"` and the server lists no DPoP algorithm
  /// authtui signs with (`dpop_signing_alg_values_supported`, RFC 9449 §5.1; authtui signs
  /// ES256).
  case dpopUnsupported(String, offered: [String])
  /// DPoP is required for this provider, but the sign-in was given no key to sign proofs with.
  case dpopKeyMissing(String)
  /// A DPoP proof could not be signed (RFC 9449 §4); the text says why, never with key
  /// material.
  case dpopProofFailed(String)
  /// The token endpoint answered a request that carried no DPoP proof with a DPoP-bound
  /// token (`token_type` `DPoP`, RFC 9449 §5), which nobody could use.
  case unexpectedDPoPToken

  /// A dynamic client registration (RFC 7591) or its deletion (RFC 7592) did not succeed.
  case registrationFailed(ClientRegistrationError)

  // MARK: OpenID Connect and the account's identity

  /// The discovery document could not be used (OIDC Discovery §4).
  case discoveryFailed(DiscoveryError)
  /// The id_token failed validation (OIDC Core §3.1.3.7): the sign-in's tokens are refused.
  case idTokenRejected(IDTokenError)
  /// The account behind the new tokens could not be read (the identity step).
  case identityFailed(IdentityError)
}

extension AuthError {
  /// A stable snake_case name for scripts (`{"event":"error","error":…}`); the OAuth code
  /// where the provider sent one.
  public var code: String {
    switch self {
    case .cancelled: return "cancelled"
    case .accessDenied: return "access_denied"
    case .noAnswer: return "no_answer"
    case .userCodeExpired: return "expired_token"
    case .refreshTokenRejected: return "sign_in_needed"
    case .portInUse: return "port_in_use"
    case .listenerFailed: return "listener_failed"
    case .stateMismatch: return "state_mismatch"
    case .issuerMismatch: return "issuer_mismatch"
    case .malformedRedirect: return "malformed_redirect"
    case .authorizationFailed(let error, _): return error.code.rawValue
    case .pkceVerificationFailed: return "pkce_verification_failed"
    case .authorizationCodeUsed: return "code_already_used"
    case .authorizationCodeExpired: return "code_expired"
    case .authorizationCodeFromTheFuture: return "code_dated_in_future"
    case .pinCodeReplaced: return "pin_code_replaced"
    case .tokenRequestRejected(let error): return error.code.rawValue
    case .revocationRejected(let error): return error.code.rawValue
    case .serverError: return "server_error"
    case .unexpectedStatus: return "unexpected_status"
    case .redirectRefused: return "redirect_refused"
    case .emptyResponse: return "empty_response"
    case .nonJSONResponse: return "non_json_response"
    case .malformedResponse: return "malformed_response"
    case .transport(let error): return error.code
    case .flowNotOffered: return "flow_not_offered"
    case .missingEndpoint: return "missing_endpoint"
    case .endpointNotDiscovered: return "endpoint_not_discovered"
    case .insecureEndpoint: return "insecure_endpoint"
    case .pushedAuthorizationUnavailable: return "par_unavailable"
    case .pushedAuthorizationRequiredByServer: return "par_required"
    case .pushedAuthorizationRejected(let error): return error.code.rawValue
    case .dpopUnsupported: return "dpop_unsupported"
    case .dpopKeyMissing: return "dpop_key_missing"
    case .dpopProofFailed: return "dpop_proof_failed"
    case .unexpectedDPoPToken: return "unexpected_dpop_token"
    case .discoveryFailed(let error): return error.code
    case .registrationFailed(let error): return error.code
    case .idTokenRejected(let error): return error.code
    case .identityFailed(let error): return error.code
    }
  }
}

extension TransportError {
  /// A stable snake_case name for scripts.
  public var code: String {
    switch self {
    case .timedOut: return "timed_out"
    case .connectionLost: return "connection_lost"
    case .cannotConnect: return "cannot_connect"
    case .hostNotFound: return "host_not_found"
    case .untrustedCertificate: return "untrusted_certificate"
    case .insecureConnection: return "insecure_connection"
    case .responseTooLarge: return "response_too_large"
    case .cancelled: return "cancelled"
    case .failed: return "network_error"
    }
  }
}
