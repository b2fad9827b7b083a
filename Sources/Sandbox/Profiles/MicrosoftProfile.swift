import AuthCore
import Crypto
import Foundation
import Loopback

/// The Microsoft identity platform (docs/providers.md "Microsoft identity platform"), each
/// endpoint under a tenant segment as on `login.microsoftonline.com`:
/// - discovery of `common` and `organizations` publishes the issuer template
///   `…/{tenantid}/v2.0`; `consumers` publishes the consumer tenant's issuer, a verified domain
///   its tenant's id;
/// - every id_token is issued by the signing account's own tenant, named in `tid`;
/// - `consumers` refuses work accounts, `organizations` and a tenant refuse personal ones, on
///   the consent page and on the device page alike;
/// - every refresh returns a new refresh token, and the old one keeps working (counted as
///   `replaced_refresh_token_uses`);
/// - the device flow at `/devicecode` with `message`, no `verification_uri_complete`, and
///   `authorization_declined`, `bad_verification_code`, `expired_token` errors;
/// - no revocation endpoint; `/oauth2/v2.0/logout` signs the browser out only.
struct MicrosoftProfile: ProviderProfile {
  typealias Paths = SandboxPaths.Microsoft

  /// One authorization server per tenant segment.
  private var authorities: [String: OpenIDAuthority] = [:]

  init(signingKeys: [SigningKey] = []) {
    for tenant in Paths.tenants {
      authorities[tenant] = OpenIDAuthority(
        OpenIDAuthority.Configuration(
          profile: .microsoft, issuerPath: Paths.issuer(tenant),
          routes: .init(
            discovery: [Paths.discovery(tenant)], jwks: Paths.keys(tenant),
            authorize: Paths.authorize(tenant), token: Paths.token(tenant),
            identity: Paths.userinfo(tenant), deviceAuthorization: Paths.deviceCode(tenant),
            device: Paths.deviceLogin, revocation: nil, endSession: Paths.logout(tenant)),
          supportedScopes: Self.scopes, rotatesRefreshTokens: false, returnsIssuer: false,
          signingAlgorithms: [.rs256], clientAlgorithms: [:],
          tenancy: MicrosoftTenancy(segment: tenant), deviceDialect: .microsoft,
          replacesRefreshTokens: true), signingKeys: signingKeys)
    }
  }

  /// The scopes the sandbox grants: OpenID Connect's, Outlook's mail protocols, Graph's
  /// `User.Read`.
  static let scopes: [(name: String, meaning: String)] = [
    ("openid", "sign you in"),
    ("profile", "view your basic profile"),
    ("email", "view your email address"),
    ("offline_access", "maintain access to data you have given it access to"),
    ("https://outlook.office.com/IMAP.AccessAsUser.All", "read and write your mail over IMAP"),
    ("https://outlook.office.com/POP.AccessAsUser.All", "read your mail over POP"),
    ("https://outlook.office.com/SMTP.Send", "send mail as you over SMTP"),
    ("User.Read", "sign you in and read your profile"),
  ]

  mutating func respond(to request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    if request.path == Paths.deviceLogin {
      return deviceLogin(request, context: &context)
    }
    guard let tenant = Self.tenant(of: request.path), var authority = authorities[tenant] else {
      return Answers.notFound(request.path)
    }
    defer { authorities[tenant] = authority }
    if request.path == Paths.logout(tenant) {
      return Answers.allowing(["GET", "POST"], request) { logout(request, context: &context) }
    }
    return authority.respond(to: request, context: &context) ?? Answers.notFound(request.path)
  }

  /// The tenant segment of `/microsoft/SEGMENT/…`.
  private static func tenant(of path: String) -> String? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count > 3, parts[1] == "microsoft" else { return nil }
    return String(parts[2])
  }

  /// The shared device code page (`microsoft.com/devicelogin`): a typed code is looked up in
  /// every tenant's grants, since one page serves them all.
  private mutating func deviceLogin(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let userCode = RequestFields.body(of: request)["user_code"]?.trimmingSpaces() ?? ""
    let owner =
      request.method == "POST"
      ? Paths.tenants.first {
        authorities[$0]?.devices.waiting(userCode: userCode, now: context.now) != nil
      }
      : nil
    let tenant = owner ?? "common"
    guard var authority = authorities[tenant] else { return Answers.notFound(request.path) }
    defer { authorities[tenant] = authority }
    return authority.respond(to: request, context: &context) ?? Answers.notFound(request.path)
  }

  /// `GET /oauth2/v2.0/logout`: the browser session ends; tokens are not touched (Microsoft
  /// has no revocation). With a loopback `post_logout_redirect_uri` the browser goes there.
  private func logout(_ request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    let fields =
      request.method == "POST" ? RequestFields.body(of: request) : RequestFields.query(of: request)
    context.count(.endSessions)
    if let target = fields.nonEmpty("post_logout_redirect_uri") {
      guard context.settings.accepts(postLogoutRedirectURI: target) else {
        return Pages.message(
          provider: "Microsoft", title: "Redirect not registered",
          text: "post_logout_redirect_uri is not registered for this application.", status: 400)
      }
      let parameters: [FormEncoding.Pair] = fields["state"].map { [("state", $0)] } ?? []
      return .redirect(to: RedirectURI.appending(parameters, to: target))
    }
    return Pages.message(
      provider: "Microsoft", title: "You signed out of your account",
      text: "It's a good idea to close all browser windows.")
  }

  mutating func invalidateRefreshTokens(now: Date) -> Int {
    var count = 0
    for tenant in Paths.tenants {
      count += authorities[tenant]?.tokens.invalidateRefreshTokens(now: now) ?? 0
    }
    return count
  }

  /// Microsoft publishes one key set for every tenant: it is rotated once and shared, so a
  /// token from `common` verifies against its own tenant's keys too.
  mutating func rotateKeys() throws -> [String] {
    guard let first = Paths.tenants.first, var keys = authorities[first]?.keys else { return [] }
    let kids = try keys.rotate()
    for tenant in Paths.tenants { authorities[tenant]?.keys = keys }
    return kids
  }
}
