import AuthCore
import Crypto
import Foundation
import JSON
import Loopback

/// GitHub (docs/providers.md "GitHub"): the device flow on `github.com` (here `/github`), the
/// REST API on `api.github.com` (here `/github-api`). Reproduced quirks:
/// - the device-code and token endpoints answer form-encoded (`a=b&c=d`) unless the request
///   says `Accept: application/json`;
/// - every device-flow error (`authorization_pending`, `slow_down`, `expired_token`,
///   `access_denied`, `incorrect_device_code`, `incorrect_client_credentials`,
///   `unsupported_grant_type`, `device_flow_disabled`) comes with HTTP 200;
/// - a poll sooner than `interval` answers `slow_down`, adds 5 s to the interval and names the
///   new `interval` in the answer;
/// - tokens do not expire and come without a refresh token (an OAuth app), unless the settings
///   give them a lifetime: then they come with `expires_in`, a `refresh_token` and
///   `refresh_token_expires_in` (expiring user tokens); a refresh rotates both tokens and
///   answers `bad_refresh_token` for a spent or unknown one; with
///   `refresh_needs_client_secret` a refresh without `client_secret` is refused, as GitHub
///   documented it before device-flow tokens were exempted (and as older GitHub Enterprise
///   Server versions still do);
/// - `GET /user` refuses a request without a `User-Agent` (403) and a bad token (401
///   "Bad credentials");
/// - tokens cannot be revoked by a public client: the token API under `/applications/` needs
///   the client id and secret as Basic credentials.
struct GitHubProfile: ProviderProfile {
  typealias Paths = SandboxPaths.GitHub

  /// A client id whose app has not enabled the device flow (`device_flow_disabled`).
  static let deviceFlowDisabledClientID = "sandbox-client-no-device-flow"
  /// The scopes the sandbox knows, with what the approval page says of them.
  static let knownScopes: [String: String] = [
    "repo": "full control of your repositories",
    "read:user": "read your profile data",
    "user:email": "see your e-mail addresses",
    "read:org": "read your organisation memberships",
    "gist": "create gists",
    "workflow": "update GitHub Actions workflows",
  ]
  static let documentation =
    "https://docs.github.com/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps"

  var devices = DeviceGrants()
  var tokens = TokenLedger()

  mutating func respond(to request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    switch request.path {
    case Paths.deviceCode:
      return Answers.allowing(["POST"], request) { deviceCode(request, context: &context) }
    case Paths.device:
      switch request.method {
      case "GET": return verification.entryPage(request)
      case "POST": return devicePage(request, context: &context)
      default: return Answers.methodNotAllowed(["GET", "POST"])
      }
    case Paths.token:
      return Answers.allowing(["POST"], request) { token(request, context: &context) }
    case Paths.user:
      return Answers.allowing(["GET"], request) { user(request, context: &context) }
    default:
      if request.path.hasPrefix(Paths.applications) {
        return Self.apiError(
          "Requires authentication", status: 401,
          documentation: "https://docs.github.com/rest/apps/oauth-applications")
      }
      return request.path.hasPrefix("/github-api/")
        ? Self.apiError("Not Found", status: 404, documentation: "https://docs.github.com/rest")
        : Answers.notFound(request.path)
    }
  }

  mutating func invalidateRefreshTokens(now: Date) -> Int {
    tokens.invalidateRefreshTokens(now: now)
  }

  // MARK: Device flow

