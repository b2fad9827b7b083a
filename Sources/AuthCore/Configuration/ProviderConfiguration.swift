import Foundation

/// Everything a sign-in, a refresh or a revocation needs to know about one provider, as data.
///
/// Field names follow DESIGN.md "Configuration", which uses the RFC 8414 / OpenID Connect
/// Discovery metadata names for endpoints so that a discovery document and a hand-written
/// provider file read the same way. Provider quirks are fields here (extra parameters, where they
/// go, the body encoding, a fixed redirect port, the PIN endpoint), never branches on the
/// provider's id: AuthCore does not know which provider it talks to.
///
/// The `Providers` module fills this from presets and user files; AuthCore only reads it.
public struct ProviderConfiguration: Sendable, Equatable {
  /// Short lowercase name (`[a-z0-9-]`) used in `PROVIDER/LABEL` (`id`).
  public var id: ProviderID
  /// Human name shown in the UI (`name`).
  public var name: String
  /// The authorization server's issuer identifier (`issuer`, RFC 8414 §2). When set, an `iss`
  /// parameter in an authorization response must equal it (RFC 9207 §2.4).
  public var issuer: String?
  /// The issuer of id_tokens when it differs per token (`id_token_issuer_fields`): `iss` must equal
  /// the template filled with the token's own claim (Microsoft's `tid`), and discovery accepts
  /// a published issuer of the template's shape. Nil: `iss` must equal `issuer`.
  public var issuerTemplate: IssuerTemplate?
  /// The provider's own names for standard error codes in its token endpoint's answers
  /// (`error_aliases`, provider name to RFC 6749 §5.2 / RFC 8628 §3.5 name): Microsoft answers
  /// a declined device code with `authorization_declined`, GitHub a spent refresh token with
  /// `bad_refresh_token`.
  public var errorAliases: [String: String] = [:]
  /// The client identifier registered with the provider (`client_id`, RFC 6749 §2.2).
  public var clientID: String
  /// The installed application's client secret, for a provider that requires it at the token
  /// endpoint even with PKCE (`client_secret`, allowed only where the preset declares
  /// `client_secret_required`): sent with code exchanges, device polls and refreshes, never
  /// elsewhere. Nil for every public client, which sends none.
  public var clientSecret: ClientSecret?
  /// The sign-in flows the provider allows (`flows`: `pkce`, `device`, `pin`).
  public var flows: [SignInFlow]
  /// Scopes asked for (`scope`, RFC 6749 §3.3), sent space-separated; omitted when empty.
  public var scopes: [String]

  /// Where the browser is sent to sign in (`authorization_endpoint`, RFC 6749 §3.1).
  public var authorizationEndpoint: URL?
  /// Where codes, device codes and refresh tokens become tokens (`token_endpoint`, RFC 6749 §3.2).
  public var tokenEndpoint: URL?
  /// Where a device flow starts (`device_authorization_endpoint`, RFC 8628 §3.1).
  public var deviceAuthorizationEndpoint: URL?
  /// Where tokens are revoked on sign-out (`revocation_endpoint`, RFC 7009 §2, RFC 8414 §2).
  public var revocationEndpoint: URL?
  /// OpenID Connect userinfo (`userinfo_endpoint`, OIDC Core §5.3); used by the identity step.
  public var userinfoEndpoint: URL?
  /// RP-initiated logout (`end_session_endpoint`, OIDC RP-Initiated Logout §2.1).
  public var endSessionEndpoint: URL?
  /// The provider's signing keys (`jwks_uri`, RFC 8414 §2); read by id_token validation.
  public var jwksURI: URL?
  /// Start of a Simkl-style PIN flow (`pin_endpoint`): `GET` it for a code, then poll
  /// `GET {pin_endpoint}/{user_code}` until the user has entered the code.
  public var pinEndpoint: URL?

  /// The fixed loopback port the provider's registration requires (`redirect_port`); nil lets
  /// the kernel choose a free port for every attempt (RFC 8252 §7.3).
  public var redirectPort: UInt16?
  /// The path of the loopback redirect URI (`redirect_path`, default `/callback`).
  public var redirectPath: String
  /// How token-endpoint bodies are encoded (`token_request_encoding`: `form`, the RFC 6749 §3.2
  /// default, or `json`).
  public var tokenRequestEncoding: TokenRequestEncoding
  /// How long a browser sign-in waits for the redirect before it ends as "no answer"
  /// (`login_timeout`, seconds, default 300).
  public var loginTimeout: TimeInterval

