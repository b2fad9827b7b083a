import AuthCore
import Crypto
import Foundation
import JSON
import Loopback

/// The OpenID Connect authorization server both the `oidc` and the `muhajir` profile stand on:
/// authorization requests with PKCE S256 and a consent page, codes, access, refresh and id
/// tokens, the bearer-protected identity endpoint. Each profile sets what differs (paths,
/// refresh rotation, RFC 9207 `iss`, the device grant) in its `Configuration`.
struct OpenIDAuthority: Sendable {
  struct Configuration: Sendable {
    let profile: SandboxProfile
    /// The issuer's path; the issuer is the base URL plus this.
    let issuerPath: String
    /// Where each endpoint is served.
    let routes: Routes
    /// Scopes a client may ask for.
    let supportedScopes: [(name: String, meaning: String)]
    /// Refresh tokens are single use, with reuse detection.
    let rotatesRefreshTokens: Bool
    /// RFC 9207: `iss` in every authorization response.
    let returnsIssuer: Bool
    /// Key types in the JWKS.
    let signingAlgorithms: [SignatureAlgorithm]
    /// The algorithm of each client's id_tokens; others get the first of `signingAlgorithms`.
    let clientAlgorithms: [String: SignatureAlgorithm]
    /// Microsoft's tenants: a templated or per-tenant issuer in discovery, id_tokens issued by
    /// each account's own tenant with `tid`, and accounts of other tenants refused. Nil: one
    /// issuer for everything.
    var tenancy: MicrosoftTenancy? = nil
    /// How the device grant speaks: RFC 8628's names, or Microsoft's.
    var deviceDialect: DeviceDialect = .rfc8628
    /// Every refresh hands out a new refresh token but the old one stays valid (Microsoft:
    /// "doesn't revoke old refresh tokens"); presenting a replaced one is counted.
    var replacesRefreshTokens = false

    /// When a token answer carries a refresh token.
    var refreshTokenIssue: RefreshTokenIssue = .withOfflineAccessScope
    /// A rotated-out refresh token presented again revokes the whole grant (reuse detection);
    /// false just refuses it (GitLab's Doorkeeper).
    var reuseRevokesGrant = true
    /// A refresh also ends the access tokens issued before it (GitLab: "invalidates the
    /// existing access_token and refresh_token").
    var refreshRetiresAccessTokens = false
    /// The secret every token request must carry (Google's installed-application clients);
    /// nil: public clients, which must send none.
    var clientSecret: String? = nil
    /// Revoking an unknown, expired or revoked token answers `400 invalid_token` (Google)
    /// instead of RFC 7009 §2.2's 200.
    var revocationRefusesDeadTokens = false
    /// Which claims the id_token and the identity endpoint release.
    var claims: ClaimStyle = .standard
    /// GitLab's userinfo has `preferred_username` besides `nickname` (older GitLab releases
    /// documented `nickname` alone).
    var releasesPreferredUsername = true
    /// Members only the RFC 8414 document publishes, left out of the OpenID discovery document
    /// (the `dynamic` profile's revocation, registration and device endpoints).
    var onlyInAuthorizationServerMetadata: Set<String> = []

    /// The device grant (RFC 8628) is offered when it has an endpoint.
    var offersDeviceGrant: Bool { routes.deviceAuthorization != nil }
  }

  /// When a token answer carries a refresh token.
  enum RefreshTokenIssue: Sendable {
    /// With the `offline_access` scope (OIDC Core §11).
    case withOfflineAccessScope
    /// Always (GitLab: every code exchange and device grant).
    case always
    /// When the authorization request said `access_type=offline` (Google).
    case withAccessTypeOffline
  }

  /// The claims a provider releases.
  enum ClaimStyle: Sendable {
    /// `sub` is the user name; `profile` and `email` release the standard claims everywhere.
    case standard
    /// GitLab: `sub` is the numeric user id; the id_token carries only `sub`, `sub_legacy`,
    /// `email`, `email_verified` and `groups_direct`; userinfo adds `nickname`,
    /// `preferred_username`, `name`, `profile`, `picture` and `groups`.
    case gitlab
    /// Google: `sub` is a numeric account id, there is no `preferred_username`; `email`
    /// releases `email` and `email_verified`, `profile` releases `name` and `picture`, in the
    /// id_token and userinfo alike.
    case google
  }

