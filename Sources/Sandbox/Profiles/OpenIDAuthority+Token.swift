import AuthCore
import Crypto
import Foundation
import JSON
import Loopback

/// The token endpoint (RFC 6749 §3.2, §4.1.3, §6; RFC 8628 §3.4) and revocation (RFC 7009).
extension OpenIDAuthority {
  static let deviceGrantType = "urn:ietf:params:oauth:grant-type:device_code"

  /// `POST token`: form-encoded only, public clients only (no secret), one grant per call.
  mutating func token(_ request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    let body: RequestFields
    let clientID: String
    switch clientRequest(request) {
    case .success(let fields, let id): (body, clientID) = (fields, id)
    case .failure(let refusal): return refusal
    }
    if let grantType = body["grant_type"], let refusal = refusal(ofGrant: grantType, to: clientID) {
      return refusal
    }
    // RFC 9449 §5: the proof is checked before the grant, which a refused proof leaves unspent.
    let jkt: String?
    switch tokenRequestProof(request, context: &context) {
    case .proven(let proven): jkt = proven
    case .refused(let refusal): return refusal
    }
    do {
      let answer: HTTPResponse
      switch body["grant_type"] {
      case "authorization_code":
        answer = try exchangeCode(body, clientID: clientID, jkt: jkt, context: &context)
      case "refresh_token":
        answer = refresh(body, clientID: clientID, jkt: jkt, context: &context)
      case Self.deviceGrantType? where configuration.offersDeviceGrant:
        answer = try pollDevice(body, clientID: clientID, jkt: jkt, context: &context)
      default:
        return unknownGrant(body["grant_type"])
      }
      return withDPoPNonce(answer, context: context)
    } catch {
      return Answers.oauthError(
        "server_error", "The sandbox could not sign the id_token.", status: 500)
    }
  }

  private func unknownGrant(_ grantType: String?) -> HTTPResponse {
    guard let grantType else {
      return Answers.oauthError("invalid_request", "grant_type is missing.")
    }
    return Answers.oauthError(
      "unsupported_grant_type", "The grant type \(grantType) is not offered here.")
  }

  private enum Authentication {
    case success(String)
    case failure(HTTPResponse)
  }

  enum ClientRequest {
    case success(RequestFields, clientID: String)
    case failure(HTTPResponse)
  }

  /// A form-encoded request from a known public client (RFC 6749 §3.2, RFC 7009 §2.1), each
  /// parameter at most once (§3.1).
  func clientRequest(_ request: HTTPRequest) -> ClientRequest {
    let body = RequestFields.body(of: request)
    guard body.encoding == .form else {
      return .failure(
        Answers.oauthError(
          "invalid_request",
          "Send an application/x-www-form-urlencoded body (RFC 6749 §4.1.3, RFC 7009 §2.1)."))
    }
    if let name = body.repeated.first {
      return .failure(Answers.oauthError("invalid_request", "\(name) is given more than once."))
    }
    switch authenticate(request, body: body) {
    case .success(let id): return .success(body, clientID: id)
    case .failure(let refusal): return .failure(refusal)
    }
  }

