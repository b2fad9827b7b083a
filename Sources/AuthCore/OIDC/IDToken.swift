import Crypto
import Foundation
import JSON

/// An id_token that passed every check of OIDC Core §3.1.3.7: who signed in, for which client,
/// when, as the provider's signature vouches.
///
/// Made only by `IDTokenValidator`. `description` names the issuer, algorithm and dates, never
/// the subject or other claims.
public struct IDToken: Sendable, Equatable, CustomStringConvertible {
  /// The signature algorithm (`alg`, RFC 7515 §4.1.1).
  public let algorithm: SignatureAlgorithm
  /// The signing key's id (`kid`, RFC 7515 §4.1.4), when the header named one.
  public let keyID: String?
  /// The issuer (`iss`, OIDC Core §2), equal to the configured one.
  public let issuer: String
  /// The user's identifier at the issuer (`sub`, OIDC Core §2): stable, never reassigned.
  public let subject: String
  /// The audiences (`aud`, OIDC Core §2); the client id is among them.
  public let audiences: [String]
  /// The authorized party (`azp`, OIDC Core §2), when present: the client id.
  public let authorizedParty: String?
  /// Expiry (`exp`, OIDC Core §2).
  public let expiresAt: Date
  /// Issue time (`iat`, OIDC Core §2).
  public let issuedAt: Date
  /// When the user last authenticated (`auth_time`, OIDC Core §2), when present.
  public let authenticatedAt: Date?
  /// The nonce (`nonce`, OIDC Core §2), equal to the sign-in's when one was sent.
  public let nonce: String?
  /// Every claim as sent, for the identity step (`preferred_username`, `email`, `name`…).
  public let claims: [String: JSONValue]

  /// Issuer, algorithm, key id and dates; the subject and the claims' values are left out.
  public var description: String {
    let formatter = ISO8601DateFormatter()
    return "IDToken(iss: \(issuer), alg: \(algorithm.rawValue), kid: \(keyID ?? "none"), "
      + "iat: \(formatter.string(from: issuedAt)), exp: \(formatter.string(from: expiresAt)))"
  }
}
