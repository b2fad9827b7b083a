import Foundation
import JSON

/// What an authorization server publishes about itself, merged from its OpenID Connect
/// discovery document (`{issuer}/.well-known/openid-configuration`, OIDC Discovery §3, §4) and
/// its RFC 8414 metadata (`/.well-known/oauth-authorization-server`, RFC 8414 §2, §3): its
/// issuer, endpoints and capabilities. Immutable.
///
/// Merge rule (`init(documents:expectedIssuer:overridden:issuerTemplate:)`): for every member,
/// the first document in order (OpenID discovery first, then RFC 8414) that has a usable value
/// gives it, so a member only the RFC 8414 document has (a `revocation_endpoint`, a
/// `registration_endpoint`) is taken from there. Each document's `issuer` is checked as its
/// own specification says (OIDC Discovery §4.3, RFC 8414 §3.3). A malformed or insecure
/// optional member is ignored as if absent; only the members a sign-in cannot do without
/// (`requiredEndpoints`) make the metadata unusable.
public struct OIDCProviderMetadata: Sendable, Equatable {
  /// `issuer`: equal to the configured issuer, or of the shape of its `issuer_template`.
  public let issuer: String
  /// `authorization_endpoint` (RFC 6749 §3.1, RFC 8414 §2).
  public let authorizationEndpoint: URL?
  /// `token_endpoint` (RFC 6749 §3.2, RFC 8414 §2).
  public let tokenEndpoint: URL?
  /// `device_authorization_endpoint` (RFC 8628 §4).
  public let deviceAuthorizationEndpoint: URL?
  /// `revocation_endpoint` (RFC 8414 §2, RFC 7009).
  public let revocationEndpoint: URL?
  /// `userinfo_endpoint` (OIDC Core §5.3).
  public let userinfoEndpoint: URL?
  /// `end_session_endpoint` (OIDC RP-Initiated Logout §2.1).
  public let endSessionEndpoint: URL?
  /// `jwks_uri` (OIDC Discovery §3, RFC 8414 §2): the signing keys.
  public let jwksURI: URL?
  /// `registration_endpoint` (RFC 8414 §2, RFC 7591 §3): where a client registers itself.
  public let registrationEndpoint: URL?
  /// `pushed_authorization_request_endpoint` (RFC 9126 §5): where authorization requests may
  /// be pushed before the browser is sent.
  public let pushedAuthorizationRequestEndpoint: URL?
  /// `require_pushed_authorization_requests` (RFC 9126 §5): true when the server accepts
  /// authorization requests only through its PAR endpoint.
  public let requirePushedAuthorizationRequests: Bool
  /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the JWS algorithms the server takes
  /// for DPoP proofs; empty when it does not say (DPoP is then not offered).
  public let dpopSigningAlgorithms: [String]
  /// `grant_types_supported` (RFC 8414 §2, OIDC Discovery §3); nil when not published, which
  /// both specifications read as `authorization_code` and `implicit`.
  public let grantTypesSupported: [String]?
  /// `response_types_supported` (RFC 8414 §2, OIDC Discovery §3).
  public let responseTypesSupported: [String]
  /// `token_endpoint_auth_methods_supported` (RFC 8414 §2); nil when not published, which
  /// RFC 8414 reads as `client_secret_basic`.
  public let tokenEndpointAuthMethods: [String]?
  /// `id_token_signing_alg_values_supported` (OIDC Discovery §3).
  public let idTokenSigningAlgorithms: [String]
  /// `scopes_supported` (OIDC Discovery §3, RFC 8414 §2).
  public let scopesSupported: [String]
  /// `code_challenge_methods_supported` (RFC 8414 §2).
  public let codeChallengeMethods: [String]
  /// `authorization_response_iss_parameter_supported` (RFC 9207 §3).
  public let issuerParameterSupported: Bool
  /// The documents the members came from, in the order they were read (an OpenID discovery
  /// document, RFC 8414 metadata, or both).
  public let sources: [MetadataDocument.Kind]

  /// Endpoint members read beside `ProviderEndpoint.published`: the registration endpoint, which no
  /// configuration field holds, and the PAR endpoint, which `applying(_:)` takes on its own
  /// (a provider file does not set it; its `par` decides whether it is used).
  public static let otherEndpointMembers = [
    "registration_endpoint", "pushed_authorization_request_endpoint",
  ]

