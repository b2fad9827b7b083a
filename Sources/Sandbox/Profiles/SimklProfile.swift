import AuthCore
import Crypto
import Foundation
import Loopback

/// Simkl (PROVIDERS.md "Simkl"): the consent page on `simkl.com` (here `/simkl-web`), the API on
/// `api.simkl.com` (here `/simkl-api`). Reproduced quirks:
/// - denial is silent: "Deny" sends the browser to `/simkl-web/` and nothing to the app;
/// - the redirect URI must match a registered one byte for byte (`localhost` never does);
/// - `code_challenge_method` is case-sensitive `S256` or `plain`, else `400 invalid_request`;
/// - the token endpoint takes JSON or a form; ANY exchange attempt consumes the code;
/// - a wrong or malformed verifier gives `401 secret_error` "PKCE verification failed";
/// - tokens last 5 years and come without a refresh token;
/// - every API request needs `client_id`, `app-name`, `app-version` and a `User-Agent`;
/// - the PIN flow, with "Slow down" and the fall-through to a fresh start response.
struct SimklProfile: ProviderProfile {
  typealias Paths = SandboxPaths.Simkl

  struct AuthorizationRequest: Sendable {
    let clientID: String
    let redirectURI: String
    let state: String?
    let challenge: CodeChallenge?
    let appName: String
  }

  struct IssuedCode: Sendable {
    let request: AuthorizationRequest
    let username: String
    let issuedAt: Date
  }

  private var pending = PendingAuthorizations<AuthorizationRequest>()
  private var codes: [String: IssuedCode] = [:]
  var tokens = TokenLedger()
  var pins = DeviceGrants()

  mutating func respond(to request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    let path = request.path
    if path.hasPrefix("/simkl-api/") {
      if let problem = Self.apiRequestProblem(request) { return problem }
    }
    switch path {
    case "/simkl-web", Paths.home:
      let text =
        request.query("notice") == "redirect_uri_not_registered"
        ? "The app sent a redirect_uri that is not registered for it, so Simkl sent you here "
          + "instead of back to the app. Registered URIs must match byte for byte."
        : "This is the Simkl home page of the local sandbox. Declining a sign-in lands here, "
          + "and the app that asked hears nothing."
      return Pages.message(provider: "Simkl", title: "Simkl", text: text)
    case Paths.authorize:
      switch request.method {
      case "GET": return authorize(request, context: &context)
      case "POST": return decide(request, context: &context)
      default: return Answers.methodNotAllowed(["GET", "POST"])
      }
    case Paths.pinPage:
      switch request.method {
      case "GET": return pinVerification.entryPage(request)
      case "POST": return pinPage(request, context: &context)
      default: return Answers.methodNotAllowed(["GET", "POST"])
      }
    case Paths.token:
      return Answers.allowing(["POST"], request) { exchange(request, context: &context) }
    case Paths.pin:
      return Answers.allowing(["GET"], request) { startPIN(request, context: &context) }
    case Paths.userSettings:
      return Answers.allowing(["GET", "POST"], request) { userSettings(request, context: &context) }
    default:
      if path.hasPrefix(Paths.pin + "/"), path.count > Paths.pin.count + 1 {
        let userCode = FormEncoding.unescape(path.dropFirst(Paths.pin.count + 1))
        return Answers.allowing(["GET"], request) {
          pollPIN(userCode: userCode, request, context: &context)
        }
      }
      // Including `/simkl-api/oauth/authorize`: the API host has no consent page.
      return Answers.notFound(path)
    }
  }

  // MARK: Consent

  private mutating func authorize(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let query = RequestFields.query(of: request)
    guard let clientID = query["client_id"], SandboxProfile.simkl.clientIDs.contains(clientID)
    else {
      return Self.error(
        "client_id_failed", status: 401,
        "Unknown client_id: register the app, or use `\(SandboxProfile.defaultClientID)`.")
    }
    guard query["response_type"] == "code" else {
      return Answers.oauthError(
        "unsupported_response_type", "response_type must be `code`.")
    }
    var challenge: CodeChallenge?
    if let method = query["code_challenge_method"] {
      guard let parsed = CodeChallenge.Method(rawValue: method) else {
        return Answers.oauthError(
          "invalid_request", "code_challenge_method must be S256 or plain (RFC 7636 §4.3)")
      }
      challenge = query["code_challenge"].map { CodeChallenge(value: $0, method: parsed) }
    } else if let value = query["code_challenge"] {
      challenge = CodeChallenge(value: value, method: .plain)
    }
    // With PKCE the redirect URI may be left out: the registered one is used.
    let registered = context.settings.registeredRedirectURIs ?? []
    guard let redirectURI = query["redirect_uri"] ?? registered.first,
      context.settings.accepts(redirectURI: redirectURI)
    else {
      // Simkl does not tell the app either: the person lands on simkl.com.
      return .redirect(to: Paths.home + "?notice=redirect_uri_not_registered")
    }
    let authorization = AuthorizationRequest(
      clientID: clientID, redirectURI: redirectURI, state: query["state"], challenge: challenge,
      appName: query.nonEmpty("app-name") ?? clientID)
    let id = pending.add(authorization, now: context.now)
    return Pages.consent(consentPage(for: authorization, id: id))
  }

  private func consentPage(for request: AuthorizationRequest, id: String, error: String? = nil)
    -> Pages.Consent
  {
    Pages.Consent(
      provider: "Simkl", appName: request.appName, clientID: request.clientID,
      scopes: [("public", "read and update your watch lists, ratings and history")],
      redirectTarget: request.redirectURI, action: Paths.authorize,
      hiddenFields: [("request_id", id)], approveLabel: "Yes", denyLabel: "No", error: error)
  }

