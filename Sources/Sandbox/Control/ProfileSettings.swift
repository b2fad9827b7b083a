import AuthCore
import JSON

/// The adjustable behaviour of one profile (`POST /_sandbox/settings`), so tests can make
/// tokens expire in seconds or register Simkl's redirect URI for their own port.
public struct ProfileSettings: Sendable, Equatable {
  /// Which key signs the `oidc` profile's id_tokens.
  public enum IDTokenSigning: String, Sendable, Equatable, CaseIterable {
    /// RS256 for every client.
    case rs256 = "RS256"
    /// ES256 for every client.
    case es256 = "ES256"
    /// RS256 and ES256 in turn, token after token.
    case alternate
  }

  /// How a registration endpoint (RFC 7591 §3) answers (`registration`).
  /// What a refresh answer of the `oidc` and `dynamic` profiles carries beside its tokens
  /// (`refresh_id_token`), for a grant with `openid`: nothing, as most servers (`none`); a new
  /// id_token, as Google and Keycloak send one (`same`); one naming another user
  /// (`other_user`); one whose signature does not verify (`bad_signature`), as after a key
  /// rotation the client has not fetched yet.
  public enum RefreshIDToken: String, Sendable, Equatable, CaseIterable {
    case none
    case same
    case otherUser = "other_user"
    case badSignature = "bad_signature"
  }

  public enum Registration: String, Sendable, Equatable, CaseIterable {
    /// Any public native client registers (`open`).
    case open
    /// Every registration is refused with `401`: the server wants an initial access token
    /// (RFC 7591 §3), which no client has here (`closed`).
    case closed
    /// A registration without the server's own member `vendor_tenant` is refused with
    /// `400 invalid_client_metadata` (RFC 7591 §3.2.2) (`vendor_field`).
    case vendorField = "vendor_field"
  }

  /// How an OpenID profile (`oidc`, `dynamic`) offers a protocol extension: pushed
  /// authorization requests (`par`, RFC 9126) or DPoP (`dpop`, RFC 9449).
  public enum Extension: String, Sendable, Equatable, CaseIterable {
    /// Neither published nor served (the default): a PAR endpoint answers 404, a `DPoP`
    /// header is ignored as a server without DPoP ignores it.
    case off
    /// Published in the metadata and served; clients may do without it.
    case offered
    /// Published and served, and demanded: an authorization request not pushed first is
    /// refused (`require_pushed_authorization_requests`), a token request without a proof too.
    case required
  }

  /// Lifetime of new access tokens, in seconds (`expires_in`).
  public var accessTokenLifetime: Int
  /// Lifetime of new refresh tokens, in seconds (Muhajir and OIDC).
  public var refreshTokenLifetime: Int
  /// How long an authorization code can be exchanged, in seconds. Hivesigner ignores it: its
  /// 10 + 5 minute rule is a quirk the sandbox reproduces as is.
  public var authorizationCodeLifetime = 600
  /// Lifetime of device and PIN codes, in seconds (`expires_in`); 0 for a provider without them.
  public var deviceCodeLifetime = 0
  /// Minimum seconds between polls of a device or PIN code (`interval`).
  public var deviceInterval = 0
  /// Redirect URIs registered for the client, matched byte for byte; nil accepts
  /// `http://127.0.0.1:PORT/callback` with any port. Simkl starts with a list (its quirk);
  /// setting nil there too is a convenience for tests that cannot know their port early.
  public var registeredRedirectURIs: [String]? = nil
  /// The `oidc` profile's signing choice; nil picks per client (`sandbox-client`: RS256,
  /// `sandbox-client-es256`: ES256).
  public var idTokenSigning: IDTokenSigning? = nil
  /// Whether the `github` profile refuses a refresh without `client_secret`
  /// (`refresh_needs_client_secret`), as GitHub documented it before device-flow tokens were
  /// exempted.
  public var refreshNeedsClientSecret = false
  /// Where the `oidc` profile's logout may send the browser back (`post_logout_redirect_uri`,
  /// RP-Initiated Logout §3), matched byte for byte; nil registers the redirect URIs for it
  /// too (`accepts(redirectURI:)`), what `post_logout_uses_redirect_uri` relies on. `[]`
  /// registers none.
  public var postLogoutRedirectURIs: [String]? = nil
  /// How the `dynamic` profile's registration endpoint answers (`registration`).
  public var registration = Registration.open
  /// False makes the `dynamic` profile's OpenID discovery document a 404, so its metadata is
  /// only at the RFC 8414 path (`openid_discovery`).
  public var publishesOpenIDDiscovery = true
  /// OpenID Connect Core §11 to the letter: an authorization request for `offline_access`
  /// without `prompt=consent` gets an error page and no redirect (`strict_offline_access`).
  public var strictOfflineAccess = false
  /// Error redirects leave out the RFC 9207 `iss` the profile promises (and still sends with
  /// codes), as a widely used server does when the person declines
  /// (`error_redirect_omits_iss`).
  public var errorRedirectOmitsIssuer = false
  /// The id_token and userinfo name the account only by an opaque `sub` (a number), with no
  /// `preferred_username`, `email` or `name` (`subject_only_claims`).
  public var subjectOnlyClaims = false
  /// Pushed authorization requests (RFC 9126) at the `oidc` and `dynamic` profiles' `par`
  /// endpoint (`par`).
  public var pushedAuthorization = Extension.off
  /// How long a pushed request's `request_uri` may be used, in seconds (`par_lifetime`,
  /// RFC 9126 §2.2's `expires_in`).
  public var pushedRequestLifetime = 60
  /// DPoP (RFC 9449) at the `oidc` and `dynamic` profiles (`dpop`): tokens bound to the key of
  /// the proof that asked for them.
  public var dpop = Extension.off
  /// The algorithms published in `dpop_signing_alg_values_supported` and taken in proofs
  /// (`dpop_signing_algs`); the sandbox verifies ES256 only.
  public var dpopSigningAlgorithms = ["ES256"]
  /// Every proof must carry the server's current nonce (`dpop_nonce`, RFC 9449 §8, §9): one
  /// without it is answered `use_dpop_nonce` with the nonce in `DPoP-Nonce`.
  public var dpopNonceRequired = false
  /// What a refresh answer carries beside its tokens (`refresh_id_token`).
  public var refreshIDToken = RefreshIDToken.none

