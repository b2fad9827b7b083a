import AuthCore
import Foundation
import Loopback

/// Simkl's PIN flow: `GET /oauth/pin` starts it, the device polls `GET /oauth/pin/{user_code}`,
/// the person types the code on `simkl.com/pin`.
extension SimklProfile {
  /// Simkl's user codes: 5 characters, no 0/O or 1/I to misread.
  static let userCodeAlphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"

  mutating func startPIN(_ request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    let fields = RequestFields.query(of: request)
    return startResponse(
      clientID: fields["client_id"] ?? "", appName: fields.nonEmpty("app-name"), context: &context)
  }

  /// A new code and the start answer. The same answer is what a poll of a gone code receives:
  /// it carries `device_code`, which no other poll answer does.
  private mutating func startResponse(
    clientID: String, appName: String?, context: inout ProviderContext
  ) -> HTTPResponse {
    var userCode = RandomToken.userCode(length: 5, alphabet: Self.userCodeAlphabet)
    while pins.waiting(userCode: userCode, now: context.now) != nil {
      userCode = RandomToken.userCode(length: 5, alphabet: Self.userCodeAlphabet)
    }
    let settings = context.settings
    pins.add(
      DeviceGrant(
        deviceCode: RandomToken.opaque(), userCode: userCode, clientID: clientID,
        scopes: ["public"], appName: appName,
        expiresAt: context.now.addingTimeInterval(TimeInterval(settings.deviceCodeLifetime)),
        interval: settings.deviceInterval))
    context.count(.deviceAuthorizations)
    let verification = context.absolute(Paths.pinPage)
    return Answers.json([
      "result": "OK", "device_code": "DEVICE_CODE", "user_code": .string(userCode),
      "verification_uri": .string(verification), "verification_url": .string(verification),
      "expires_in": .int(settings.deviceCodeLifetime), "interval": .int(settings.deviceInterval),
    ])
  }

  mutating func pollPIN(
    userCode: String, _ request: HTTPRequest, context: inout ProviderContext
  ) -> HTTPResponse {
    context.count(.devicePolls)
    let fields = RequestFields.query(of: request)
    let clientID = fields["client_id"] ?? ""
    switch pins.poll(userCode: userCode, clientID: clientID, now: context.now, growInterval: false)
    {
    case .pending:
      return Answers.json(["result": "KO", "message": "Authorization pending"])
    case .slowDown:
      context.count(.slowDowns)
      return Answers.json(["result": "KO", "message": "Slow down"])
    case .approved(let grant, let username):
      let token = tokens.issueAccessToken(
        for: TokenGrant(clientID: grant.clientID, username: username, scopes: grant.scopes),
        lifetime: context.settings.accessTokenLifetime, now: context.now, hex: true)
      context.count(.deviceTokens)
      return Answers.json(["result": "OK", "access_token": .string(token)])
    case .unknown, .expired, .redeemed, .denied:
      // The fall-through: the old code is gone, and the answer is a fresh start.
      return startResponse(
        clientID: clientID, appName: fields.nonEmpty("app-name"), context: &context)
    }
  }

  /// The PIN page (`simkl.com/pin`): the code, then the approval with a user name.
  var pinVerification: DeviceVerification {
    DeviceVerification(provider: "Simkl", action: Paths.pinPage) { grant in
      Pages.Consent(
        provider: "Simkl", title: "Connect \(grant.appName ?? "this device")?",
        appName: grant.appName ?? grant.clientID, clientID: grant.clientID,
        scopes: [("public", "read and update your watch lists, ratings and history")],
        redirectTarget: nil, action: "", hiddenFields: [], approveLabel: "Yes", denyLabel: "No")
    }
  }

  /// `POST /simkl-web/pin`.
  mutating func pinPage(_ request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    switch pinVerification.answer(request, grants: &pins, context: &context) {
    case .page(let page):
      return page
    case .approved(let grant, let username):
      return Pages.message(
        provider: "Simkl", title: "Device connected",
        text: "\(grant.appName ?? "Your device") is now connected to \(username)'s account. "
          + "You can close this window.")
    case .denied:
      // Silent, like the consent page: the code keeps waiting until it expires.
      return .redirect(to: Paths.home)
    }
  }
}