  private mutating func decide(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let form = RequestFields.body(of: request)
    guard let waiting = pending.peek(form["request_id"], now: context.now) else {
      return Pages.message(
        provider: "Simkl", title: "Sign-in request not found",
        text: "This sign-in request was already answered or has expired. Start again from the app.",
        status: 400)
    }
    guard form["decision"] == "approve" else {
      _ = pending.take(form["request_id"], now: context.now)
      context.count(.denials)
      return .redirect(to: Paths.home)
    }
    guard let username = UserName.validated(form["username"]) else {
      return Pages.consent(
        consentPage(for: waiting, id: form["request_id"] ?? "", error: UserName.rule), status: 400)
    }
    _ = pending.take(form["request_id"], now: context.now)
    let code = RandomToken.hex(byteCount: 20)
    codes[code] = IssuedCode(request: waiting, username: username, issuedAt: context.now)
    context.count(.authorizations)
    var parameters: [FormEncoding.Pair] = [("code", code)]
    if let state = waiting.state { parameters.append(("state", state)) }
    return .redirect(to: RedirectURI.appending(parameters, to: waiting.redirectURI))
  }

  // MARK: Token

  private mutating func exchange(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let body = RequestFields.body(of: request)
    guard body.encoding == .json || body.encoding == .form else {
      context.count(.failedExchanges)
      return Self.error(
        "invalid_request", status: 400, "Send the token request as JSON or as a form.")
    }
    guard body["grant_type"] == "authorization_code" else {
      context.count(.failedExchanges)
      return Self.error(
        "unsupported_grant_type", status: 400, "grant_type must be authorization_code.")
    }
    // Any attempt consumes the code, whatever happens next.
    guard let code = body["code"], let issued = codes.removeValue(forKey: code) else {
      context.count(.failedExchanges)
      return Self.error(
        "invalid_grant", status: 400,
        "The authorization code is invalid, expired or already used; sign in again.")
    }
    let clientID = body["client_id"] ?? request.query("client_id")
    let lifetime = TimeInterval(context.settings.authorizationCodeLifetime)
    guard clientID == issued.request.clientID, context.now < issued.issuedAt + lifetime else {
      context.count(.failedExchanges)
      return Self.error(
        "invalid_grant", status: 400,
        "The authorization code is invalid, expired or already used; sign in again.")
    }
    if let redirectURI = body["redirect_uri"], !context.settings.accepts(redirectURI: redirectURI) {
      context.count(.failedExchanges)
      return Self.error(
        "invalid_grant", status: 400, "redirect_uri is not registered for this app.")
    }
    guard let challenge = issued.request.challenge else {
      // A code without PKCE needs the client secret, which a public client does not have.
      context.count(.failedExchanges)
      return Self.error("secret_error", status: 401, "Client secret verification failed")
    }
    guard let verifier = body["code_verifier"], challenge.isSatisfied(by: verifier) else {
      context.count(.failedExchanges)
      return Self.error("secret_error", status: 401, "PKCE verification failed")
    }
    let token = tokens.issueAccessToken(
      for: TokenGrant(
        clientID: issued.request.clientID, username: issued.username, scopes: ["public"]),
      lifetime: context.settings.accessTokenLifetime, now: context.now, hex: true)
    context.count(.exchanges)
    return Answers.json([
      "access_token": .string(token), "token_type": "bearer", "scope": "public",
      "expires_in": .int(context.settings.accessTokenLifetime),
    ])
  }

  // MARK: Identity

  private mutating func userSettings(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    guard let token = Answers.bearerToken(of: request),
      let grant = tokens.activeAccessToken(token, now: context.now)
    else {
      context.count(.identityRefusals)
      return Self.error(
        "user_token_failed", status: 401,
        "The access token is missing, expired or revoked; sign in again.")
    }
    context.count(.identityRequests)
    let accountID = UserName.smallNumericID(grant.username)
    return Answers.json([
      "user": [
        "name": .string(grant.username), "joined_at": "2024-01-01T00:00:00Z", "gender": "",
        "avatar": "", "bio": "", "loc": "", "age": "",
      ],
      "account": ["id": .int(accountID), "timezone": "UTC", "type": "free"],
      "connections": ["facebook": false],
    ])
  }

  // MARK: Shared

  /// Simkl's error body: `{"error","code","message"}`.
  static func error(_ error: String, status: Int, _ message: String) -> HTTPResponse {
    Answers.json(
      ["error": .string(error), "code": .int(status), "message": .string(message)], status: status)
  }

  /// What every API request must carry: `client_id`, `app-name` and `app-version` (in the
  /// query, or in the body of a token request) and a `User-Agent`; and the client must exist.
  static func apiRequestProblem(_ request: HTTPRequest) -> HTTPResponse? {
    let fields = RequestFields.queryAndBody(of: request)
    let missing = ["client_id", "app-name", "app-version"].filter { fields.nonEmpty($0) == nil }
    let agent = request.header("User-Agent") ?? ""
    guard missing.isEmpty, !agent.isEmpty else {
      var parts = missing.map { "`\($0)`" }
      if agent.isEmpty { parts.append("a `User-Agent: name/version` header") }
      return error(
        "bad_request", status: 400,
        "Every Simkl API request needs \(parts.joined(separator: ", ")): add "
          + "?client_id=…&app-name=…&app-version=… to the URL.")
    }
    guard let clientID = fields["client_id"], SandboxProfile.simkl.clientIDs.contains(clientID)
    else {
      return error(
        "client_id_failed", status: 401,
        "Unknown client_id: register the app, or use `\(SandboxProfile.defaultClientID)`.")
    }
    return nil
  }
}
