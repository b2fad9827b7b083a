/// Every endpoint path the sandbox serves, relative to its base URL. The profiles route on
/// these, and `authtui demo` builds its provider entries from them.
public enum SandboxPaths {
  /// Simkl (`simkl.com` is `/simkl-web`, `api.simkl.com` is `/simkl-api`).
  public enum Simkl {
    /// The home page the silent denial lands on.
    public static let home = "/simkl-web/"
    /// Consent page (`GET simkl.com/oauth/authorize`).
    public static let authorize = "/simkl-web/oauth/authorize"
    /// PIN verification page (`simkl.com/pin`).
    public static let pinPage = "/simkl-web/pin"
    /// Token endpoint (`POST api.simkl.com/oauth/token`).
    public static let token = "/simkl-api/oauth/token"
    /// PIN start (`GET api.simkl.com/oauth/pin`); polls go to `pin/{user_code}`.
    public static let pin = "/simkl-api/oauth/pin"
    /// Account settings, the identity endpoint (`api.simkl.com/users/settings`).
    public static let userSettings = "/simkl-api/users/settings"
  }

  /// Hivesigner.
  public enum Hivesigner {
    /// Consent page.
    public static let authorize = "/hivesigner/oauth2/authorize"
    /// Token endpoint (JSON body).
    public static let token = "/hivesigner/api/oauth2/token"
    /// The signed-in account.
    public static let me = "/hivesigner/api/me"
  }

  /// Muhajir Studio.
  public enum Muhajir {
    /// Issuer of its id_tokens.
    public static let issuer = "/muhajir"
    /// Consent page.
    public static let authorize = "/muhajir/api/auth/oauth2/authorize"
    /// Token endpoint (form body): code and refresh grants.
    public static let token = "/muhajir/api/auth/oauth2/token"
    /// The signed-in account (`401` unusable token, `403` missing scope).
    public static let me = "/muhajir/api/external/me"
    /// Signing keys of its id_tokens.
    public static let jwks = "/muhajir/api/auth/oauth2/jwks"
    /// OpenID discovery, so id_tokens can be checked like any issuer's.
    public static let discovery = "/muhajir/.well-known/openid-configuration"
  }

  /// The standards-complete OpenID provider.
  public enum OIDC {
    /// The issuer (`iss`); discovery lives under it.
    public static let issuer = "/oidc"
    /// OpenID Connect Discovery 1.0 §4.
    public static let discovery = "/oidc/.well-known/openid-configuration"
    /// The same document under the RFC 8414 name.
    public static let authorizationServerMetadata = "/oidc/.well-known/oauth-authorization-server"
    /// `jwks_uri`.
    public static let jwks = "/oidc/jwks"
    /// `authorization_endpoint`.
    public static let authorize = "/oidc/authorize"
    /// `token_endpoint`.
    public static let token = "/oidc/token"
    /// `device_authorization_endpoint` (RFC 8628 §3.1).
    public static let deviceAuthorization = "/oidc/device_authorization"
    /// `verification_uri` (RFC 8628 §3.3).
    public static let device = "/oidc/device"
    /// `revocation_endpoint` (RFC 7009).
    public static let revoke = "/oidc/revoke"
    /// `userinfo_endpoint`.
    public static let userinfo = "/oidc/userinfo"
    /// `end_session_endpoint` (OpenID Connect RP-Initiated Logout 1.0).
    public static let endSession = "/oidc/end_session"
    /// `pushed_authorization_request_endpoint` (RFC 9126), when the settings turn PAR on.
    public static let pushedAuthorization = "/oidc/par"
  }

  /// The OpenID provider that registers clients itself (RFC 7591, RFC 7592).
  public enum Dynamic {
    /// The issuer (`iss`).
    public static let issuer = "/dynamic"
    /// OpenID Connect Discovery 1.0 §4: without the revocation, registration and device
    /// endpoints, which only the RFC 8414 document lists.
    public static let discovery = "/dynamic/.well-known/openid-configuration"
    /// RFC 8414 §3.1: the well-known path inserted between the host and the issuer's path.
    public static let authorizationServerMetadata =
      "/.well-known/oauth-authorization-server/dynamic"
    /// `jwks_uri`.
    public static let jwks = "/dynamic/jwks"
    /// `authorization_endpoint`.
    public static let authorize = "/dynamic/authorize"
    /// `token_endpoint`.
    public static let token = "/dynamic/token"
    /// `device_authorization_endpoint` (RFC 8628 §3.1), in the RFC 8414 document only.
    public static let deviceAuthorization = "/dynamic/device_authorization"
    /// `verification_uri` (RFC 8628 §3.3).
    public static let device = "/dynamic/device"
    /// `revocation_endpoint` (RFC 7009), in the RFC 8414 document only.
    public static let revoke = "/dynamic/revoke"
    /// `userinfo_endpoint`.
    public static let userinfo = "/dynamic/userinfo"
    /// `registration_endpoint` (RFC 7591 §3), in the RFC 8414 document only; each
    /// registration is managed at `register/{client_id}` (RFC 7592).
    public static let register = "/dynamic/register"
    /// `pushed_authorization_request_endpoint` (RFC 9126), when the settings turn PAR on.
    public static let pushedAuthorization = "/dynamic/par"
  }

  /// GitLab on GitLab.com (`/gitlab`), with the device grant of GitLab 17.1 and later.
  public static let gitLab = GitLab(prefix: "/gitlab")
  /// A self-managed GitLab instance older than 17.1 (`/gitlab-self-managed`): the same
  /// endpoints, but discovery lists no `device_authorization_endpoint`.
  public static let gitLabSelfManaged = GitLab(prefix: "/gitlab-self-managed")