  /// The device grant's wire names.
  enum DeviceDialect: Sendable {
    /// RFC 8628: `verification_uri_complete`, `access_denied`, `expired_token`, `invalid_grant`.
    case rfc8628
    /// Microsoft's `/devicecode`: no `verification_uri_complete`, a `message` to show,
    /// `authorization_declined` for a denial and `bad_verification_code` for an unknown code,
    /// each error with Microsoft's `error_codes`, `timestamp`, `trace_id`, `correlation_id`.
    case microsoft
  }

  /// The paths of the endpoints; nil for one the profile does not offer.
  struct Routes: Sendable {
    var discovery: [String]
    var jwks: String
    var authorize: String
    var token: String
    /// Userinfo, or the provider's own account endpoint.
    var identity: String
    var deviceAuthorization: String? = nil
    var device: String? = nil
    var revocation: String? = nil
    /// Published in discovery; the profile serves it.
    var endSession: String? = nil
    /// RFC 8414 metadata when it differs from the OpenID document (`discovery` may list the
    /// RFC 8414 name too when it does not).
    var authorizationServerMetadata: [String] = []
    /// `registration_endpoint` (RFC 7591); `registration/{client_id}` manages one (RFC 7592).
    var registration: String? = nil
    /// `pushed_authorization_request_endpoint` (RFC 9126), served and published when the
    /// settings' `par` is not `off`.
    var pushedAuthorization: String? = nil
  }

  struct AuthorizationRequest: Sendable {
    let clientID: String
    let redirectURI: String
    let scopes: [String]
    let state: String?
    let nonce: String?
    let challenge: CodeChallenge
    /// `access_type=offline` (Google's way to ask for a refresh token).
    var offline = false
  }

  struct IssuedCode: Sendable {
    let request: AuthorizationRequest
    let username: String
    let issuedAt: Date
  }

  let configuration: Configuration
  var pending = PendingAuthorizations<AuthorizationRequest>()
  /// Requests pushed to the PAR endpoint (RFC 9126), waiting for the browser.
  var pushedRequests = PushedRequests<AuthorizationRequest>()
  /// Proofs seen (their `jti`) and the nonce DPoP proofs must carry (RFC 9449).
  var dpopLedger = DPoPLedger()
  var codes: [String: IssuedCode] = [:]
  /// Exchanged codes and the token family each gave, for replay detection (RFC 6749 §4.1.2).
  var redeemedCodes: [String: String] = [:]
  var tokens = TokenLedger()
  var devices = DeviceGrants()
  var keys: SigningKeySet
  /// Hashes of issued id_tokens, with what they were for (the end-session hint).
  var issuedIDTokens: [String: (clientID: String, username: String)] = [:]
  /// Hashes of refresh tokens a refresh replaced (`replacesRefreshTokens`).
  var replacedRefreshTokens: Set<String> = []
  /// Clients registered through the registration endpoint (RFC 7591), by client id.
  var registeredClients: [String: RegisteredClient] = [:]
  private var alternation = 0

  init(_ configuration: Configuration, signingKeys: [SigningKey] = []) {
    self.configuration = configuration
    self.keys = SigningKeySet(algorithms: configuration.signingAlgorithms, initial: signingKeys)
  }

  var profileName: String { configuration.profile.displayName }

  func issuer(_ context: ProviderContext) -> String {
    context.absolute(configuration.issuerPath)
  }

  func isKnown(clientID: String?) -> Bool {
    guard let clientID else { return false }
    return configuration.profile.clientIDs.contains(clientID) || registeredClients[clientID] != nil
  }

  /// True when `uri` may receive `clientID`'s authorization responses: a registered client's
  /// own `redirect_uris`, byte for byte; the profile's settings for its built-in clients.
  func accepts(redirectURI uri: String, of clientID: String, settings: ProfileSettings) -> Bool {
    if let registered = registeredClients[clientID] { return registered.redirectURIs.contains(uri) }
    return settings.accepts(redirectURI: uri)
  }