  /// The endpoints a sign-in cannot do without: a malformed or plain-http value of these makes
  /// the metadata unusable rather than being ignored.
  public static let requiredEndpoints: Set<String> = [
    "authorization_endpoint", "token_endpoint", "jwks_uri",
  ]

  /// Reads one OpenID discovery document. `issuer` must equal `expectedIssuer` exactly; each
  /// endpoint must be an https URL, or http on loopback. Members named in `overridden`
  /// (endpoints the configuration sets itself) are not read at all, so a bad published value
  /// there does not stand in the way of the configured one. `jwks_uri` is required unless
  /// overridden.
  public init(
    json: [String: JSONValue], expectedIssuer: String, overridden: Set<String> = [],
    issuerTemplate: IssuerTemplate? = nil
  ) throws(DiscoveryError) {
    try self.init(
      documents: [MetadataDocument(kind: .openIDConfiguration, json: json)],
      expectedIssuer: expectedIssuer, overridden: overridden, issuerTemplate: issuerTemplate)
  }

  /// Merges `documents` (OpenID discovery first, then RFC 8414 metadata) as the type's
  /// description says. An OpenID document for another issuer is refused (OIDC Discovery §4.3:
  /// it may be an impersonation); an RFC 8414 document for another issuer is left unused
  /// (RFC 8414 §3.3), and refused only when it is the only document. `jwks_uri` is required
  /// when an OpenID document is among them (OIDC Discovery §3), unless overridden.
  public init(
    documents: [MetadataDocument], expectedIssuer: String, overridden: Set<String> = [],
    issuerTemplate: IssuerTemplate? = nil
  ) throws(DiscoveryError) {
    var usable: [MetadataDocument] = []
    var mismatch: DiscoveryError?
    var published: String?
    for document in documents {
      let named = document.json["issuer"]?.stringValue
      if let checked = Self.checkedIssuer(named, expected: expectedIssuer, template: issuerTemplate)
      {
        published = published ?? checked
        usable.append(document)
        continue
      }
      let error = DiscoveryError.issuerMismatch(
        expected: expectedIssuer, received: named.map { OAuthError.clean($0) ?? "?" })
      if document.kind == .openIDConfiguration { throw error }
      mismatch = mismatch ?? error
    }
    guard let published, !usable.isEmpty else {
      throw mismatch ?? .issuerMismatch(expected: expectedIssuer, received: nil)
    }
    issuer = published
    sources = usable.map(\.kind)

    var endpoints: [String: URL] = [:]
    let names = ProviderEndpoint.published.map(\.rawValue) + Self.otherEndpointMembers
    for name in names where !overridden.contains(name) {
      endpoints[name] = try Self.endpoint(name, in: usable)
    }
    if endpoints["jwks_uri"] == nil && !overridden.contains("jwks_uri")
      && usable.contains(where: { $0.kind == .openIDConfiguration })
    {
      throw .missingMember("jwks_uri")
    }
    authorizationEndpoint = endpoints["authorization_endpoint"]
    tokenEndpoint = endpoints["token_endpoint"]
    deviceAuthorizationEndpoint = endpoints["device_authorization_endpoint"]
    revocationEndpoint = endpoints["revocation_endpoint"]
    userinfoEndpoint = endpoints["userinfo_endpoint"]
    endSessionEndpoint = endpoints["end_session_endpoint"]
    jwksURI = endpoints["jwks_uri"]
    registrationEndpoint = endpoints["registration_endpoint"]
    pushedAuthorizationRequestEndpoint = endpoints["pushed_authorization_request_endpoint"]

    func strings(_ name: String) -> [String]? {
      usable.lazy.compactMap { Self.strings($0.json[name]) }.first
    }
    func flag(_ name: String) -> Bool {
      usable.lazy.compactMap { document -> Bool? in
        if case .bool(let value)? = document.json[name] { return value }
        return nil
      }.first ?? false
    }
    requirePushedAuthorizationRequests = flag("require_pushed_authorization_requests")
    dpopSigningAlgorithms = strings("dpop_signing_alg_values_supported") ?? []
    grantTypesSupported = strings("grant_types_supported")
    responseTypesSupported = strings("response_types_supported") ?? []
    tokenEndpointAuthMethods = strings("token_endpoint_auth_methods_supported")
    idTokenSigningAlgorithms = strings("id_token_signing_alg_values_supported") ?? []
    scopesSupported = strings("scopes_supported") ?? []
    codeChallengeMethods = strings("code_challenge_methods_supported") ?? []
    issuerParameterSupported = flag("authorization_response_iss_parameter_supported")
  }