  /// A public client identifies itself with `client_id` (in the body, or as the user of an
  /// `Authorization: Basic` header with an empty password) and sends no secret. A profile
  /// with a `clientSecret` (Google) wants that secret too, in the body or the header, and
  /// answers its absence the way Google does: `400 invalid_request` "client_secret is missing."
  private func authenticate(_ request: HTTPRequest, body: RequestFields) -> Authentication {
    var clientID = body.nonEmpty("client_id")
    var secret = body["client_secret"]
    if let header = request.header("Authorization") {
      let parts = header.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, parts[0].lowercased() == "basic",
        let decoded = Data(base64Encoded: String(parts[1])).map({
          String(decoding: $0, as: UTF8.self)
        }),
        let colon = decoded.firstIndex(of: ":"),
        configuration.clientSecret != nil || decoded[decoded.index(after: colon)...].isEmpty
      else {
        return .failure(invalidClient("This is a public client: send client_id and no secret."))
      }
      let user = FormEncoding.unescape(decoded[..<colon])
      if let clientID, clientID != user {
        return .failure(invalidClient("client_id differs from the Authorization header."))
      }
      clientID = user
      let password = FormEncoding.unescape(decoded[decoded.index(after: colon)...])
      if !password.isEmpty { secret = password }
    }
    if let expected = configuration.clientSecret {
      guard let secret, !secret.isEmpty else {
        return .failure(Answers.oauthError("invalid_request", "client_secret is missing."))
      }
      guard secret == expected else {
        return .failure(invalidClient("Unauthorized"))
      }
    } else if body.names.contains("client_secret") {
      return .failure(invalidClient("This is a public client: send no client_secret."))
    }
    guard let clientID else {
      return .failure(invalidClient("client_id is missing."))
    }
    guard isKnown(clientID: clientID) else {
      return .failure(
        invalidClient(
          "Unknown client_id; the sandbox clients are "
            + configuration.profile.clientIDs.joined(separator: " and ") + "."))
    }
    return .success(clientID)
  }

  private func invalidClient(_ description: String) -> HTTPResponse {
    Answers.oauthError("invalid_client", description, status: 401)
  }

  // MARK: Grants

  private mutating func exchangeCode(
    _ body: RequestFields, clientID: String, jkt: String?, context: inout ProviderContext
  ) throws -> HTTPResponse {
    func refuse(_ description: String) -> HTTPResponse {
      context.count(.failedExchanges)
      return Answers.oauthError("invalid_grant", description)
    }
    guard let code = body.nonEmpty("code") else {
      context.count(.failedExchanges)
      return Answers.oauthError("invalid_request", "code is missing.")
    }
    // The code is spent by this attempt, whatever follows.
    guard let issued = codes.removeValue(forKey: code) else {
      if let family = redeemedCodes[code] {
        // RFC 6749 §4.1.2: a code used twice revokes what it gave.
        tokens.revokeFamily(family)
        context.count(.codeReplays)
        return refuse("The code was already used; the tokens it gave are now revoked.")
      }
      return refuse("The code is unknown, expired or already used.")
    }
    let lifetime = TimeInterval(context.settings.authorizationCodeLifetime)
    guard context.now < issued.issuedAt + lifetime else {
      return refuse("The code has expired.")
    }
    guard issued.request.clientID == clientID else {
      return refuse("The code was issued to another client.")
    }
    guard body["redirect_uri"] == issued.request.redirectURI else {
      return refuse("redirect_uri differs from the authorization request's (RFC 6749 §4.1.3).")
    }
    guard let verifier = body["code_verifier"] else {
      return refuse("code_verifier is missing (PKCE, RFC 7636 §4.5).")
    }
    guard issued.request.challenge.isSatisfied(by: verifier) else {
      return refuse("PKCE verification failed: code_verifier does not match code_challenge.")
    }
    let grant = TokenGrant(
      clientID: clientID, username: issued.username, scopes: issued.request.scopes)
    redeemedCodes[code] = grant.family
    let response = try tokenResponse(
      for: grant, nonce: issued.request.nonce, offline: issued.request.offline, jkt: jkt,
      context: &context)
    context.count(.exchanges)
    return response
  }