  /// Nil when `clientID` may use `grantType`, else the refusal: a registered client only the
  /// grants it registered (RFC 7591 §2 `grant_types`).
  func refusal(ofGrant grantType: String, to clientID: String) -> HTTPResponse? {
    guard let registered = registeredClients[clientID], !registered.grantTypes.contains(grantType)
    else { return nil }
    return Answers.oauthError(
      "unauthorized_client", "The client did not register the grant type \(grantType).")
  }

  // MARK: Authorization endpoint

  /// An authorization request (OIDC Core §3.1.2.1), by GET query or POST form.
  mutating func authorize(_ request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    let fields =
      request.method == "POST" ? RequestFields.body(of: request) : RequestFields.query(of: request)
    // Without a known client and a valid redirect URI nothing may be redirected (RFC 6749
    // §4.1.2.1): the person is told on the page.
    guard isKnown(clientID: fields["client_id"]), let clientID = fields["client_id"] else {
      return Pages.message(
        provider: profileName, title: "Unknown client",
        text: "No client is registered as \"\(fields["client_id"] ?? "")\". The sandbox "
          + "clients are \(configuration.profile.clientIDs.joined(separator: " and ")).",
        status: 400)
    }
    if fields.names.contains("request_uri"), context.settings.pushedAuthorization != .off {
      return authorizePushed(fields, clientID: clientID, context: &context)
    }
    let authorization: AuthorizationRequest
    switch checkAuthorization(fields, clientID: clientID, pushed: false, context: context) {
    case .page(let title, let text):
      return Pages.message(provider: profileName, title: title, text: text, status: 400)
    case .refused(let error, let description):
      return .redirect(
        to: errorRedirect(
          fields["redirect_uri"] ?? "", error: error, description: description,
          state: fields["state"], context: context))
    case .accepted(let accepted):
      authorization = accepted
    }
    if context.settings.pushedAuthorization == .required {
      let endpoint = configuration.routes.pushedAuthorization.map(context.absolute) ?? "?"
      return .redirect(
        to: errorRedirect(
          authorization.redirectURI, error: "invalid_request",
          description: "This server takes only pushed authorization requests (RFC 9126): push "
            + "the request to \(endpoint) first.", state: authorization.state, context: context))
    }
    let id = pending.add(authorization, now: context.now)
    return Pages.consent(consentPage(for: authorization, id: id))
  }

  /// What `checkAuthorization` made of an authorization request's parameters.
  enum AuthorizationCheck {
    /// A request to show the consent page for.
    case accepted(AuthorizationRequest)
    /// Refused with an OAuth error (RFC 6749 §4.1.2.1): redirected to the request's checked
    /// redirect URI at the authorization endpoint, answered as JSON at the PAR endpoint.
    case refused(error: String, description: String)
    /// Refused where no redirect may go (an unregistered redirect URI, OIDC Core §11 read
    /// strictly): an error page at the authorization endpoint, `invalid_request` at PAR.
    case page(title: String, text: String)
  }

