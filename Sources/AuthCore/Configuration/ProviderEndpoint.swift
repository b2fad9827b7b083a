import Foundation

/// An endpoint of the provider that a configuration names, by its metadata member name
/// (RFC 8414 §2, OpenID Connect Discovery §3): the one list of them that the provider file's
/// reader, its merge and placeholder filling, the configuration it resolves to, discovery and
/// `providers show` all go through.
public enum ProviderEndpoint: String, Sendable, CaseIterable, Hashable {
  /// Where the browser is sent to sign in (RFC 6749 §3.1).
  case authorization = "authorization_endpoint"
  /// Where codes, device codes and refresh tokens become tokens (RFC 6749 §3.2).
  case token = "token_endpoint"
  /// Where a device flow starts (RFC 8628 §3.1).
  case deviceAuthorization = "device_authorization_endpoint"
  /// Where tokens are revoked on sign-out (RFC 7009 §2).
  case revocation = "revocation_endpoint"
  /// OpenID Connect userinfo (OIDC Core §5.3).
  case userinfo = "userinfo_endpoint"
  /// RP-initiated logout (OIDC RP-Initiated Logout §2.1).
  case endSession = "end_session_endpoint"
  /// The provider's signing keys (RFC 8414 §2).
  case jwks = "jwks_uri"
  /// Start of a Simkl-style PIN flow; no metadata document publishes it.
  case pin = "pin_endpoint"

  /// The configuration's field for this endpoint.
  public var keyPath: WritableKeyPath<ProviderConfiguration, URL?> {
    switch self {
    case .authorization: \.authorizationEndpoint
    case .token: \.tokenEndpoint
    case .deviceAuthorization: \.deviceAuthorizationEndpoint
    case .revocation: \.revocationEndpoint
    case .userinfo: \.userinfoEndpoint
    case .endSession: \.endSessionEndpoint
    case .jwks: \.jwksURI
    case .pin: \.pinEndpoint
    }
  }

  /// The endpoints a discovery document may publish, in the order `providers show` lists them.
  public static let published = allCases.filter { $0 != .pin }
}

extension SignInFlow {
  /// The endpoints this flow cannot start without.
  public var requiredEndpoints: [ProviderEndpoint] {
    switch self {
    case .pkce: [.authorization, .token]
    case .device: [.deviceAuthorization, .token]
    case .pin: [.pin]
    }
  }
}