  private mutating func refresh(
    _ body: RequestFields, clientID: String, jkt: String?, context: inout ProviderContext
  ) -> HTTPResponse {
    guard let presented = body.nonEmpty("refresh_token") else {
      context.count(.failedRefreshes)
      return Answers.oauthError("invalid_request", "refresh_token is missing.")
    }
    // RFC 9449 §5: a bound refresh token is refreshed with a proof of its own key only, and
    // is left unspent by one of another key.
    if let refusal = keyMismatch(of: presented, proven: jkt, context: &context) {
      context.count(.failedRefreshes)
      return refusal
    }
    let outcome = tokens.redeemRefreshToken(
      presented, clientID: clientID, now: context.now,
      rotate: configuration.rotatesRefreshTokens,
      reuseRevokesFamily: configuration.reuseRevokesGrant)
    let presentedHash = Base64URL.encode(SHA256.hash(presented))
    if configuration.replacesRefreshTokens, case .valid = outcome,
      replacedRefreshTokens.contains(presentedHash)
    {
      context.count(.replacedRefreshTokenUses)
    }
    switch outcome {
    case .invalid:
      context.count(.failedRefreshes)
      return Answers.oauthError(
        "invalid_grant", "The refresh token is unknown, expired or revoked; sign in again.")
    case .reused:
      context.count(.failedRefreshes)
      context.count(.reuseDetections)
      return Answers.oauthError(
        "invalid_grant",
        "The refresh token was already used. Every token of this sign-in is revoked; sign in again."
      )
    case .valid(let grant):
      var scopes = grant.scopes
      if let asked = body["scope"] {
        let narrowed = asked.split(separator: " ").map(String.init)
        guard narrowed.allSatisfy(grant.scopes.contains) else {
          context.count(.failedRefreshes)
          return Answers.oauthError(
            "invalid_scope", "A refresh can only keep or narrow the granted scopes.")
        }
        scopes = narrowed
      }
      let settings = context.settings
      if configuration.refreshRetiresAccessTokens {
        tokens.revokeAccessTokens(of: grant.family)
      }
      let narrowedGrant = TokenGrant(
        clientID: grant.clientID, username: grant.username, scopes: scopes, family: grant.family)
      let accessToken = tokens.issueAccessToken(
        for: narrowedGrant, lifetime: settings.accessTokenLifetime, now: context.now, jkt: jkt)
      var members: [(String, OrderedJSON)] = [
        ("access_token", .string(accessToken)), ("token_type", jkt == nil ? "Bearer" : "DPoP"),
        ("expires_in", .int(settings.accessTokenLifetime)),
        ("scope", .string(scopes.joined(separator: " "))),
      ]
      if configuration.rotatesRefreshTokens || configuration.replacesRefreshTokens {
        if configuration.replacesRefreshTokens { replacedRefreshTokens.insert(presentedHash) }
        // The new refresh token keeps the full grant, whatever this access token narrowed.
        let next = tokens.issueRefreshToken(
          for: grant, lifetime: settings.refreshTokenLifetime, now: context.now, jkt: jkt)
        members.append(("refresh_token", .string(next)))
      }
      if settings.refreshIDToken != .none, grant.scopes.contains("openid"),
        let idToken = refreshIDToken(
          for: narrowedGrant, accessToken: accessToken, as: settings.refreshIDToken,
          context: context)
      {
        members.append(("id_token", .string(idToken)))
      }
      context.count(.refreshes)
      return Answers.json(.object(members))
    }
  }

  /// The id_token a refresh answer carries under `refresh_id_token`: the grant's own, one of
  /// another user, or one whose signature does not verify.
  private mutating func refreshIDToken(
    for grant: TokenGrant, accessToken: String, as kind: ProfileSettings.RefreshIDToken,
    context: ProviderContext
  ) -> String? {
    var subjectGrant = grant
    if kind == .otherUser {
      subjectGrant = TokenGrant(
        clientID: grant.clientID, username: grant.username + "-other", scopes: grant.scopes,
        family: grant.family)
    }
    guard
      var token = try? idToken(
        for: subjectGrant, nonce: nil, accessToken: accessToken, context: context)
    else { return nil }
    if kind == .badSignature, let dot = token.lastIndex(of: "."),
      let first = token.index(dot, offsetBy: 1, limitedBy: token.endIndex), first < token.endIndex
    {
      // The signature's first character: the top six bits of its first byte change.
      token.replaceSubrange(first...first, with: token[first] == "A" ? "B" : "A")
    }
    return token
  }

