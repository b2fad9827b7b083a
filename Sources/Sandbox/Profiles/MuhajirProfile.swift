import AuthCore
import Crypto
import Foundation
import Loopback

/// Muhajir Studio (PROVIDERS.md "Muhajir Studio"): an OpenID provider whose token endpoint is
/// form-encoded, which issues a refresh token only with `offline_access` (not rotated),
/// answers a dead refresh token with `invalid_grant`, redirects errors as
/// `?error=access_denied&state=…`, and whose `/api/external/me` answers 401 for an unusable
/// token and 403 for a valid one lacking `openid`.
struct MuhajirProfile: AuthorityProfile {
  typealias Paths = SandboxPaths.Muhajir

  var authority: OpenIDAuthority

  init(signingKeys: [SigningKey] = []) {
    authority = OpenIDAuthority(
      OpenIDAuthority.Configuration(
        profile: .muhajir, issuerPath: Paths.issuer,
        routes: .init(
          discovery: [Paths.discovery], jwks: Paths.jwks, authorize: Paths.authorize,
          token: Paths.token, identity: Paths.me),
        supportedScopes: [
          ("openid", "confirm who you are"),
          ("profile", "see your name"),
          ("email", "see your e-mail address"),
          ("offline_access", "keep access when you are away (refresh token)"),
        ],
        rotatesRefreshTokens: false, returnsIssuer: false, signingAlgorithms: [.rs256],
        clientAlgorithms: [:]), signingKeys: signingKeys)
  }
}
