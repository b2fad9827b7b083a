import Crypto
import Foundation
import JSON

/// The id_token checks of OIDC Core §3.1.3.7 for one issuer and client, against a key set the
/// caller already holds. Pure: no network, the time is passed in.
///
/// In order: the compact JWS and its `alg` (RS256 or ES256 only; `none` and HMAC refused,
/// whatever the signature), the key named by `kid` (or the only key of the token's type), the
/// signature, then the claims: `iss` exactly the issuer, `sub` present, `aud` containing the
/// client id, `azp` equal to it when present or when there are several audiences, `exp` not
/// passed and `iat`/`nbf` not in the future (each with `allowedClockSkew`), `nonce` equal to
/// the one sent, and `at_hash` matching the access token when the token carries one. The
/// signature comes first so no claim of a forged token is ever acted on.
///
/// `OIDCProvider` wraps this with discovery and a JWKS that is fetched again on key rotation.
public struct IDTokenValidator: Sendable {
  /// The issuer `iss` must equal, character for character.
  public let issuer: String
  /// The client id `aud` must contain.
  public let clientID: String
  /// When set, `iss` must instead equal this template filled with the token's own claim
  /// (`issuer_template`; Microsoft's `tid`), and a token without that claim is refused.
  public let issuerTemplate: IssuerTemplate?
  /// With a template, the one issuer a token must also come from, when the provider's
  /// discovery document named a concrete one (a tenant-specific endpoint).
  public let pinnedIssuer: String?
  /// How far the provider's clock and this computer's may disagree (default 5 minutes).
  public let allowedClockSkew: TimeInterval

  /// A validator for tokens from `issuer` to `clientID`.
  public init(
    issuer: String, clientID: String, allowedClockSkew: TimeInterval = 300,
    issuerTemplate: IssuerTemplate? = nil, pinnedIssuer: String? = nil
  ) {
    self.issuer = issuer
    self.issuerTemplate = issuerTemplate
    self.pinnedIssuer = pinnedIssuer
    self.clientID = clientID
    self.allowedClockSkew = allowedClockSkew
  }

  /// A validator for the provider `configuration` describes; it must have an `issuer`.
  public init(
    configuration: ProviderConfiguration, allowedClockSkew: TimeInterval = 300,
    pinnedIssuer: String? = nil
  ) throws(IDTokenError) {
    guard let issuer = configuration.issuer else { throw .issuerNotConfigured }
    self.init(
      issuer: issuer, clientID: configuration.clientID, allowedClockSkew: allowedClockSkew,
      issuerTemplate: configuration.issuerTemplate, pinnedIssuer: pinnedIssuer)
  }

  /// Checks `idToken` against `keys` at `now`. `nonce` is the one the authorization request
  /// sent (nil when none was, as on a device sign-in or a refresh); `accessToken` is the one
  /// that came with the id_token, for `at_hash`.
  public func validate(
    _ idToken: String, keys: JSONWebKeySet, now: Date, nonce: String?, accessToken: String?
  ) throws(IDTokenError) -> IDToken {
    let token = try CompactJWS(parsing: idToken)
    switch keys.select(algorithm: token.algorithm, keyID: token.keyID) {
    case .keys(let candidates):
      return try validate(
        token, candidates: candidates, now: now, nonce: nonce, accessToken: accessToken)
    case .notFound:
      throw .unknownKey(kid: token.keyID)
    case .refused(let error):
      throw error
    }
  }

  /// The checks after key selection: the signature under one of `candidates`, then the claims.
  func validate(
    _ token: CompactJWS, candidates: [PublicKey], now: Date, nonce: String?,
    accessToken: String?
  ) throws(IDTokenError) -> IDToken {
    let verified = candidates.contains {
      $0.isValidSignature(token.signature, for: token.signingInput, algorithm: token.algorithm)
    }
    guard verified else { throw .invalidSignature }
    return try checkClaims(of: token, now: now, nonce: nonce, accessToken: accessToken)
  }

