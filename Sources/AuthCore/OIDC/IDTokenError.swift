import Foundation

/// Why an id_token was refused (OIDC Core §3.1.3.7, RFC 7515, RFC 7519). Each case is one check;
/// a refused id_token refuses the whole sign-in, since its tokens cannot be tied to this attempt.
///
/// No case carries the token, a claim value that identifies the user, or the nonce.
public enum IDTokenError: Error, Sendable, Equatable {
  /// A nonce was sent (scope `openid`) but the token answer has no `id_token` (OIDC Core
  /// §3.1.3.3).
  case missing
  /// Not a compact JWS of three base64url parts with JSON header and claims (RFC 7515 §7.1);
  /// the text says what is wrong.
  case malformed(String)
  /// `alg` is `none` (RFC 7518 §3.6): an unsigned token proves nothing.
  case unsigned
  /// `alg` is a shared-secret algorithm (`HS256`, `HS384`, `HS512`, RFC 7518 §3.2). A public
  /// client has no secret, and treating the provider's public key as one is the classic
  /// algorithm-confusion forgery.
  case symmetricAlgorithm(String)
  /// `alg` is anything else but RS256 and ES256.
  case unsupportedAlgorithm(String)
  /// The header lists extensions that must be understood (`crit`, RFC 7515 §4.1.11).
  case criticalHeader([String])
  /// No published key matches the header's `kid` and `alg`, even after fetching the JWKS again
  /// (nil `kid`: the token names none and no key of its type exists).
  case unknownKey(kid: String?)
  /// The token names no `kid` while several keys of its type are published (OIDC Core §10.1).
  case ambiguousKey
  /// The key the token names is published but cannot verify it (malformed, too short, another
  /// key type or use); the text says why.
  case unusableKey(kid: String, reason: String)
  /// The signature does not verify under the provider's key.
  case invalidSignature
  /// `iss` is not exactly the configured issuer.
  case issuerMismatch(expected: String, received: String)
  /// `aud` does not contain the client id.
  case audienceMismatch(clientID: String)
  /// `azp` is present, or required by several audiences, and is not the client id.
  case authorizedPartyMismatch(clientID: String)
  /// `exp` had passed, beyond the allowed clock skew, when the token was checked.
  case expired(at: Date)
  /// `iat` lies in the future beyond the allowed clock skew.
  case issuedInFuture(at: Date)
  /// `nbf` lies in the future beyond the allowed clock skew (RFC 7519 §4.1.5).
  case notYetValid(until: Date)
  /// `nonce` is missing or not the one this sign-in sent (OIDC Core §3.1.2.1): a replayed or
  /// injected token.
  case nonceMismatch
  /// `at_hash` does not match the access token that came with the id_token (OIDC Core
  /// §3.1.3.6): the two were not issued together.
  case accessTokenHashMismatch
  /// A claim OIDC Core §2 requires is absent or has the wrong type.
  case missingClaim(String)
  /// The provider's issuer is a template (`issuer_template`) and the token lacks the claim
  /// that fills it (`tid`), or its value is not one URL segment: the issuer cannot be checked.
  case missingIssuerClaim(String)
  /// The provider's configuration has no `issuer`, so no id_token can be checked.
  case issuerNotConfigured
}

