import AuthCore
import Foundation

/// The device authorization grant (RFC 8628): the device asks for codes, the person types the
/// user code on the verification page and answers there.
extension OpenIDAuthority {
  /// RFC 8628 §6.1: base-20 letters without vowels, so no word can be spelled.
  static let userCodeAlphabet = "BCDFGHJKLMNPQRSTVWXZ"

  /// `POST device_authorization` (RFC 8628 §3.1–3.2).
  mutating func deviceAuthorization(
    _ request: HTTPRequest, verificationPath: String, context: inout ProviderContext
  ) -> HTTPResponse {
    let body = RequestFields.body(of: request)
    guard body.encoding == .form || body.encoding == .empty else {
      return Answers.oauthError(
        "invalid_request", "The device authorization endpoint takes a form-encoded body.")
    }
    guard let clientID = body.nonEmpty("client_id"), isKnown(clientID: clientID) else {
      return Answers.oauthError(
        "invalid_client",
        "Unknown or missing client_id; the sandbox clients are "
          + configuration.profile.clientIDs.joined(separator: " and ") + ".", status: 401)
    }
    let scopes = (body["scope"] ?? "openid").split(separator: " ").map(String.init)
    let supported = configuration.supportedScopes.map(\.name)
    if let unknown = scopes.first(where: { !supported.contains($0) }) {
      return Answers.oauthError("invalid_scope", "Unknown scope `\(unknown)`.")
    }
    var letters = RandomToken.userCode(length: 8, alphabet: Self.userCodeAlphabet)
    while devices.waiting(userCode: letters, now: context.now) != nil {
      letters = RandomToken.userCode(length: 8, alphabet: Self.userCodeAlphabet)
    }
    let userCode = String(letters.prefix(4)) + "-" + String(letters.suffix(4))
    let settings = context.settings
    let deviceCode = RandomToken.opaque()
    devices.add(
      DeviceGrant(
        deviceCode: deviceCode, userCode: userCode, clientID: clientID,
        scopes: scopes.isEmpty ? ["openid"] : scopes, appName: nil,
        expiresAt: context.now.addingTimeInterval(TimeInterval(settings.deviceCodeLifetime)),
        interval: settings.deviceInterval))
    context.count(.deviceAuthorizations)
    let verification = context.absolute(verificationPath)
    return Answers.json([
      "device_code": .string(deviceCode), "user_code": .string(userCode),
      "verification_uri": .string(verification),
      "verification_uri_complete": .string(
        RedirectURI.appending([("user_code", userCode)], to: verification)),
      "expires_in": .int(settings.deviceCodeLifetime), "interval": .int(settings.deviceInterval),
    ])
  }

  /// The verification page: `GET` shows the code field (filled from `?user_code=` when the
  /// device showed `verification_uri_complete`), `POST` with a code shows the approval, `POST`
  /// with a decision records it.
  mutating func devicePage(
    _ request: HTTPRequest, verificationPath: String, context: inout ProviderContext
  ) -> HTTPResponse {
    guard request.method == "POST" else {
      return Pages.codeEntry(
        provider: profileName, action: verificationPath, prefill: request.query("user_code"))
    }
    let form = RequestFields.body(of: request)
    let userCode = form["user_code"]?.trimmingSpaces() ?? ""
    guard let grant = devices.waiting(userCode: userCode, now: context.now) else {
      return Pages.codeEntry(
        provider: profileName, action: verificationPath, prefill: userCode,
        error: "That code is not valid or has expired. Check the code your device shows.",
        status: 400)
    }
    let approval = Pages.Consent(
      provider: profileName, title: "Connect a device?", appName: grant.clientID,
      clientID: grant.clientID, scopes: scopeMeanings(grant.scopes), redirectTarget: nil,
      action: verificationPath, hiddenFields: [("user_code", grant.userCode)])
    switch form["decision"] {
    case nil:
      return Pages.consent(approval)
    case "approve":
      guard let username = UserName.validated(form["username"]) else {
        var retry = approval
        retry.error = UserName.rule
        return Pages.consent(retry, status: 400)
      }
      _ = devices.decide(userCode: userCode, .approved(username: username), now: context.now)
      context.count(.authorizations)
      return Pages.message(
        provider: profileName, title: "Device connected",
        text: "The device is signed in as \(username). You can close this window.")
    default:
      _ = devices.decide(userCode: userCode, .denied, now: context.now)
      context.count(.denials)
      return Pages.message(
        provider: profileName, title: "Access denied",
        text: "The device was not given access. You can close this window.")
    }
  }

  // MARK: Discovery

  /// Paths of the optional endpoints a profile publishes in its discovery document.
  struct PublishedEndpoints: Sendable {
    var token: String
    var jwks: String
    var userinfo: String
    var deviceAuthorization: String?
    var revocation: String?
    var endSession: String?
  }

  /// OpenID Connect Discovery 1.0 §3 metadata, with RFC 8414 names for the OAuth parts.
  func discovery(_ endpoints: PublishedEndpoints, context: ProviderContext) -> HTTPResponse {
    let grantTypes: [JSONValue] =
      ["authorization_code", "refresh_token"]
      + (configuration.offersDeviceGrant ? [.string(Self.deviceGrantType)] : [])
    let document = JSONValue.object(dropping: [
      ("issuer", .string(issuer(context))),
      ("authorization_endpoint", .string(context.absolute(configuration.authorizePath))),
      ("token_endpoint", .string(context.absolute(endpoints.token))),
      (
        "device_authorization_endpoint",
        endpoints.deviceAuthorization.map { .string(context.absolute($0)) }
      ),
      ("revocation_endpoint", endpoints.revocation.map { .string(context.absolute($0)) }),
      ("userinfo_endpoint", .string(context.absolute(endpoints.userinfo))),
      ("end_session_endpoint", endpoints.endSession.map { .string(context.absolute($0)) }),
      ("jwks_uri", .string(context.absolute(endpoints.jwks))),
      ("scopes_supported", .array(configuration.supportedScopes.map { .string($0.name) })),
      ("response_types_supported", ["code"]),
      ("response_modes_supported", ["query"]),
      ("grant_types_supported", .array(grantTypes)),
      ("subject_types_supported", ["public"]),
      (
        "id_token_signing_alg_values_supported",
        .array(configuration.signingAlgorithms.map { .string($0.rawValue) })
      ),
      ("token_endpoint_auth_methods_supported", ["none"]),
      ("revocation_endpoint_auth_methods_supported", endpoints.revocation.map { _ in ["none"] }),
      ("code_challenge_methods_supported", ["S256"]),
      (
        "claims_supported",
        [
          "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "preferred_username",
          "name", "email", "email_verified",
        ]
      ),
      (
        "authorization_response_iss_parameter_supported",
        configuration.returnsIssuer ? true : nil
      ),
      ("claims_parameter_supported", false),
      ("request_parameter_supported", false),
      ("request_uri_parameter_supported", false),
    ])
    return Answers.json(document)
  }

  /// The JWKS, or a 500 when a key cannot be made.
  mutating func jwksResponse() -> HTTPResponse {
    do {
      var response = Answers.json(try keys.jwks())
      response.headers.removeAll { $0.name == "Cache-Control" || $0.name == "Pragma" }
      response.headers.append(("Cache-Control", "no-cache"))
      return response
    } catch {
      return Answers.oauthError(
        "server_error", "The sandbox could not make a signing key.", status: 500)
    }
  }
}
