import AuthCore
import Crypto
import Foundation
import Loopback

/// Google as an OpenID provider (docs/providers.md "Google"): discovery at
/// `accounts.google.com`, an installed-application ("Desktop app") client whose secret the
/// token endpoint requires even with PKCE (`400 invalid_request` "client_secret is missing."
/// without it), a loopback redirect on any port, a refresh token only when the authorization
/// request says `access_type=offline` (Google knows no `offline_access` scope), refresh
/// answers without a new refresh token (the one from the sign-in stays), a refresh token
/// that dies after 7 days (an app in "Testing" status; the profile's
/// `refresh_token_lifetime`), a numeric `sub` with `email` as the name people know, and a
/// revocation endpoint that takes the token alone, revokes the whole grant from either token,
/// and answers `400 invalid_token` for a token already dead.
struct GoogleProfile: AuthorityProfile {
  typealias Paths = SandboxPaths.Google

  var authority: OpenIDAuthority

  init(signingKeys: [SigningKey] = []) {
    var configuration = OpenIDAuthority.Configuration(
      profile: .google, issuerPath: Paths.issuer,
      routes: .init(
        discovery: [Paths.discovery], jwks: Paths.jwks, authorize: Paths.authorize,
        token: Paths.token, identity: Paths.userinfo, revocation: Paths.revoke),
      supportedScopes: [
        ("openid", "associate you with your personal info on Google"),
        ("email", "see your primary Google Account email address"),
        ("profile", "see your personal info, including any personal info you've made public"),
        (
          "https://mail.google.com/",
          "read, compose, send, and permanently delete all your email from Gmail"
        ),
      ],
      rotatesRefreshTokens: false, returnsIssuer: false, signingAlgorithms: [.rs256],
      clientAlgorithms: [:])
    configuration.refreshTokenIssue = .withAccessTypeOffline
    configuration.clientSecret = SandboxProfile.googleClientSecret
    configuration.revocationRefusesDeadTokens = true
    configuration.claims = .google
    authority = OpenIDAuthority(configuration, signingKeys: signingKeys)
  }
}