  private mutating func deviceCode(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let body = RequestFields.body(of: request)
    guard let clientID = body.nonEmpty("client_id"), Self.isKnown(clientID) else {
      return Self.error("incorrect_client_credentials", request)
    }
    guard clientID != Self.deviceFlowDisabledClientID else {
      return Self.error("device_flow_disabled", request)
    }
    let scopes = (body["scope"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(
      String.init)
    let letters = RandomToken.userCode(length: 8, alphabet: OpenIDAuthority.userCodeAlphabet)
    let userCode = String(letters.prefix(4)) + "-" + String(letters.suffix(4))
    let deviceCode = RandomToken.hex(byteCount: 20)
    let settings = context.settings
    devices.add(
      DeviceGrant(
        deviceCode: deviceCode, userCode: userCode, clientID: clientID,
        scopes: scopes.filter { Self.knownScopes[$0] != nil }, appName: nil,
        expiresAt: context.now.addingTimeInterval(TimeInterval(settings.deviceCodeLifetime)),
        interval: settings.deviceInterval))
    context.count(.deviceAuthorizations)
    // No verification_uri_complete: the person always types the code.
    return Self.answer(
      [
        ("device_code", .string(deviceCode)), ("user_code", .string(userCode)),
        ("verification_uri", .string(context.absolute(Paths.device))),
        ("expires_in", .int(settings.deviceCodeLifetime)),
        ("interval", .int(settings.deviceInterval)),
      ], to: request)
  }

  private var verification: DeviceVerification {
    DeviceVerification(provider: "GitHub", action: Paths.device) { grant in
      Pages.Consent(
        provider: "GitHub", title: "Authorize the device?", appName: grant.clientID,
        clientID: grant.clientID,
        scopes: grant.scopes.map { ($0, Self.knownScopes[$0] ?? $0) }, redirectTarget: nil,
        action: "", hiddenFields: [], approveLabel: "Authorize", denyLabel: "Cancel")
    }
  }

  private mutating func devicePage(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    switch verification.answer(request, grants: &devices, context: &context) {
    case .page(let page):
      return page
    case .approved:
      return Pages.message(
        provider: "GitHub", title: "Congratulations, you're all set!",
        text: "Your device is now connected.")
    case .denied(let grant):
      _ = devices.decide(userCode: grant.userCode, .denied, now: context.now)
      return Pages.message(
        provider: "GitHub", title: "Authorization cancelled",
        text: "The device was not given access. This code cannot be used again.")
    }
  }

  // MARK: Token endpoint

  private mutating func token(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let body = RequestFields.queryAndBody(of: request)
    guard let clientID = body.nonEmpty("client_id"), Self.isKnown(clientID) else {
      return Self.error("incorrect_client_credentials", request)
    }
    switch body["grant_type"] {
    case "urn:ietf:params:oauth:grant-type:device_code":
      return pollDeviceCode(body, clientID: clientID, request, context: &context)
    case "refresh_token":
      return refresh(body, clientID: clientID, request, context: &context)
    default:
      return Self.error("unsupported_grant_type", request)
    }
  }

  private mutating func pollDeviceCode(
    _ body: RequestFields, clientID: String, _ request: HTTPRequest,
    context: inout ProviderContext
  ) -> HTTPResponse {
    guard clientID != Self.deviceFlowDisabledClientID else {
      return Self.error("device_flow_disabled", request)
    }
    context.count(.devicePolls)
    let deviceCode = body.nonEmpty("device_code") ?? ""
    switch devices.poll(
      deviceCode: deviceCode, clientID: clientID, now: context.now, growInterval: true)
    {
    case .pending:
      return Self.error("authorization_pending", request)
    case .slowDown:
      context.count(.slowDowns)
      let interval = devices.interval(deviceCode: deviceCode) ?? context.settings.deviceInterval
      return Self.error(
        "slow_down", request, extra: [("interval", .int(interval))])
    case .denied:
      return Self.error("access_denied", request)
    case .expired:
      return Self.error("expired_token", request)
    case .redeemed, .unknown:
      return Self.error("incorrect_device_code", request)
    case .approved(let grant, let username):
      context.count(.deviceTokens)
      return issue(
        TokenGrant(clientID: clientID, username: username, scopes: grant.scopes), request,
        context: &context)
    }
  }

  private mutating func refresh(
    _ body: RequestFields, clientID: String, _ request: HTTPRequest,
    context: inout ProviderContext
  ) -> HTTPResponse {
    if context.settings.refreshNeedsClientSecret, body.nonEmpty("client_secret") == nil {
      context.count(.failedRefreshes)
      return Self.error("incorrect_client_credentials", request)
    }
    guard let presented = body.nonEmpty("refresh_token"),
      case .valid(let grant) = tokens.redeemRefreshToken(
        presented, clientID: clientID, now: context.now, rotate: true)
    else {
      context.count(.failedRefreshes)
      return Self.error("bad_refresh_token", request)
    }
    // "Once you use a refresh token, that refresh token and the old access token will no
    // longer work": the old grant goes, the new tokens start a family of their own.
    tokens.revokeFamily(grant.family)
    context.count(.refreshes)
    return issue(
      TokenGrant(clientID: grant.clientID, username: grant.username, scopes: grant.scopes),
      request, context: &context)
  }

  /// A token answer: never expiring (no `expires_in`, no refresh token) while
  /// `access_token_lifetime` is 0, else GitHub's expiring user token with its refresh token.
  private mutating func issue(
    _ grant: TokenGrant, _ request: HTTPRequest, context: inout ProviderContext
  ) -> HTTPResponse {
    let settings = context.settings
    let expires = settings.accessTokenLifetime > 0
    // A token that never expires is entered with a lifetime of a century.
    let access = tokens.issueAccessToken(
      for: grant, lifetime: expires ? settings.accessTokenLifetime : 3_153_600_000,
      now: context.now, hex: true)
    var members: [(String, OrderedJSON)] = [("access_token", .string(access))]
    if expires {
      let refresh = tokens.issueRefreshToken(
        for: grant, lifetime: settings.refreshTokenLifetime, now: context.now)
      members += [
        ("expires_in", .int(settings.accessTokenLifetime)), ("refresh_token", .string(refresh)),
        ("refresh_token_expires_in", .int(settings.refreshTokenLifetime)),
      ]
    }
    // GitHub separates the granted scopes with commas.
    members += [
      ("token_type", "bearer"), ("scope", .string(grant.scopes.joined(separator: ","))),
    ]
    return Self.answer(members, to: request)
  }

  // MARK: REST API

  private mutating func user(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    guard let agent = request.header("User-Agent"), !agent.trimmingSpaces().isEmpty else {
      context.count(.identityRefusals)
      return HTTPResponse(
        status: 403, headers: [("Content-Type", "text/plain; charset=utf-8")],
        body: Array(
          ("Request forbidden by administrative rules. Please make sure your request has a "
            + "User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required).\n")
            .utf8))
    }
    guard let token = Self.apiToken(of: request),
      let grant = tokens.activeAccessToken(token, now: context.now)
    else {
      context.count(.identityRefusals)
      return Self.apiError(
        "Bad credentials", status: 401, documentation: "https://docs.github.com/rest")
    }
    context.count(.identityRequests)
    let id = UserName.smallNumericID(grant.username)
    return Answers.json([
      "login": .string(grant.username), "id": .int(id),
      "node_id": .string("U_sandbox\(id)"), "type": "User", "site_admin": false,
      "name": .string(grant.username.capitalized), "email": .null,
      "html_url": .string("https://github.com/\(grant.username)"),
    ])
  }

  /// `Authorization: Bearer TOKEN` or GitHub's older `Authorization: token TOKEN`.
  static func apiToken(of request: HTTPRequest) -> String? {
    if let bearer = Answers.bearerToken(of: request) { return bearer }
    let parts = (request.header("Authorization") ?? "").split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "token" else { return nil }
    return String(parts[1]).trimmingSpaces()
  }

  // MARK: Answers

  static func isKnown(_ clientID: String) -> Bool {
    clientID == SandboxProfile.defaultClientID || clientID == deviceFlowDisabledClientID
  }

  /// The descriptions GitHub gives with each error code.
  static let descriptions: [String: String] = [
    "authorization_pending": "The authorization request is still pending.",
    "slow_down": "Too many requests have been made in the same timeframe.",
    "expired_token": "The device code has expired.",
    "access_denied": "The authorization request was denied.",
    "incorrect_device_code": "The device_code provided is not valid.",
    "incorrect_client_credentials": "The client_id and/or client_secret passed are incorrect.",
    "unsupported_grant_type":
      "The grant type must be urn:ietf:params:oauth:grant-type:device_code.",
    "device_flow_disabled": "Device flow has not been enabled for this application.",
    "bad_refresh_token": "The refresh token passed is incorrect or expired.",
  ]

  /// An OAuth error the way GitHub sends it: `error`, `error_description`, `error_uri`, in the
  /// format the `Accept` header asked for, with HTTP 200 as GitHub does.
  static func error(
    _ code: String, _ request: HTTPRequest, extra: [(String, OrderedJSON)] = []
  ) -> HTTPResponse {
    answer(
      [
        ("error", .string(code)), ("error_description", .string(descriptions[code] ?? code)),
        ("error_uri", .string(documentation + "#error-codes-for-the-device-flow")),
      ] + extra, to: request)
  }

  /// JSON when the request accepts `application/json`, else GitHub's default: the same members
  /// form-encoded.
  static func answer(_ members: [(String, OrderedJSON)], to request: HTTPRequest) -> HTTPResponse {
    let accept = request.header("Accept")?.lowercased() ?? ""
    if accept.contains("application/json") { return Answers.json(.object(members)) }
    let pairs = members.map { name, value -> FormEncoding.Pair in
      switch value {
      case .string(let text): return (name: name, value: text)
      default: return (name: name, value: value.text)
      }
    }
    return HTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"),
        ("Cache-Control", "no-store"),
      ], body: Array(FormEncoding.encode(pairs).utf8))
  }

  /// A REST API error: `{"message","documentation_url","status"}`.
  static func apiError(_ message: String, status: Int, documentation: String) -> HTTPResponse {
    Answers.json(
      [
        "message": .string(message), "documentation_url": .string(documentation),
        "status": .string(String(status)),
      ], status: status)
  }
}
