import AuthCore
import Crypto
import Foundation
import Loopback

/// An OpenID provider that anyone's client can register with (RFC 7591, managed with
/// RFC 7592), as `authtui providers add` meets one: an OpenID discovery document without the
/// revocation, registration and device endpoints, which only its RFC 8414 metadata at
/// `/.well-known/oauth-authorization-server/dynamic` (RFC 8414 §3.1's path-insertion form)
/// lists; PKCE S256, RFC 9207 `iss`, refresh rotation with reuse detection, the device grant,
/// RFC 7009 revocation and userinfo, as the `oidc` profile has them. Registered clients are
/// held to the redirect URIs and grant types they registered. Its settings switch the
/// registration endpoint (`registration`: `open`, `closed`, `vendor_field`) and the OpenID
/// document (`openid_discovery`); like every OpenID profile it also takes
/// `strict_offline_access`, `error_redirect_omits_iss` and `subject_only_claims`.
struct DynamicProfile: AuthorityProfile {
  typealias Paths = SandboxPaths.Dynamic

  var authority: OpenIDAuthority

  init(signingKeys: [SigningKey] = []) {
    var configuration = OpenIDAuthority.Configuration(
      profile: .dynamic, issuerPath: Paths.issuer,
      routes: .init(
        discovery: [Paths.discovery], jwks: Paths.jwks, authorize: Paths.authorize,
        token: Paths.token, identity: Paths.userinfo,
        deviceAuthorization: Paths.deviceAuthorization, device: Paths.device,
        revocation: Paths.revoke,
        authorizationServerMetadata: [Paths.authorizationServerMetadata],
        registration: Paths.register, pushedAuthorization: Paths.pushedAuthorization),
      supportedScopes: OIDCProfile.scopes, rotatesRefreshTokens: true, returnsIssuer: true,
      signingAlgorithms: [.rs256, .es256], clientAlgorithms: [:])
    configuration.onlyInAuthorizationServerMetadata = [
      "revocation_endpoint", "revocation_endpoint_auth_methods_supported",
      "registration_endpoint", "device_authorization_endpoint",
    ]
    authority = OpenIDAuthority(configuration, signingKeys: signingKeys)
  }
}
