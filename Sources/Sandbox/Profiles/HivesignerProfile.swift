import AuthCore
import Crypto
import Foundation
import JSON
import Loopback

/// Hivesigner (PROVIDERS.md "Hivesigner"). Reproduced quirks:
/// - PKCE is S256 only: a `plain`, missing or malformed challenge is ignored, and such a code
///   then needs a client secret the sandbox app does not have;
/// - the callback carries `username` besides `code` and `state`;
/// - the exchange is JSON `{"code","code_verifier"}` and answers
///   `{"access_token","expires_in":604800,"username"}`, with no refresh token;
/// - every exchange error is `401 invalid_grant`, with the documented messages for a used,
///   expired (older than 10 + 5 minutes) or future-dated (over 5 minutes ahead) code;
/// - a wrong verifier does NOT consume the code; any sent `client_secret` is refused;
/// - a code presented as a token at `/api/me` is refused with `401 invalid_grant`.
struct HivesignerProfile: ProviderProfile {
  typealias Paths = SandboxPaths.Hivesigner

  /// A code may be exchanged for 10 minutes, plus 5 for a client whose clock is behind.
  static let codeLifetime = 600
  static let clockSkewAllowance = 300

  struct AuthorizationRequest: Sendable {
    let clientID: String
    let redirectURI: String
    let state: String?
    let loginOnly: Bool
    let challenge: String?
  }

  private let codeSigningKey = SecureRandom.bytes(count: 32)
  private var pending = PendingAuthorizations<AuthorizationRequest>()
  /// Canonical texts of exchanged codes (the API keeps used codes in memory).
  private var usedCodes: Set<String> = []
  private var tokens = TokenLedger()

  mutating func respond(to request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    switch request.path {
    case Paths.authorize:
      switch request.method {
      case "GET": return authorize(request, context: &context)
      case "POST": return decide(request, context: &context)
      default: return Answers.methodNotAllowed(["GET", "POST"])
      }
    case Paths.token:
      return Answers.allowing(["POST"], request) { exchange(request, context: &context) }
    case Paths.me:
      return Answers.allowing(["GET", "POST"], request) { me(request, context: &context) }
    default:
      return Answers.notFound(request.path)
    }
  }

  // MARK: Consent

  private mutating func authorize(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let query = RequestFields.query(of: request)
    guard let clientID = query["client_id"],
      SandboxProfile.hivesigner.clientIDs.contains(clientID)
    else {
      return Pages.message(
        provider: "Hivesigner", title: "Unknown app",
        text: "No app account is called \"\(query["client_id"] ?? "")\". The sandbox app is "
          + "\(SandboxProfile.defaultClientID).", status: 400)
    }
    guard let redirectURI = query["redirect_uri"],
      context.settings.accepts(redirectURI: redirectURI)
    else {
      return Pages.message(
        provider: "Hivesigner", title: "Callback not registered",
        text: "The redirect_uri is not registered for this app. The sandbox app accepts "
          + "http://127.0.0.1:PORT/callback (127.0.0.1, not localhost).", status: 400)
    }
    guard query["response_type"] == "code" else {
      return Pages.message(
        provider: "Hivesigner", title: "Unsupported request",
        text: "This app can only ask for response_type=code.", status: 400)
    }
    // S256 only; anything else leaves the code without a challenge.
    let challenge = query["code_challenge"].flatMap { value in
      query["code_challenge_method"] == "S256" && CodeChallenge.isWellFormedS256(value)
        ? value : nil
    }
    let authorization = AuthorizationRequest(
      clientID: clientID, redirectURI: redirectURI, state: query["state"],
      loginOnly: query["scope"] == "login", challenge: challenge)
    let id = pending.add(authorization, now: context.now)
    return Pages.consent(consentPage(for: authorization, id: id))
  }

  private func consentPage(for request: AuthorizationRequest, id: String, error: String? = nil)
    -> Pages.Consent
  {
    let scope =
      request.loginOnly
      ? ("login", "confirm which account you are, and nothing more")
      : ("posting", "post, comment, vote and follow on your behalf")
    return Pages.Consent(
      provider: "Hivesigner", appName: request.clientID, clientID: request.clientID,
      scopes: [scope], redirectTarget: request.redirectURI, action: Paths.authorize,
      hiddenFields: [("request_id", id)], approveLabel: "Continue", denyLabel: "Cancel",
      error: error)
  }