  /// The issuer a document names when it is acceptable for `expected`: exactly it, or of the
  /// shape of `template` (a templated provider publishes the template itself, Microsoft's
  /// `common`, or one tenant's issuer, `consumers` or a domain: either is accepted, and the
  /// id_token check then follows the template and the concrete issuer, when one was
  /// published). Nil when it is not acceptable.
  private static func checkedIssuer(
    _ named: String?, expected: String, template: IssuerTemplate?
  ) -> String? {
    if let named, let template, template.describes(named) { return named }
    return named == expected ? expected : nil
  }

  /// The first usable value of endpoint `name` among `documents`; nil when none has one. A
  /// value that is no URL or plain http off loopback is skipped, and refused only for a
  /// required endpoint that no document gives usably.
  private static func endpoint(_ name: String, in documents: [MetadataDocument])
    throws(DiscoveryError) -> URL?
  {
    var problem: DiscoveryError?
    for document in documents {
      guard let value = document.json[name], value != .null else { continue }
      guard let text = value.stringValue, let url = URL(string: text), url.host != nil else {
        problem = problem ?? .invalidEndpoint(name)
        continue
      }
      guard ProviderConfiguration.isAllowedEndpoint(url) else {
        problem = problem ?? .insecureEndpoint(name)
        continue
      }
      return url
    }
    if let problem, requiredEndpoints.contains(name) { throw problem }
    return nil
  }

  /// The endpoint member called `name` (one of `ProviderEndpoint.published` or `otherEndpointMembers`).
  public func endpoint(named name: String) -> URL? {
    switch name {
    case "authorization_endpoint": return authorizationEndpoint
    case "token_endpoint": return tokenEndpoint
    case "device_authorization_endpoint": return deviceAuthorizationEndpoint
    case "revocation_endpoint": return revocationEndpoint
    case "userinfo_endpoint": return userinfoEndpoint
    case "end_session_endpoint": return endSessionEndpoint
    case "jwks_uri": return jwksURI
    case "registration_endpoint": return registrationEndpoint
    case "pushed_authorization_request_endpoint": return pushedAuthorizationRequestEndpoint
    default: return nil
    }
  }

  /// True when the server says it takes `grantType` (`grant_types_supported`), or does not
  /// say (then only the browser's `authorization_code` is assumed, as RFC 8414 §2 has it).
  public func offersGrant(_ grantType: String) -> Bool {
    guard let grantTypesSupported else { return grantType == "authorization_code" }
    return grantTypesSupported.contains(grantType)
  }

  /// The discovery URL for `issuer` (OIDC Discovery §4.1): a terminating `/` is removed before
  /// `/.well-known/openid-configuration` is appended. The issuer must be https (http only on
  /// loopback) with a host and no query or fragment (§2).
  public static func discoveryURL(issuer: String) throws(DiscoveryError) -> URL {
    try wellKnownURLs(issuer: issuer, suffix: "openid-configuration").appended
  }

  /// Where RFC 8414 metadata for `issuer` may be, in the order to try: the path-insertion form
  /// of RFC 8414 §3.1 (`https://host/.well-known/oauth-authorization-server/path`, a
  /// terminating `/` of the path removed first), then, for an issuer with a path, the suffix
  /// form (`{issuer}/.well-known/oauth-authorization-server`) that servers following OIDC
  /// Discovery's pattern use. An issuer without a path has one URL.
  public static func authorizationServerMetadataURLs(issuer: String) throws(DiscoveryError)
    -> [URL]
  {
    let forms = try wellKnownURLs(issuer: issuer, suffix: "oauth-authorization-server")
    return forms.inserted == forms.appended ? [forms.inserted] : [forms.inserted, forms.appended]
  }