  private mutating func pollDevice(
    _ body: RequestFields, clientID: String, jkt: String?, context: inout ProviderContext
  ) throws -> HTTPResponse {
    guard let deviceCode = body.nonEmpty("device_code") else {
      return Answers.oauthError("invalid_request", "device_code is missing.")
    }
    context.count(.devicePolls)
    let outcome = devices.poll(
      deviceCode: deviceCode, clientID: clientID, now: context.now, growInterval: true)
    let microsoft = configuration.deviceDialect == .microsoft
    func refuse(_ error: String, _ description: String, code: Int? = nil) -> HTTPResponse {
      microsoft
        ? Answers.microsoftError(error, description, code: code, now: context.now)
        : Answers.oauthError(error, description)
    }
    switch outcome {
    case .pending:
      return microsoft
        ? refuse(
          "authorization_pending",
          "AADSTS70016: The provided request has not yet been authorized by the user. The "
            + "user must input their code.", code: 70016)
        : refuse("authorization_pending", "The user has not answered yet; keep polling.")
    case .slowDown:
      context.count(.slowDowns)
      return refuse(
        "slow_down", "Polled too often: wait 5 seconds more between polls from now on.")
    case .denied:
      return microsoft
        ? refuse("authorization_declined", "The end user denied the authorization request.")
        : refuse("access_denied", "The user declined.")
    case .expired:
      return refuse(
        "expired_token", "The device code has expired; start a new device authorization.")
    case .redeemed:
      return microsoft
        ? refuse("bad_verification_code", "The device_code was already used.")
        : refuse("invalid_grant", "The device code was already used.")
    case .unknown:
      return microsoft
        ? refuse("bad_verification_code", "The device_code sent to /token wasn't recognized.")
        : refuse("invalid_grant", "The device code is unknown.")
    case .approved(let grant, let username):
      let tokenGrant = TokenGrant(clientID: clientID, username: username, scopes: grant.scopes)
      let response = try tokenResponse(for: tokenGrant, nonce: nil, jkt: jkt, context: &context)
      context.count(.deviceTokens)
      return response
    }
  }

  // MARK: Revocation

  /// `POST revoke` (RFC 7009 §2.1): 200 whether or not the token was known; a refresh token
  /// takes its whole grant with it.
  mutating func revoke(_ request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    let body = RequestFields.body(of: request)
    guard body.encoding == .form else {
      return Answers.oauthError(
        "invalid_request",
        "The revocation endpoint takes an application/x-www-form-urlencoded body.")
    }
    if configuration.revocationRefusesDeadTokens {
      return revokeByTokenAlone(body, context: &context)
    }
    let clientID: String
    switch authenticate(request, body: body) {
    case .success(let id): clientID = id
    case .failure(let refusal): return refusal
    }
    guard let token = body.nonEmpty("token") else {
      return Answers.oauthError("invalid_request", "token is missing.")
    }
    // A DPoP-bound token is revoked only with a proof of its key, so that a copy of it alone
    // cannot end the grant either.
    let jkt: String?
    switch tokenRequestProof(request, context: &context) {
    case .proven(let proven): jkt = proven
    case .refused(let refusal): return refusal
    }
    if let refusal = keyMismatch(of: token, proven: jkt, context: &context) {
      return refusal
    }
    switch tokens.revoke(token, clientID: clientID) {
    case .otherClient:
      return Answers.oauthError("invalid_request", "The token was issued to another client.")
    case .revoked, .unknown:
      context.count(.revocations)
      return withDPoPNonce(
        HTTPResponse(status: 200, headers: [("Cache-Control", "no-store")]), context: context)
    }
  }

  /// Google's revocation endpoint: the token alone (no client authentication); either kind of
  /// token revokes the whole grant, and a token that is unknown or already dead answers
  /// `400 invalid_token` "Token expired or revoked" rather than RFC 7009's 200.
  private mutating func revokeByTokenAlone(_ body: RequestFields, context: inout ProviderContext)
    -> HTTPResponse
  {
    guard let token = body.nonEmpty("token") else {
      return Answers.oauthError("invalid_request", "Missing required parameter: token")
    }
    guard tokens.revokeGrant(of: token, now: context.now) else {
      return Answers.oauthError("invalid_token", "Token expired or revoked")
    }
    context.count(.revocations)
    return HTTPResponse(status: 200, headers: [("Cache-Control", "no-store")])
  }
}