  private mutating func decide(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let form = RequestFields.body(of: request)
    guard let waiting = pending.peek(form["request_id"], now: context.now) else {
      return Pages.message(
        provider: "Hivesigner", title: "Request not found",
        text: "This sign-in request was already answered or has expired. Start again from the app.",
        status: 400)
    }
    var parameters: [FormEncoding.Pair] = []
    guard form["decision"] == "approve" else {
      _ = pending.take(form["request_id"], now: context.now)
      context.count(.denials)
      parameters.append(("error", "access_denied"))
      if let state = waiting.state { parameters.append(("state", state)) }
      return .redirect(to: RedirectURI.appending(parameters, to: waiting.redirectURI))
    }
    guard let username = UserName.validated(form["username"]) else {
      return Pages.consent(
        consentPage(for: waiting, id: form["request_id"] ?? "", error: UserName.rule), status: 400)
    }
    _ = pending.take(form["request_id"], now: context.now)
    let code = HivesignerCode(
      app: waiting.clientID, scope: waiting.loginOnly ? "login" : nil,
      challenge: waiting.challenge, author: username, timestamp: context.unixTime)
    context.count(.authorizations)
    parameters.append(("code", code.encoded(signingKey: codeSigningKey)))
    if let state = waiting.state { parameters.append(("state", state)) }
    parameters.append(("username", username))
    return .redirect(to: RedirectURI.appending(parameters, to: waiting.redirectURI))
  }

  // MARK: Token

  private mutating func exchange(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let outcome = checkExchange(request, context: context)
    switch outcome {
    case .failure(let message):
      context.count(.failedExchanges)
      return Self.invalidGrant(message)
    case .success(let code):
      usedCodes.insert(code.canonicalText)
      let scopes = code.scope.map { [$0] } ?? ["posting"]
      let token = tokens.issueAccessToken(
        for: TokenGrant(clientID: code.app, username: code.author, scopes: scopes),
        lifetime: context.settings.accessTokenLifetime, now: context.now)
      context.count(.exchanges)
      return Answers.json([
        "access_token": .string(token), "expires_in": .int(context.settings.accessTokenLifetime),
        "username": .string(code.author),
      ])
    }
  }

  private enum ExchangeCheck {
    case success(HivesignerCode)
    case failure(String)
  }

  /// Every check of an exchange, in order. Only success consumes the code.
  private func checkExchange(_ request: HTTPRequest, context: ProviderContext) -> ExchangeCheck {
    let body = RequestFields.body(of: request)
    guard body.encoding == .json else {
      return .failure("Send a JSON body: {\"code\": …, \"code_verifier\": …}.")
    }
    guard let text = body.nonEmpty("code") else { return .failure("The code is missing.") }
    guard let code = HivesignerCode.decode(text, signingKey: codeSigningKey) else {
      return .failure("The code is not valid.")
    }
    // Any value counts as sent: the sandbox app has no secret, so every one is wrong.
    guard !body.names.contains("client_secret"), request.query("client_secret") == nil else {
      return .failure("The client secret is wrong.")
    }
    guard let challenge = code.challenge else {
      return .failure("This code has no PKCE challenge, so it needs the client secret.")
    }
    guard !usedCodes.contains(code.canonicalText) else {
      return .failure("The code was already used")
    }
    let age = context.unixTime - code.timestamp
    guard age <= Self.codeLifetime + Self.clockSkewAllowance else {
      return .failure("The code has expired")
    }
    guard -age <= Self.clockSkewAllowance else {
      return .failure("The code is dated in the future")
    }
    guard let verifier = body["code_verifier"],
      CodeChallenge(value: challenge, method: .s256).isSatisfied(by: verifier)
    else {
      return .failure("The code_verifier is missing, malformed or does not match the challenge.")
    }
    return .success(code)
  }

  static func invalidGrant(_ message: String) -> HTTPResponse {
    Answers.oauthError("invalid_grant", message, status: 401)
  }

  // MARK: Identity

  private mutating func me(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    guard let token = Answers.bearerToken(of: request, allowBare: true) else {
      context.count(.identityRefusals)
      return Self.invalidGrant("The access token is missing.")
    }
    guard let grant = tokens.activeAccessToken(token, now: context.now) else {
      context.count(.identityRefusals)
      if HivesignerCode.decode(token, signingKey: codeSigningKey) != nil {
        return Self.invalidGrant("This is a code, not an access token: exchange it first.")
      }
      return Self.invalidGrant("The access token is not valid or has expired.")
    }
    context.count(.identityRequests)
    let name = OrderedJSON.string(grant.username)
    return Answers.json([
      "user": name, "_id": name, "name": name,
      "account": ["name": name, "json_metadata": "{}", "posting_json_metadata": "{}"],
      "scope": .array(grant.scopes.map(OrderedJSON.string)), "user_metadata": [:],
    ])
  }
}