  /// `/.well-known/SUFFIX` inserted between `issuer`'s host and path (RFC 8414 §3.1), and
  /// appended to it (OIDC Discovery §4.1).
  private static func wellKnownURLs(issuer: String, suffix: String) throws(DiscoveryError)
    -> (inserted: URL, appended: URL)
  {
    // Before anything that repeats the issuer: the password is in it.
    if let credentials = IssuerCredentials(issuer: issuer) {
      throw .credentialsInIssuer(credentials)
    }
    guard let url = URL(string: issuer), let host = url.host, url.query == nil,
      url.fragment == nil, ProviderConfiguration.isAllowedEndpoint(url),
      let scheme = url.scheme
    else { throw .invalidIssuer(OAuthError.clean(issuer) ?? "?") }
    if let port = url.port, !(1...65535).contains(port) {
      throw .unreachableIssuer(
        OAuthError.clean(issuer) ?? "?", problem: "its port \(port) is not a number from 1 to 65535"
      )
    }
    // URLSession here fails every request to one at once (URLError -1000, "bad URL").
    if host.contains(":") {
      throw .unreachableIssuer(
        OAuthError.clean(issuer) ?? "?",
        problem: "its host is an IPv6 address, which authtui's HTTP client cannot reach; give "
          + "127.0.0.1 or a host name instead")
    }
    var base = issuer
    if base.hasSuffix("/") { base.removeLast() }
    var path = url.path(percentEncoded: true)
    if path.hasSuffix("/") { path.removeLast() }
    let port = url.port.map { ":\($0)" } ?? ""
    let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    guard let appended = URL(string: base + "/.well-known/" + suffix),
      let inserted = URL(string: "\(scheme)://\(hostText)\(port)/.well-known/\(suffix)\(path)")
    else { throw .invalidIssuer(OAuthError.clean(issuer) ?? "?") }
    return (inserted, appended)
  }

  /// The strings of a JSON array; nil when `value` is no array (absent or malformed). Members
  /// that are not strings are skipped.
  private static func strings(_ value: JSONValue?) -> [String]? {
    value?.arrayValue?.compactMap(\.stringValue)
  }
}

/// One metadata document as fetched: which kind it is and its members.
public struct MetadataDocument: Sendable, Equatable {
  /// The two documents a server may publish about itself.
  public enum Kind: String, Sendable, Equatable {
    /// `/.well-known/openid-configuration` (OIDC Discovery §4).
    case openIDConfiguration = "openid-configuration"
    /// `/.well-known/oauth-authorization-server` (RFC 8414 §3).
    case authorizationServer = "oauth-authorization-server"
  }

  /// Which document this is.
  public let kind: Kind
  /// Its members.
  public let json: [String: JSONValue]

  /// A document of `kind` with `json`'s members.
  public init(kind: Kind, json: [String: JSONValue]) {
    self.kind = kind
    self.json = json
  }
}

extension ProviderConfiguration {
  /// This configuration with the endpoints it does not set taken from `metadata`: explicit
  /// fields always win (DESIGN.md "Configuration"). An `iss` in authorization responses
  /// becomes required when the provider says it sends one (RFC 9207 §3). Its PAR endpoint,
  /// whether it takes only pushed requests and its DPoP algorithms are taken too: the
  /// provider file's `par` and `dpop` decide what they are used for.
  public func applying(_ metadata: OIDCProviderMetadata) -> ProviderConfiguration {
    var merged = self
    for endpoint in ProviderEndpoint.published where merged[keyPath: endpoint.keyPath] == nil {
      merged[keyPath: endpoint.keyPath] = metadata.endpoint(named: endpoint.rawValue)
    }
    merged.requiresIssuerInAuthorizationResponse =
      requiresIssuerInAuthorizationResponse || metadata.issuerParameterSupported
    merged.pushedAuthorizationRequestEndpoint =
      pushedAuthorizationRequestEndpoint ?? metadata.pushedAuthorizationRequestEndpoint
    merged.requiresPushedAuthorizationRequests =
      requiresPushedAuthorizationRequests || metadata.requirePushedAuthorizationRequests
    if dpopSigningAlgorithms.isEmpty {
      merged.dpopSigningAlgorithms = metadata.dpopSigningAlgorithms
    }
    return merged
  }

  /// The wire names of the endpoints this configuration sets itself, which discovery must not
  /// replace.
  var explicitEndpointNames: Set<String> {
    Set(ProviderEndpoint.published.filter { self[keyPath: $0.keyPath] != nil }.map(\.rawValue))
  }
}