  /// The profile's settings on start and after `reset`.
  public static func defaults(for profile: SandboxProfile) -> ProfileSettings {
    switch profile {
    case .simkl:
      // 5 years, no refresh token; PIN codes live 15 minutes and are polled every 5 s.
      return ProfileSettings(
        accessTokenLifetime: 157_680_000, refreshTokenLifetime: 0, deviceCodeLifetime: 900,
        deviceInterval: 5, registeredRedirectURIs: [SandboxConfiguration.defaultSimklRedirectURI])
    case .hivesigner:
      return ProfileSettings(accessTokenLifetime: 604_800, refreshTokenLifetime: 0)
    case .muhajir:
      return ProfileSettings(accessTokenLifetime: 3600, refreshTokenLifetime: 30 * 86_400)
    case .gitlab, .gitlabSelfManaged:
      // Access tokens live 2 hours (GitLab 15.0 and later); refresh tokens do not expire.
      return ProfileSettings(
        accessTokenLifetime: 7200, refreshTokenLifetime: 0, deviceCodeLifetime: 300,
        deviceInterval: 5)
    case .google:
      // Access tokens live an hour; a "Testing" app's refresh tokens 7 days.
      return ProfileSettings(accessTokenLifetime: 3599, refreshTokenLifetime: 7 * 86_400)
    case .oidc, .dynamic:
      return ProfileSettings(
        accessTokenLifetime: 3600, refreshTokenLifetime: 30 * 86_400, deviceCodeLifetime: 600,
        deviceInterval: 5)
    case .github:
      // An OAuth app: tokens that never expire (lifetime 0), no refresh token; device codes
      // live 15 minutes and are polled every 5 s. Expiring user tokens: 28800 and 15897600.
      return ProfileSettings(
        accessTokenLifetime: 0, refreshTokenLifetime: 0, deviceCodeLifetime: 900, deviceInterval: 5)
    case .microsoft:
      // About an hour of access, 90 days of refresh, 15 minutes for a device code (docs/providers.md).
      return ProfileSettings(
        accessTokenLifetime: 3599, refreshTokenLifetime: 90 * 86_400, deviceCodeLifetime: 900,
        deviceInterval: 5)
    }
  }

  /// True when `uri` may receive this profile's authorization responses.
  func accepts(redirectURI uri: String) -> Bool {
    if let registered = registeredRedirectURIs { return registered.contains(uri) }
    return RedirectURI.isLoopbackCallback(uri)
  }

  /// True when a logout may return the browser to `uri`.
  func accepts(postLogoutRedirectURI uri: String) -> Bool {
    if let registered = postLogoutRedirectURIs { return registered.contains(uri) }
    return accepts(redirectURI: uri)
  }

  var json: OrderedJSON {
    .object([
      ("access_token_lifetime", .int(accessTokenLifetime)),
      ("refresh_token_lifetime", .int(refreshTokenLifetime)),
      ("authorization_code_lifetime", .int(authorizationCodeLifetime)),
      ("device_code_lifetime", .int(deviceCodeLifetime)),
      ("device_interval", .int(deviceInterval)),
      ("redirect_uris", registeredRedirectURIs.map { .array($0.map(OrderedJSON.string)) } ?? .null),
      ("id_token_signing", idTokenSigning.map { .string($0.rawValue) } ?? .null),
      ("refresh_needs_client_secret", .bool(refreshNeedsClientSecret)),
      (
        "post_logout_redirect_uris",
        postLogoutRedirectURIs.map { .array($0.map(OrderedJSON.string)) } ?? .null
      ),
      ("registration", .string(registration.rawValue)),
      ("openid_discovery", .bool(publishesOpenIDDiscovery)),
      ("strict_offline_access", .bool(strictOfflineAccess)),
      ("error_redirect_omits_iss", .bool(errorRedirectOmitsIssuer)),
      ("subject_only_claims", .bool(subjectOnlyClaims)),
      ("par", .string(pushedAuthorization.rawValue)),
      ("par_lifetime", .int(pushedRequestLifetime)),
      ("dpop", .string(dpop.rawValue)),
      ("dpop_signing_algs", .array(dpopSigningAlgorithms.map(OrderedJSON.string))),
      ("dpop_nonce", .bool(dpopNonceRequired)),
      ("refresh_id_token", .string(refreshIDToken.rawValue)),
    ])
  }
}
