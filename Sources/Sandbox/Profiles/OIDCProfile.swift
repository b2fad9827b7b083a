import AuthCore
import Crypto
import Foundation
import Loopback

/// Client ids of the `oidc` profile.
public enum OIDCClients {
  /// Its id_tokens are ES256; `sandbox-client`'s are RS256.
  public static let es256ClientID = "sandbox-client-es256"
}

/// A standards-complete OpenID provider: Discovery 1.0, JWKS with an RS256 and an ES256 key
/// (rotatable), authorization code with PKCE S256 and RFC 9207 `iss`, the device grant
/// (RFC 8628, `slow_down` adding 5 s), refresh-token rotation with reuse detection, RFC 7009
/// revocation, userinfo, and RP-initiated logout.
struct OIDCProfile: ProviderProfile {
  typealias Paths = SandboxPaths.OIDC

  struct LogoutRequest: Sendable {
    let clientID: String?
    let username: String?
    let postLogoutRedirectURI: String?
    let state: String?
  }

  private var authority: OpenIDAuthority

  /// The scopes a client may ask for, with what the consent page says of each; the `dynamic`
  /// profile offers the same.
  static let scopes = [
    (name: "openid", meaning: "confirm who you are"),
    (name: "profile", meaning: "see your user name"),
    (name: "email", meaning: "see your e-mail address"),
    (name: "offline_access", meaning: "stay signed in when you are away (refresh token)"),
  ]

  init(signingKeys: [SigningKey] = []) {
    authority = OpenIDAuthority(
      OpenIDAuthority.Configuration(
        profile: .oidc, issuerPath: Paths.issuer,
        routes: .init(
          discovery: [Paths.discovery, Paths.authorizationServerMetadata], jwks: Paths.jwks,
          authorize: Paths.authorize, token: Paths.token, identity: Paths.userinfo,
          deviceAuthorization: Paths.deviceAuthorization, device: Paths.device,
          revocation: Paths.revoke, endSession: Paths.endSession,
          pushedAuthorization: Paths.pushedAuthorization),
        supportedScopes: Self.scopes, rotatesRefreshTokens: true, returnsIssuer: true,
        signingAlgorithms: [.rs256, .es256],
        clientAlgorithms: [
          SandboxProfile.defaultClientID: .rs256, OIDCClients.es256ClientID: .es256,
        ]
      ), signingKeys: signingKeys)
  }

  private var logouts = PendingAuthorizations<LogoutRequest>()

  mutating func respond(to request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    if request.path == Paths.endSession {
      return Answers.allowing(["GET", "POST"], request) { endSession(request, context: &context) }
    }
    return authority.respond(to: request, context: &context) ?? Answers.notFound(request.path)
  }

  mutating func invalidateRefreshTokens(now: Date) -> Int {
    authority.tokens.invalidateRefreshTokens(now: now)
  }

  mutating func rotateKeys() throws -> [String] {
    try authority.keys.rotate()
  }

  // MARK: End session

  /// OpenID Connect RP-Initiated Logout 1.0: a confirmation page, then the redirect to
  /// `post_logout_redirect_uri` with `state`. As §3 has it, only to an address registered for
  /// the client (`ProfileSettings.postLogoutRedirectURIs`, by default its redirect URIs):
  /// another one is refused with an error page, and no redirect ever goes elsewhere.
  private mutating func endSession(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let provider = authority.profileName
    if request.method == "POST", let form = Optional(RequestFields.body(of: request)),
      form.names.contains("logout_request")
    {
      guard let logout = logouts.take(form["logout_request"], now: context.now) else {
        return Pages.message(
          provider: provider, title: "Sign-out request not found",
          text: "This sign-out request was already answered or has expired.", status: 400)
      }
      guard form["decision"] == "approve" else {
        return Pages.message(
          provider: provider, title: "Still signed in", text: "You are still signed in.")
      }
      context.count(.endSessions)
      if let target = logout.postLogoutRedirectURI {
        let parameters: [FormEncoding.Pair] = logout.state.map { [("state", $0)] } ?? []
        return .redirect(to: RedirectURI.appending(parameters, to: target))
      }
      return Pages.message(provider: provider, title: "Signed out", text: "You are signed out.")
    }

    let fields =
      request.method == "POST" ? RequestFields.body(of: request) : RequestFields.query(of: request)
    var clientID = fields.nonEmpty("client_id")
    var username: String?
    if let hint = fields.nonEmpty("id_token_hint") {
      guard let issued = authority.issuedIDTokens[Base64URL.encode(SHA256.hash(hint))] else {
        return Pages.message(
          provider: provider, title: "Unknown id_token_hint",
          text: "The id_token_hint was not issued by this provider.", status: 400)
      }
      if let clientID, clientID != issued.clientID {
        return Pages.message(
          provider: provider, title: "Mismatched client",
          text: "client_id is not the audience of id_token_hint.", status: 400)
      }
      clientID = issued.clientID
      username = issued.username
    }
    if let clientID, !authority.isKnown(clientID: clientID) {
      return Pages.message(
        provider: provider, title: "Unknown client",
        text: "No client is registered as \"\(clientID)\".", status: 400)
    }
    let target = fields.nonEmpty("post_logout_redirect_uri")
    if let target {
      guard clientID != nil else {
        return Pages.message(
          provider: provider, title: "Cannot redirect",
          text: "post_logout_redirect_uri needs id_token_hint or client_id.", status: 400)
      }
      guard context.settings.accepts(postLogoutRedirectURI: target) else {
        return Pages.message(
          provider: provider, title: "Redirect not registered",
          text: "post_logout_redirect_uri is not registered for this client.", status: 400)
      }
    }
    let id = logouts.add(
      LogoutRequest(
        clientID: clientID, username: username, postLogoutRedirectURI: target,
        state: fields["state"]), now: context.now)
    let who = username.map { "Sign out \($0)" } ?? "Sign out"
    let from = clientID.map { " from \($0)" } ?? ""
    return Pages.confirmation(
      provider: provider, title: "Sign out?", text: "\(who)\(from) at \(provider)?",
      action: Paths.endSession, hiddenFields: [("logout_request", id)],
      approveLabel: "Sign out", denyLabel: "Stay signed in")
  }
}
