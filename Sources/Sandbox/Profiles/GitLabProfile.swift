import AuthCore
import Crypto
import Foundation
import Loopback

/// GitLab as an OpenID provider (docs/providers.md "GitLab"): discovery at the instance URL,
/// authorization code with PKCE for non-confidential applications, refresh tokens that always
/// come with a sign-in and rotate on every refresh (the old refresh token and the old access
/// token stop working; using the old refresh token again is just refused), RFC 7009
/// revocation at `/oauth/revoke` with `client_id` for public clients, an id_token that carries
/// `sub` (a number), `sub_legacy`, `email`, `email_verified` and `groups_direct` while the user
/// name (`nickname`, `preferred_username`) is only in `/oauth/userinfo`, GitLab's scopes (no
/// `offline_access`), and the device grant (GitLab 17.1+) when `offersDeviceGrant`.
struct GitLabProfile: AuthorityProfile {
  var authority: OpenIDAuthority

  /// The instance under `paths`; `offersDeviceGrant` false is an older instance: discovery
  /// lists no `device_authorization_endpoint` (before 17.1) and userinfo names the user in
  /// `nickname` only.
  init(
    profile: SandboxProfile, paths: SandboxPaths.GitLab, offersDeviceGrant: Bool,
    signingKeys: [SigningKey] = []
  ) {
    var configuration = OpenIDAuthority.Configuration(
      profile: profile, issuerPath: paths.issuer,
      routes: .init(
        discovery: [paths.discovery], jwks: paths.jwks, authorize: paths.authorize,
        token: paths.token, identity: paths.userinfo,
        deviceAuthorization: offersDeviceGrant ? paths.deviceAuthorization : nil,
        device: offersDeviceGrant ? paths.device : nil, revocation: paths.revoke),
      supportedScopes: Self.scopes, rotatesRefreshTokens: true, returnsIssuer: false,
      signingAlgorithms: [.rs256], clientAlgorithms: [:])
    configuration.refreshTokenIssue = .always
    configuration.reuseRevokesGrant = false
    configuration.refreshRetiresAccessTokens = true
    configuration.claims = .gitlab
    // The older instance also predates `preferred_username` in userinfo.
    configuration.releasesPreferredUsername = offersDeviceGrant
    authority = OpenIDAuthority(configuration, signingKeys: signingKeys)
  }

  /// GitLab's scopes an application may be registered with (a subset: the ones a terminal
  /// user asks for), as its consent page describes them.
  static let scopes: [(name: String, meaning: String)] = [
    ("api", "read and write everything you can, the registry included"),
    ("read_api", "read everything you can through the API"),
    ("read_user", "read your personal information"),
    ("read_repository", "read repositories with Git over HTTPS"),
    ("write_repository", "push to repositories with Git over HTTPS"),
    ("read_registry", "pull container images"),
    ("openid", "confirm who you are (OpenID Connect)"),
    ("profile", "read your profile with OpenID Connect"),
    ("email", "read your primary e-mail address with OpenID Connect"),
  ]
}
