import AuthCore
import Foundation
import Loopback

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
    if let refusal = refusal(ofGrant: Self.deviceGrantType, to: clientID) { return refusal }
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
    if configuration.deviceDialect == .microsoft {
      // No verification_uri_complete ("not included or supported"), and a message to show.
      return Answers.json([
        "device_code": .string(deviceCode), "user_code": .string(userCode),
        "verification_uri": .string(verification),
        "expires_in": .int(settings.deviceCodeLifetime), "interval": .int(settings.deviceInterval),
        "message": .string(
          "To sign in, use a web browser to open the page \(verification) and enter the code "
            + "\(userCode) to authenticate."),
      ])
    }
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
    let tenancy = configuration.tenancy
    let verification = DeviceVerification(
      provider: profileName, action: verificationPath,
      refusal: { tenancy?.refusal(forTenant: MicrosoftTenancy.tenant(of: $0)) }
    ) { [self] grant in
      Pages.Consent(
        provider: profileName, title: "Connect a device?", appName: grant.clientID,
        clientID: grant.clientID, scopes: scopeMeanings(grant.scopes), redirectTarget: nil,
        action: "", hiddenFields: [])
    }
    guard request.method == "POST" else { return verification.entryPage(request) }
    switch verification.answer(request, grants: &devices, context: &context) {
    case .page(let page):
      return page
    case .approved(_, let username):
      return Pages.message(
        provider: profileName, title: "Device connected",
        text: "The device is signed in as \(username). You can close this window.")
    case .denied(let grant):
      _ = devices.decide(userCode: grant.userCode, .denied, now: context.now)
      return Pages.message(
        provider: profileName, title: "Access denied",
        text: "The device was not given access. You can close this window.")
    }
  }
}