extension IDTokenError: CustomStringConvertible {
  /// One sentence for the user: what went wrong and what to do next.
  public var message: String {
    switch self {
    case .missing:
      return "The provider signed in without an id_token although OpenID Connect was asked for "
        + "(scope openid); remove `openid` from `scopes` in the provider file if the provider "
        + "does not support OpenID Connect."
    case .malformed(let reason):
      return "The provider's id_token is not a signed JWT (\(reason)); try again, and report it "
        + "to the provider if it keeps happening."
    case .unsigned:
      return "The provider's id_token is unsigned (alg none) and was refused; check that "
        + "`issuer` in the provider file names the real provider."
    case .symmetricAlgorithm(let algorithm):
      return "The provider's id_token is signed with \(algorithm), a shared-secret algorithm a "
        + "public client cannot check, and was refused; have the client registered at the "
        + "provider sign id_tokens with RS256 or ES256."
    case .unsupportedAlgorithm(let algorithm):
      return "The provider's id_token is signed with \(algorithm), which authtui does not "
        + "accept; have the client registered at the provider sign id_tokens with RS256 or ES256."
    case .criticalHeader(let names):
      return "The provider's id_token requires JWS extensions authtui does not know (crit: "
        + "\(names.joined(separator: ", "))); have the provider issue plain RS256 or ES256 "
        + "id_tokens."
    case .unknownKey(let kid):
      let key = kid.map { "key \($0)" } ?? "a key of its type"
      return "The provider's id_token is signed with \(key), which is not among the provider's "
        + "published keys even after fetching them again; try again in a few minutes, and "
        + "check `jwks_uri` in the provider file if it keeps happening."
    case .ambiguousKey:
      return "The provider's id_token names no signing key (kid) while the provider publishes "
        + "several; report it to the provider."
    case .unusableKey(let kid, let reason):
      return "The provider's signing key \(kid) cannot check its id_token (\(reason)); report it "
        + "to the provider."
    case .invalidSignature:
      return "The provider's id_token signature does not verify (it may have been altered), so "
        + "the sign-in was refused; start a new sign-in, and check `issuer` and `jwks_uri` in "
        + "the provider file if it happens again."
    case .issuerMismatch(let expected, let received):
      return "The provider's id_token was issued by \(received), not \(expected) (iss); check "
        + "`issuer` in the provider file."
    case .audienceMismatch:
      return "The provider's id_token was issued for another application (aud); check "
        + "`client_id` in the provider file."
    case .authorizedPartyMismatch:
      return "The provider's id_token was issued to another application (azp); check "
        + "`client_id` in the provider file."
    case .expired:
      return "The provider's id_token had expired (exp) when it arrived; check this computer's "
        + "clock (`timedatectl`) and start a new sign-in."
    case .issuedInFuture:
      return "The provider's id_token is dated more than 5 minutes in the future (iat); check "
        + "this computer's clock (`timedatectl`) and start a new sign-in."
    case .notYetValid:
      return "The provider's id_token is not valid yet (nbf); check this computer's clock "
        + "(`timedatectl`) and start a new sign-in."
    case .nonceMismatch:
      return "The provider's id_token does not belong to this sign-in (nonce), so it was "
        + "refused; start a new sign-in."
    case .accessTokenHashMismatch:
      return "The provider's id_token does not match the access token it came with (at_hash), "
        + "so both were refused; start a new sign-in."
    case .missingClaim(let name):
      return "The provider's id_token lacks a valid `\(name)` claim, which OpenID Connect "
        + "requires; report it to the provider."
    case .missingIssuerClaim(let name):
      return "The provider's id_token has no valid `\(name)` claim, which names the issuer it "
        + "must come from (`id_token_issuer_fields` in the provider file); it is refused."
    case .issuerNotConfigured:
      return "The provider's configuration has no `issuer`, which checking its id_token needs; "
        + "add `issuer` to the provider file."
    }
  }

  /// The same as `message`.
  public var description: String { message }

  /// A stable snake_case name for scripts (`{"event":"error","error":…}`).
  public var code: String {
    switch self {
    case .missing: return "id_token_missing"
    case .malformed: return "id_token_malformed"
    case .unsigned: return "id_token_unsigned"
    case .symmetricAlgorithm: return "id_token_symmetric_algorithm"
    case .unsupportedAlgorithm: return "id_token_unsupported_algorithm"
    case .criticalHeader: return "id_token_critical_header"
    case .unknownKey: return "id_token_unknown_key"
    case .ambiguousKey: return "id_token_ambiguous_key"
    case .unusableKey: return "id_token_unusable_key"
    case .invalidSignature: return "id_token_invalid_signature"
    case .issuerMismatch: return "id_token_issuer_mismatch"
    case .audienceMismatch: return "id_token_audience_mismatch"
    case .authorizedPartyMismatch: return "id_token_azp_mismatch"
    case .expired: return "id_token_expired"
    case .issuedInFuture: return "id_token_issued_in_future"
    case .notYetValid: return "id_token_not_yet_valid"
    case .nonceMismatch: return "id_token_nonce_mismatch"
    case .accessTokenHashMismatch: return "id_token_at_hash_mismatch"
    case .missingClaim, .missingIssuerClaim: return "id_token_missing_claim"
    case .issuerNotConfigured: return "issuer_not_configured"
    }
  }
}