  /// One GitLab instance under `prefix`, with GitLab's own paths below it.
  public struct GitLab: Sendable {
    /// The instance URL's path: the issuer.
    public let prefix: String
    /// The issuer (`https://gitlab.com`).
    public var issuer: String { prefix }
    /// OpenID Connect discovery.
    public var discovery: String { prefix + "/.well-known/openid-configuration" }
    /// `jwks_uri` (`/oauth/discovery/keys`).
    public var jwks: String { prefix + "/oauth/discovery/keys" }
    /// `authorization_endpoint`.
    public var authorize: String { prefix + "/oauth/authorize" }
    /// `token_endpoint`.
    public var token: String { prefix + "/oauth/token" }
    /// `revocation_endpoint`.
    public var revoke: String { prefix + "/oauth/revoke" }
    /// `userinfo_endpoint`.
    public var userinfo: String { prefix + "/oauth/userinfo" }
    /// `device_authorization_endpoint` (GitLab 17.1+).
    public var deviceAuthorization: String { prefix + "/oauth/authorize_device" }
    /// The device verification page.
    public var device: String { prefix + "/oauth/device" }
  }

  /// Google (`accounts.google.com`, `oauth2.googleapis.com`, `openidconnect.googleapis.com`
  /// and `www.googleapis.com` in real life, one prefix here).
  public enum Google {
    /// The issuer (`https://accounts.google.com`).
    public static let issuer = "/google"
    /// OpenID Connect discovery.
    public static let discovery = "/google/.well-known/openid-configuration"
    /// `authorization_endpoint` (`accounts.google.com/o/oauth2/v2/auth`).
    public static let authorize = "/google/o/oauth2/v2/auth"
    /// `token_endpoint` (`oauth2.googleapis.com/token`).
    public static let token = "/google/token"
    /// `revocation_endpoint` (`oauth2.googleapis.com/revoke`).
    public static let revoke = "/google/revoke"
    /// `userinfo_endpoint` (`openidconnect.googleapis.com/v1/userinfo`).
    public static let userinfo = "/google/v1/userinfo"
    /// `jwks_uri` (`www.googleapis.com/oauth2/v3/certs`).
    public static let jwks = "/google/oauth2/v3/certs"
  }

  /// The Microsoft identity platform (`login.microsoftonline.com` is `/microsoft`): every
  /// endpoint sits under a tenant segment (`common`, `organizations`, `consumers`, a tenant id
  /// or a verified domain), as on the real host.
  public enum Microsoft {
    /// The tenant of every personal Microsoft account (Outlook.com, Xbox…).
    public static let consumerTenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
    /// The sandbox's one organization (work or school accounts).
    public static let organizationTenant = "4b1e6a52-3c8d-4f0e-9a7b-2d5c8e1f0a63"
    /// The organization's verified domain, usable as its tenant segment.
    public static let organizationDomain = "contoso.onmicrosoft.com"
    /// Every tenant segment served.
    public static let tenants = [
      "common", "organizations", "consumers", organizationTenant, organizationDomain,
    ]
    /// The issuer of `tenant` (a segment, or `{tenantid}`, or a tenant id).
    public static func issuer(_ tenant: String) -> String { "/microsoft/\(tenant)/v2.0" }
    /// OpenID discovery of `tenant`.
    public static func discovery(_ tenant: String) -> String {
      issuer(tenant) + "/.well-known/openid-configuration"
    }
    /// `authorization_endpoint`.
    public static func authorize(_ tenant: String) -> String {
      "/microsoft/\(tenant)/oauth2/v2.0/authorize"
    }
    /// `token_endpoint`.
    public static func token(_ tenant: String) -> String {
      "/microsoft/\(tenant)/oauth2/v2.0/token"
    }
    /// The device authorization endpoint (`/devicecode`).
    public static func deviceCode(_ tenant: String) -> String {
      "/microsoft/\(tenant)/oauth2/v2.0/devicecode"
    }
    /// `end_session_endpoint` (`/logout`).
    public static func logout(_ tenant: String) -> String {
      "/microsoft/\(tenant)/oauth2/v2.0/logout"
    }
    /// `jwks_uri`.
    public static func keys(_ tenant: String) -> String {
      "/microsoft/\(tenant)/discovery/v2.0/keys"
    }
    /// `userinfo_endpoint` (Microsoft Graph's `/oidc/userinfo` in real life).
    public static func userinfo(_ tenant: String) -> String { "/microsoft/\(tenant)/oidc/userinfo" }
    /// The device code page every tenant's `verification_uri` names (`microsoft.com/devicelogin`).
    public static let deviceLogin = "/microsoft/devicelogin"
  }

  /// Test hooks.
  public enum Hooks {
    /// `GET`: counters.
    public static let stats = "/_sandbox/stats"
    /// `POST`: inject a fault; `GET`: the faults waiting.
    public static let fault = "/_sandbox/fault"
    /// `POST`: answer every request a `hold` fault keeps.
    public static let release = "/_sandbox/release"
    /// `POST`: set or advance the clock offset; `GET`: the offset.
    public static let clock = "/_sandbox/clock"
    /// `POST`: change a profile's settings; `GET`: every profile's settings.
    public static let settings = "/_sandbox/settings"
    /// `POST`: make a profile's refresh tokens invalid.
    public static let invalidate = "/_sandbox/invalidate"
    /// `POST`: new signing keys; old kids leave the JWKS.
    public static let rotateKeys = "/_sandbox/rotate-keys"
    /// `POST`: forget everything (codes, tokens, counters, faults, clock, settings).
    public static let reset = "/_sandbox/reset"
  }
}