  /// Parameters added to the authorization URL only (`extra_authorize_params`).
  public var extraAuthorizeParameters: [String: String]
  /// Parameters sent with every request to the provider, browser URLs included
  /// (`extra_request_params`): Simkl wants `client_id`, `app-name` and `app-version` on every
  /// URL. Values are literal; a standard parameter of the same name wins.
  public var extraRequestParameters: [String: String]
  /// Where `extraRequestParameters` go on a `POST` (`extra_request_params_location`: `query` or
  /// `body`, default `body`). A `GET` always carries them in the query.
  public var extraRequestParametersLocation: ParameterLocation
  /// A `User-Agent` the provider requires (`user_agent`); nil sends `authtui/VERSION`.
  public var userAgent: String?
  /// True when the provider promises an `iss` in every authorization response
  /// (`authorization_response_iss_parameter_supported`, RFC 9207 §3): a response without one
  /// is then refused.
  public var requiresIssuerInAuthorizationResponse: Bool

  /// Whether `issuer` is used to fetch the OpenID Connect discovery document
  /// (`discovery`, default true; OIDC Discovery §4). Endpoints set here always win over
  /// discovered ones; false suits a provider that checks id_tokens but publishes no document.
  public var usesDiscovery: Bool
  /// Where the browser may return after an RP-initiated logout (`post_logout_redirect_uri`,
  /// OIDC RP-Initiated Logout §2); sent only when set, since it must be registered.
  public var postLogoutRedirectURI: URL?
  /// True when the provider's registration accepts the sign-in redirect URI
  /// (`http://127.0.0.1:{redirect_port}{redirect_path}`) as a `post_logout_redirect_uri` too
  /// (`post_logout_uses_redirect_uri`): the logout then returns to a landing page authtui
  /// serves on loopback. Off by default, since RP-Initiated Logout §3 lets a provider redirect
  /// only to an address registered for post-logout, and an unregistered one makes it refuse
  /// the logout. `postLogoutRedirectURI` wins when both are set.
  public var postLogoutUsesRedirectURI = false
  /// How the account is identified after a sign-in (`identity`): which answer to read and which
  /// members name the account. Nil uses `IdentityConfiguration.openIDDefault` for a provider
  /// that asks for the `openid` scope, and no identity step otherwise.
  public var identity: IdentityConfiguration?
  /// True when the provider's refresh grant needs the client secret
  /// (`refresh_requires_client_secret`): authtui, a public client, has none, so it keeps no
  /// refresh token and asks for a new sign-in before the access token expires (GitHub
  /// Enterprise Server's expiring user tokens, for one).
  public var refreshRequiresClientSecret = false
  /// How long a refresh token lives when the token answer does not say
  /// (`refresh_token_lifetime`, seconds): Google ends those of an app in "Testing" after 7
  /// days. The account then says "sign in again before" that date, as one that cannot be
  /// refreshed does. Nil when the provider keeps refresh tokens until they are revoked.
  public var refreshTokenLifetime: TimeInterval?
  /// What the provider's token answers put between granted scopes instead of RFC 6749's space
  /// (`scope_separator`): GitHub answers `"scope": "repo,gist"`. Nil for a space.
  public var scopeSeparator: String?
  /// Whether authorization requests are pushed to the server first (`par`, RFC 9126): `auto`
  /// (the default) when the server publishes a `pushed_authorization_request_endpoint`,
  /// `required` (a sign-in fails before any browser opens without one), `off` (never; refused
  /// when the server says it takes only pushed requests).
  public var pushedAuthorization = ProtocolMode.auto
  /// Whether token requests carry DPoP proofs (`dpop`, RFC 9449): `auto` (the default) when
  /// the server lists an algorithm authtui signs with (ES256) in
  /// `dpop_signing_alg_values_supported`, `required` (a sign-in fails before it starts when it
  /// lists none), `off` (never).
  public var dpop = ProtocolMode.auto
  /// Where authorization requests are pushed (`pushed_authorization_request_endpoint`,
  /// RFC 9126 §5); filled from the server's metadata.
  public var pushedAuthorizationRequestEndpoint: URL?
  /// True when the server takes authorization requests only through its PAR endpoint
  /// (`require_pushed_authorization_requests`, RFC 9126 §5); from the server's metadata.
  public var requiresPushedAuthorizationRequests = false
  /// The JWS algorithms the server takes in DPoP proofs (`dpop_signing_alg_values_supported`,
  /// RFC 9449 §5.1); from the server's metadata, empty when it does not say.
  public var dpopSigningAlgorithms: [String] = []