  /// Checks the parameters of an authorization request from the known client `clientID`:
  /// sent through the browser, or pushed (`pushed`, RFC 9126 §2.1, where `request_uri` may
  /// not be given).
  func checkAuthorization(
    _ fields: RequestFields, clientID: String, pushed: Bool, context: ProviderContext
  ) -> AuthorizationCheck {
    guard let redirectURI = fields["redirect_uri"],
      accepts(redirectURI: redirectURI, of: clientID, settings: context.settings)
    else {
      return .page(
        title: "Redirect URI not registered",
        text: "redirect_uri must be http://127.0.0.1:PORT/callback (any port; 127.0.0.1, "
          + "not localhost).")
    }
    if let name = fields.repeated.first {
      return .refused(
        error: "invalid_request", description: "\(name) is given more than once (RFC 6749 §3.1).")
    }
    guard fields["response_type"] == "code" else {
      return .refused(
        error: "unsupported_response_type", description: "Only response_type=code is offered.")
    }
    if fields.names.contains("request") {
      return .refused(
        error: "request_not_supported", description: "Request objects are not supported.")
    }
    if fields.names.contains("request_uri") {
      return pushed
        ? .refused(
          error: "invalid_request",
          description: "A pushed request may not carry request_uri (RFC 9126 §2.1).")
        : .refused(error: "request_uri_not_supported", description: "request_uri is not supported.")
    }
    let scopes = (fields["scope"] ?? "openid").split(separator: " ").map(String.init)
    let supported = configuration.supportedScopes.map(\.name)
    if let unknown = scopes.first(where: { !supported.contains($0) }) {
      return .refused(
        error: "invalid_scope",
        description: "Unknown scope `\(unknown)`; offered: \(supported.joined(separator: " ")).")
    }
    guard let challengeValue = fields["code_challenge"] else {
      return .refused(
        error: "invalid_request", description: "PKCE is required: send code_challenge with S256.")
    }
    guard fields["code_challenge_method"] == "S256" else {
      return .refused(error: "invalid_request", description: "code_challenge_method must be S256.")
    }
    guard CodeChallenge.isWellFormedS256(challengeValue) else {
      return .refused(
        error: "invalid_request", description: "code_challenge must be 43 base64url characters.")
    }
    if fields["prompt"]?.split(separator: " ").contains("none") == true {
      return .refused(
        error: "login_required",
        description: "Nobody is signed in; the consent page must be shown.")
    }
    if context.settings.strictOfflineAccess, scopes.contains("offline_access"),
      fields["prompt"]?.split(separator: " ").contains("consent") != true
    {
      // OIDC Core §11 read strictly, as some servers do: an error page, and no redirect.
      return .page(
        title: "Consent required",
        text: "offline_access is granted only with prompt=consent (OpenID Connect Core §11).")
    }
    if refusal(ofGrant: "authorization_code", to: clientID) != nil {
      return .refused(
        error: "unauthorized_client",
        description: "The client did not register authorization_code.")
    }
    return .accepted(
      AuthorizationRequest(
        clientID: clientID, redirectURI: redirectURI,
        scopes: scopes.isEmpty ? ["openid"] : scopes, state: fields["state"],
        nonce: fields["nonce"], challenge: CodeChallenge(value: challengeValue, method: .s256),
        offline: fields["access_type"] == "offline"))
  }

  func consentPage(for request: AuthorizationRequest, id: String, error: String? = nil)
    -> Pages.Consent
  {
    Pages.Consent(
      provider: profileName, appName: request.clientID, clientID: request.clientID,
      scopes: scopeMeanings(request.scopes), redirectTarget: request.redirectURI,
      action: configuration.routes.authorize, hiddenFields: [("request_id", id)], error: error)
  }

  func scopeMeanings(_ scopes: [String]) -> [(name: String, meaning: String)] {
    configuration.supportedScopes.filter { scopes.contains($0.name) }
  }

  /// The consent page's answer.
  mutating func decide(_ request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    let form = RequestFields.body(of: request)
    guard let waiting = pending.peek(form["request_id"], now: context.now) else {
      return Pages.message(
        provider: profileName, title: "Sign-in request not found",
        text: "This sign-in request was already answered or has expired. Start again from the app.",
        status: 400)
    }
    guard form["decision"] == "approve" else {
      _ = pending.take(form["request_id"], now: context.now)
      context.count(.denials)
      return .redirect(
        to: errorRedirect(
          waiting.redirectURI, error: "access_denied", description: "The user declined.",
          state: waiting.state, context: context))
    }
    guard let username = UserName.validated(form["username"]) else {
      return Pages.consent(
        consentPage(for: waiting, id: form["request_id"] ?? "", error: UserName.rule), status: 400)
    }
    if let tenancy = configuration.tenancy,
      let refusal = tenancy.refusal(forTenant: MicrosoftTenancy.tenant(of: username))
    {
      return Pages.consent(
        consentPage(for: waiting, id: form["request_id"] ?? "", error: refusal), status: 400)
    }
    _ = pending.take(form["request_id"], now: context.now)
    let code = RandomToken.opaque()
    codes[code] = IssuedCode(request: waiting, username: username, issuedAt: context.now)
    context.count(.authorizations)
    var parameters: [FormEncoding.Pair] = [("code", code)]
    if let state = waiting.state { parameters.append(("state", state)) }
    if configuration.returnsIssuer { parameters.append(("iss", issuer(context))) }
    return .redirect(to: RedirectURI.appending(parameters, to: waiting.redirectURI))
  }

