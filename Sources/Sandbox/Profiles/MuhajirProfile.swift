import AuthCore
import Foundation

/// Muhajir Studio (PROVIDERS.md "Muhajir Studio"): an OpenID provider whose token endpoint is
/// form-encoded, which issues a refresh token only with `offline_access` (not rotated),
/// answers a dead refresh token with `invalid_grant`, redirects errors as
/// `?error=access_denied&state=…`, and whose `/api/external/me` answers 401 for an unusable
/// token and 403 for a valid one lacking `openid`.
struct MuhajirProfile: ProviderProfile {
  typealias Paths = SandboxPaths.Muhajir

  private var authority = OpenIDAuthority(
    OpenIDAuthority.Configuration(
      profile: .muhajir, issuerPath: Paths.issuer, authorizePath: Paths.authorize,
      supportedScopes: [
        ("openid", "confirm who you are"),
        ("profile", "see your name"),
        ("email", "see your e-mail address"),
        ("offline_access", "keep access when you are away (refresh token)"),
      ],
      rotatesRefreshTokens: false, returnsIssuer: false, offersDeviceGrant: false,
      signingAlgorithms: [.rs256], clientAlgorithms: [:]))

  mutating func respond(to request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    let method = request.method
    switch request.path {
    case Paths.authorize:
      switch method {
      case "GET": return authority.authorize(request, context: &context)
      case "POST": return authority.decide(request, context: &context)
      default: return Answers.methodNotAllowed(["GET", "POST"])
      }
    case Paths.token:
      guard method == "POST" else { return Answers.methodNotAllowed(["POST"]) }
      return authority.token(request, context: &context)
    case Paths.me:
      guard method == "GET" else { return Answers.methodNotAllowed(["GET"]) }
      return authority.identity(request, context: &context)
    case Paths.jwks:
      guard method == "GET" else { return Answers.methodNotAllowed(["GET"]) }
      return authority.jwksResponse()
    case Paths.discovery:
      guard method == "GET" else { return Answers.methodNotAllowed(["GET"]) }
      return authority.discovery(
        .init(token: Paths.token, jwks: Paths.jwks, userinfo: Paths.me), context: context)
    default:
      return Answers.notFound(request.path)
    }
  }

  mutating func invalidateRefreshTokens(now: Date) -> Int {
    authority.tokens.invalidateRefreshTokens(now: now)
  }

  mutating func rotateKeys() throws -> [String] {
    try authority.keys.rotate()
  }
}
