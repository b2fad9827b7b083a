import Foundation
import JSON

/// What a provider publishes about itself at `{issuer}/.well-known/openid-configuration`
/// (OIDC Discovery §3, with the RFC 8414 and RFC 8628 additions): its issuer, endpoints and a
/// few capabilities. Immutable; read with `init(json:expectedIssuer:overridden:)`, which
/// enforces §4.3 (the `issuer` must be exactly the one configured).
public struct OIDCProviderMetadata: Sendable, Equatable {
  /// `issuer`: equal to the configured issuer, or of the shape of its `issuer_template`.
  public let issuer: String
  /// `authorization_endpoint` (RFC 6749 §3.1).
  public let authorizationEndpoint: URL?
  /// `token_endpoint` (RFC 6749 §3.2).
  public let tokenEndpoint: URL?
  /// `device_authorization_endpoint` (RFC 8628 §4).
  public let deviceAuthorizationEndpoint: URL?
  /// `revocation_endpoint` (RFC 8414 §2, RFC 7009).
  public let revocationEndpoint: URL?
  /// `userinfo_endpoint` (OIDC Core §5.3).
  public let userinfoEndpoint: URL?
  /// `end_session_endpoint` (OIDC RP-Initiated Logout §2.1).
  public let endSessionEndpoint: URL?
  /// `jwks_uri` (OIDC Discovery §3): the signing keys.
  public let jwksURI: URL?
  /// `id_token_signing_alg_values_supported` (OIDC Discovery §3).
  public let idTokenSigningAlgorithms: [String]
  /// `scopes_supported` (OIDC Discovery §3).
  public let scopesSupported: [String]
  /// `code_challenge_methods_supported` (RFC 8414 §2).
  public let codeChallengeMethods: [String]
  /// `authorization_response_iss_parameter_supported` (RFC 9207 §3).
  public let issuerParameterSupported: Bool

  /// The wire names of the endpoint members, with the configuration field each one fills.
  public static var endpointMembers:
    [(name: String, keyPath: WritableKeyPath<ProviderConfiguration, URL?>)]
  {
    [
      ("authorization_endpoint", \.authorizationEndpoint),
      ("token_endpoint", \.tokenEndpoint),
      ("device_authorization_endpoint", \.deviceAuthorizationEndpoint),
      ("revocation_endpoint", \.revocationEndpoint),
      ("userinfo_endpoint", \.userinfoEndpoint),
      ("end_session_endpoint", \.endSessionEndpoint),
      ("jwks_uri", \.jwksURI),
    ]
  }

  /// Reads a discovery document. `issuer` must equal `expectedIssuer` exactly; each endpoint
  /// must be an https URL, or http on loopback. Members named in `overridden` (endpoints the
  /// configuration sets itself) are not read at all, so a bad published value there does not
  /// stand in the way of the configured one. `jwks_uri` is required unless overridden.
  public init(
    json: [String: JSONValue], expectedIssuer: String, overridden: Set<String> = [],
    issuerTemplate: IssuerTemplate? = nil
  ) throws(DiscoveryError) {
    let published = json["issuer"]?.stringValue
    // A templated provider publishes the template itself (Microsoft's `common`) or one
    // tenant's issuer (`consumers`, a domain): either is accepted, and the id_token check then
    // follows the template (and the concrete issuer, when one was published).
    if let published, let issuerTemplate, issuerTemplate.describes(published) {
      issuer = published
    } else {
      guard published == expectedIssuer else {
        throw .issuerMismatch(
          expected: expectedIssuer, received: published.map { OAuthError.clean($0) ?? "?" })
      }
      issuer = expectedIssuer
    }
    var endpoints: [String: URL] = [:]
    for member in Self.endpointMembers where !overridden.contains(member.name) {
      guard let value = json[member.name] else { continue }
      guard let text = value.stringValue, let url = URL(string: text), url.host != nil else {
        throw .invalidEndpoint(member.name)
      }
      guard ProviderConfiguration.isAllowedEndpoint(url) else {
        throw .insecureEndpoint(member.name)
      }
      endpoints[member.name] = url
    }
    if endpoints["jwks_uri"] == nil && !overridden.contains("jwks_uri") {
      throw .missingMember("jwks_uri")
    }
    authorizationEndpoint = endpoints["authorization_endpoint"]
    tokenEndpoint = endpoints["token_endpoint"]
    deviceAuthorizationEndpoint = endpoints["device_authorization_endpoint"]
    revocationEndpoint = endpoints["revocation_endpoint"]
    userinfoEndpoint = endpoints["userinfo_endpoint"]
    endSessionEndpoint = endpoints["end_session_endpoint"]
    jwksURI = endpoints["jwks_uri"]
    idTokenSigningAlgorithms = Self.strings(json["id_token_signing_alg_values_supported"])
    scopesSupported = Self.strings(json["scopes_supported"])
    codeChallengeMethods = Self.strings(json["code_challenge_methods_supported"])
    issuerParameterSupported = json["authorization_response_iss_parameter_supported"] == .bool(true)
  }

  /// The endpoint member called `name` (one of `endpointMembers`).
  public func endpoint(named name: String) -> URL? {
    switch name {
    case "authorization_endpoint": return authorizationEndpoint
    case "token_endpoint": return tokenEndpoint
    case "device_authorization_endpoint": return deviceAuthorizationEndpoint
    case "revocation_endpoint": return revocationEndpoint
    case "userinfo_endpoint": return userinfoEndpoint
    case "end_session_endpoint": return endSessionEndpoint
    case "jwks_uri": return jwksURI
    default: return nil
    }
  }

  /// The discovery URL for `issuer` (OIDC Discovery §4.1): a terminating `/` is removed before
  /// `/.well-known/openid-configuration` is appended. The issuer must be https (http only on
  /// loopback) with a host and no query or fragment (§2).
  public static func discoveryURL(issuer: String) throws(DiscoveryError) -> URL {
    guard let url = URL(string: issuer), url.host != nil, url.query == nil, url.fragment == nil,
      ProviderConfiguration.isAllowedEndpoint(url)
    else { throw .invalidIssuer(OAuthError.clean(issuer) ?? "?") }
    var base = issuer
    if base.hasSuffix("/") { base.removeLast() }
    guard let discovery = URL(string: base + "/.well-known/openid-configuration") else {
      throw .invalidIssuer(OAuthError.clean(issuer) ?? "?")
    }
    return discovery
  }

  private static func strings(_ value: JSONValue?) -> [String] {
    value?.arrayValue?.compactMap(\.stringValue) ?? []
  }
}

extension ProviderConfiguration {
  /// This configuration with the endpoints it does not set taken from `metadata`: explicit
  /// fields always win (DESIGN.md "Configuration"). An `iss` in authorization responses
  /// becomes required when the provider says it sends one (RFC 9207 §3).
  public func applying(_ metadata: OIDCProviderMetadata) -> ProviderConfiguration {
    var merged = self
    for member in OIDCProviderMetadata.endpointMembers where merged[keyPath: member.keyPath] == nil
    {
      merged[keyPath: member.keyPath] = metadata.endpoint(named: member.name)
    }
    merged.requiresIssuerInAuthorizationResponse =
      requiresIssuerInAuthorizationResponse || metadata.issuerParameterSupported
    return merged
  }

  /// The wire names of the endpoints this configuration sets itself, which discovery must not
  /// replace.
  var explicitEndpointNames: Set<String> {
    let members = OIDCProviderMetadata.endpointMembers
    return Set(members.filter { self[keyPath: $0.keyPath] != nil }.map(\.name))
  }
}