  func errorRedirect(
    _ redirectURI: String, error: String, description: String, state: String?,
    context: ProviderContext
  ) -> String {
    var parameters: [FormEncoding.Pair] = [("error", error), ("error_description", description)]
    if let state { parameters.append(("state", state)) }
    if configuration.returnsIssuer && !context.settings.errorRedirectOmitsIssuer {
      parameters.append(("iss", issuer(context)))
    }
    return RedirectURI.appending(parameters, to: redirectURI)
  }

  // MARK: Tokens

  /// The token response for a new grant (RFC 6749 §5.1, OIDC Core §3.1.3.3): an access token,
  /// a refresh token with `offline_access`, an id_token with `openid`.
  /// With `jkt`, the thumbprint of the key of the request's DPoP proof, both tokens are bound
  /// to that key and the answer says `token_type` `DPoP` (RFC 9449 §5).
  mutating func tokenResponse(
    for grant: TokenGrant, nonce: String?, offline: Bool = false, jkt: String? = nil,
    context: inout ProviderContext
  ) throws -> HTTPResponse {
    let settings = context.settings
    let accessToken = tokens.issueAccessToken(
      for: grant, lifetime: settings.accessTokenLifetime, now: context.now, jkt: jkt)
    var members: [(String, OrderedJSON)] = [
      ("access_token", .string(accessToken)), ("token_type", jkt == nil ? "Bearer" : "DPoP"),
      ("expires_in", .int(settings.accessTokenLifetime)),
      ("scope", .string(grant.scopes.joined(separator: " "))),
    ]
    if issuesRefreshToken(for: grant, offline: offline) {
      let refreshToken = tokens.issueRefreshToken(
        for: grant, lifetime: settings.refreshTokenLifetime, now: context.now, jkt: jkt)
      members.append(("refresh_token", .string(refreshToken)))
    }
    if grant.scopes.contains("openid") {
      let idToken = try self.idToken(
        for: grant, nonce: nonce, accessToken: accessToken, context: context)
      members.append(("id_token", .string(idToken)))
    }
    return Answers.json(.object(members))
  }

  /// Whether a new grant's answer carries a refresh token.
  private func issuesRefreshToken(for grant: TokenGrant, offline: Bool) -> Bool {
    switch configuration.refreshTokenIssue {
    case .withOfflineAccessScope: return grant.scopes.contains("offline_access")
    case .always: return true
    case .withAccessTypeOffline: return offline
    }
  }

  /// An id_token (OIDC Core §2) signed with the client's key.
  mutating func idToken(
    for grant: TokenGrant, nonce: String?, accessToken: String, context: ProviderContext
  ) throws -> String {
    let algorithm = signingAlgorithm(for: grant.clientID, settings: context.settings)
    let entry = try keys.entry(for: algorithm)
    let now = context.unixTime
    var issuer = issuer(context)
    var tenantClaims: [(String, OrderedJSON)] = []
    if configuration.tenancy != nil {
      // Microsoft: the account's own tenant signs, whatever segment was asked.
      let tenant = MicrosoftTenancy.tenant(of: grant.username)
      // Always the tenant's own issuer.
      issuer = context.absolute(SandboxPaths.Microsoft.issuer(tenant))
      tenantClaims = [("tid", .string(tenant)), ("ver", "2.0")]
    }
    var claims: [(String, OrderedJSON)] = [
      ("iss", .string(issuer)), ("sub", .string(subject(grant.username, context.settings))),
      ("aud", .string(grant.clientID)), ("exp", .int(now + 3600)), ("iat", .int(now)),
      ("auth_time", .int(now)),
    ]
    if let nonce { claims.append(("nonce", .string(nonce))) }
    claims.append(("at_hash", .string(JWS.accessTokenHash(accessToken))))
    claims += tenantClaims + idTokenClaims(for: grant, context: context)
    let token = try JWS.sign(claims: .object(claims), with: entry)
    issuedIDTokens[Base64URL.encode(SHA256.hash(token))] = (grant.clientID, grant.username)
    return token
  }