  /// A configuration with the defaults of DESIGN.md for everything not given.
  public init(
    id: ProviderID, name: String? = nil, issuer: String? = nil, clientID: String,
    flows: [SignInFlow] = [.pkce], scopes: [String] = [],
    authorizationEndpoint: URL? = nil, tokenEndpoint: URL? = nil,
    deviceAuthorizationEndpoint: URL? = nil, revocationEndpoint: URL? = nil,
    userinfoEndpoint: URL? = nil, endSessionEndpoint: URL? = nil, jwksURI: URL? = nil,
    pinEndpoint: URL? = nil, redirectPort: UInt16? = nil, redirectPath: String = "/callback",
    tokenRequestEncoding: TokenRequestEncoding = .form, loginTimeout: TimeInterval = 300,
    extraAuthorizeParameters: [String: String] = [:],
    extraRequestParameters: [String: String] = [:],
    extraRequestParametersLocation: ParameterLocation = .body, userAgent: String? = nil,
    requiresIssuerInAuthorizationResponse: Bool = false, usesDiscovery: Bool = true,
    postLogoutRedirectURI: URL? = nil, identity: IdentityConfiguration? = nil,
    clientSecret: ClientSecret? = nil, issuerTemplate: IssuerTemplate? = nil,
    errorAliases: [String: String] = [:]
  ) {
    self.errorAliases = errorAliases
    self.issuerTemplate = issuerTemplate
    self.id = id
    self.name = name ?? id.rawValue
    self.issuer = issuer
    self.clientID = clientID
    self.flows = flows
    self.scopes = scopes
    self.authorizationEndpoint = authorizationEndpoint
    self.tokenEndpoint = tokenEndpoint
    self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
    self.revocationEndpoint = revocationEndpoint
    self.userinfoEndpoint = userinfoEndpoint
    self.endSessionEndpoint = endSessionEndpoint
    self.jwksURI = jwksURI
    self.pinEndpoint = pinEndpoint
    self.redirectPort = redirectPort
    self.redirectPath = redirectPath
    self.tokenRequestEncoding = tokenRequestEncoding
    self.loginTimeout = loginTimeout
    self.extraAuthorizeParameters = extraAuthorizeParameters
    self.extraRequestParameters = extraRequestParameters
    self.extraRequestParametersLocation = extraRequestParametersLocation
    self.userAgent = userAgent
    self.requiresIssuerInAuthorizationResponse = requiresIssuerInAuthorizationResponse
    self.usesDiscovery = usesDiscovery
    self.postLogoutRedirectURI = postLogoutRedirectURI
    self.identity = identity
    self.clientSecret = clientSecret
  }
}

/// A way to sign in (the values of a provider's `flows`).
public enum SignInFlow: String, Sendable, CaseIterable, Codable {
  /// Authorization Code with PKCE through the browser and a loopback redirect (RFC 7636, RFC 8252).
  case pkce
  /// Device Authorization Grant: a code typed on another device (RFC 8628).
  case device
  /// Simkl's PIN flow: like the device grant, polled with `GET` on a per-code URL.
  case pin
}

/// How a token-endpoint request body is encoded (`token_request_encoding`).
public enum TokenRequestEncoding: String, Sendable, Codable {
  /// `application/x-www-form-urlencoded` (RFC 6749 §3.2, Appendix B).
  case form
  /// `application/json`, for providers that accept only JSON (Hivesigner).
  case json
}

/// Where extra per-request parameters travel on a `POST`.
public enum ParameterLocation: String, Sendable, Codable {
  /// Appended to the request URL's query.
  case query
  /// Added to the request body, in its encoding.
  case body
}

extension ProviderConfiguration {
  /// `error` with its code under the RFC name `errorAliases` gives it, if any.
  func standardized(_ error: OAuthError) -> OAuthError {
    guard let name = errorAliases[error.code.rawValue] else { return error }
    return OAuthError(
      code: OAuthErrorCode(rawValue: name), errorDescription: error.errorDescription,
      errorURI: error.errorURI)
  }
}