  private func checkClaims(
    of token: CompactJWS, now: Date, nonce expectedNonce: String?, accessToken: String?
  ) throws(IDTokenError) -> IDToken {
    let claims = token.claims
    guard let issuer = claims["iss"]?.stringValue else { throw .missingClaim("iss") }
    let expected = try expectedIssuer(claims)
    guard issuer == expected, pinnedIssuer.map({ $0 == issuer }) ?? true else {
      // Cleaned: the value is the provider's and lands in a terminal.
      throw .issuerMismatch(
        expected: pinnedIssuer ?? expected, received: OAuthError.clean(issuer) ?? "?")
    }
    guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
      throw .missingClaim("sub")
    }
    let audiences = try Self.audiences(claims["aud"])
    guard audiences.contains(clientID) else { throw .audienceMismatch(clientID: clientID) }
    var authorizedParty: String?
    if let azp = claims["azp"] {
      guard azp.stringValue == clientID else {
        throw .authorizedPartyMismatch(clientID: clientID)
      }
      authorizedParty = clientID
    } else if audiences.count > 1 {
      throw .authorizedPartyMismatch(clientID: clientID)
    }
    let expiresAt = try Self.date(claims, "exp")
    guard now < expiresAt.addingTimeInterval(allowedClockSkew) else {
      throw .expired(at: expiresAt)
    }
    let issuedAt = try Self.date(claims, "iat")
    guard issuedAt <= now.addingTimeInterval(allowedClockSkew) else {
      throw .issuedInFuture(at: issuedAt)
    }
    if claims["nbf"] != nil {
      let notBefore = try Self.date(claims, "nbf")
      guard notBefore <= now.addingTimeInterval(allowedClockSkew) else {
        throw .notYetValid(until: notBefore)
      }
    }
    let nonce = claims["nonce"]?.stringValue
    if let expectedNonce {
      guard let nonce, ConstantTime.equals(Array(nonce.utf8), Array(expectedNonce.utf8)) else {
        throw .nonceMismatch
      }
    }
    if let hash = claims["at_hash"], let accessToken {
      guard hash.stringValue == Self.accessTokenHash(accessToken) else {
        throw .accessTokenHashMismatch
      }
    }
    let authenticatedAt = claims["auth_time"] == nil ? nil : try Self.date(claims, "auth_time")
    return IDToken(
      algorithm: token.algorithm, keyID: token.keyID, issuer: issuer, subject: subject,
      audiences: audiences, authorizedParty: authorizedParty, expiresAt: expiresAt,
      issuedAt: issuedAt, authenticatedAt: authenticatedAt, nonce: nonce, claims: claims)
  }

  /// The issuer `claims` must name: the configured one, or the template filled with the
  /// token's own claim.
  private func expectedIssuer(_ claims: [String: JSONValue]) throws(IDTokenError) -> String {
    guard let issuerTemplate else { return issuer }
    guard let value = claims[issuerTemplate.claim]?.stringValue,
      IssuerTemplate.isSegment(value)
    else { throw .missingIssuerClaim(issuerTemplate.claim) }
    return issuerTemplate.filled(with: value)
  }

  /// `at_hash` for an RS256 or ES256 token (OIDC Core §3.1.3.6): the left half of the SHA-256
  /// of the access token's ASCII bytes, base64url.
  public static func accessTokenHash(_ accessToken: String) -> String {
    Base64URL.encode(SHA256.hash(accessToken).prefix(SHA256.byteCount / 2))
  }

  /// `aud`: one string, or a non-empty array of strings (RFC 7519 §4.1.3).
  private static func audiences(_ value: JSONValue?) throws(IDTokenError) -> [String] {
    switch value {
    case .string(let audience)?:
      return [audience]
    case .array(let elements)?:
      let audiences = elements.compactMap(\.stringValue)
      guard !audiences.isEmpty, audiences.count == elements.count else {
        throw .missingClaim("aud")
      }
      return audiences
    default:
      throw .missingClaim("aud")
    }
  }

  /// A NumericDate claim (RFC 7519 §2): a JSON number of seconds since the epoch.
  private static func date(_ claims: [String: JSONValue], _ name: String) throws(IDTokenError)
    -> Date
  {
    guard let seconds = claims[name]?.strictNumberValue, seconds.isFinite else {
      throw .missingClaim(name)
    }
    return Date(timeIntervalSince1970: seconds)
  }
}