  private mutating func signingAlgorithm(for clientID: String, settings: ProfileSettings)
    -> SignatureAlgorithm
  {
    let available = configuration.signingAlgorithms
    switch settings.idTokenSigning {
    case .rs256? where available.contains(.rs256): return .rs256
    case .es256? where available.contains(.es256): return .es256
    case .alternate?:
      alternation += 1
      return available[alternation % available.count]
    default:
      return configuration.clientAlgorithms[clientID] ?? available[0]
    }
  }

  /// The account's `sub`: the user name, or for GitLab and Google (and under
  /// `subject_only_claims`) a number derived from it (GitLab's user id, Google's account id),
  /// so a client that labels accounts with `sub` shows a number.
  func subject(_ username: String, _ settings: ProfileSettings) -> String {
    if settings.subjectOnlyClaims { return UserName.numericID(username) }
    switch configuration.claims {
    case .standard: return username
    case .gitlab, .google: return UserName.numericID(username)
    }
  }

  /// The claims of the id_token beyond the registered ones.
  private func idTokenClaims(for grant: TokenGrant, context: ProviderContext)
    -> [(String, OrderedJSON)]
  {
    if context.settings.subjectOnlyClaims { return [] }
    switch configuration.claims {
    case .standard, .google:
      return profileClaims(for: grant, context: context)
    case .gitlab:
      // GitLab's id_token: sub, sub_legacy, email, email_verified, groups_direct; the user
      // name is only in userinfo.
      var claims: [(String, OrderedJSON)] = [("sub_legacy", .string(legacySubject(grant)))]
      if grant.scopes.contains("email") || grant.scopes.contains("openid") {
        claims += [("email", .string(UserName.email(grant.username))), ("email_verified", true)]
      }
      claims.append(("groups_direct", .array([.string("\(grant.username)-group")])))
      return claims
    }
  }

  private func legacySubject(_ grant: TokenGrant) -> String {
    Base64URL.encode(SHA256.hash("legacy:" + grant.username))
  }

  /// The claims the granted scopes release (OIDC Core §5.4), as the identity endpoint gives
  /// them.
  func profileClaims(for grant: TokenGrant, context: ProviderContext) -> [(String, OrderedJSON)] {
    if context.settings.subjectOnlyClaims { return [] }
    switch configuration.claims {
    case .standard:
      return standardProfileClaims(for: grant)
    case .gitlab:
      var claims: [(String, OrderedJSON)] = [
        ("sub_legacy", .string(legacySubject(grant))), ("name", .string(grant.username)),
        ("nickname", .string(grant.username)),
      ]
      if configuration.releasesPreferredUsername {
        claims.append(("preferred_username", .string(grant.username)))
      }
      return claims + [
        ("email", .string(UserName.email(grant.username))), ("email_verified", true),
        ("profile", .string(context.absolute("/gitlab/\(grant.username)"))),
        ("picture", .string(context.absolute("/gitlab/uploads/\(grant.username).png"))),
        ("groups", .array([.string("\(grant.username)-group")])),
      ]
    case .google:
      var claims: [(String, OrderedJSON)] = []
      if grant.scopes.contains("email") {
        claims += [("email", .string(UserName.email(grant.username))), ("email_verified", true)]
      }
      if grant.scopes.contains("profile") {
        claims += [
          ("name", .string(grant.username)), ("given_name", .string(grant.username)),
          ("picture", .string(context.absolute("/google/photo/\(grant.username).png"))),
        ]
      }
      return claims
    }
  }

  private func standardProfileClaims(for grant: TokenGrant) -> [(String, OrderedJSON)] {
    var claims: [(String, OrderedJSON)] = []
    if grant.scopes.contains("profile") {
      claims += [
        ("preferred_username", .string(grant.username)), ("name", .string(grant.username)),
      ]
    }
    if grant.scopes.contains("email") {
      claims += [("email", .string(UserName.email(grant.username))), ("email_verified", true)]
    }
    return claims
  }
}
