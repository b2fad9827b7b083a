import Foundation
import JSON
import Loopback

extension ProviderClient {
  /// `POST device_authorization_endpoint` with `client_id` and `scope` (RFC 8628 §3.1), form
  /// encoded as the RFC requires.
  func requestDeviceAuthorization() async throws(AuthError) -> DeviceAuthorizationResponse {
    let endpoint = try configuration.endpoint(
      \.deviceAuthorizationEndpoint, named: "device_authorization_endpoint")
    var parameters: [FormEncoding.Pair] = [("client_id", configuration.clientID)]
    if !configuration.scopes.isEmpty {
      parameters.append(("scope", configuration.scopes.joined(separator: " ")))
    }
    let response = try await send(postRequest(endpoint, parameters: parameters, encoding: .form))
    switch try Self.read(response) {
    case .json(let json): return try DeviceAuthorizationResponse(json: json)
    case .error(let error): throw .tokenRequestRejected(error)
    }
  }

  /// One device access token request (RFC 8628 §3.4) and what its answer means (§3.5).
  ///
  /// The body decides, never the status alone: GitHub answers `authorization_pending` and
  /// `slow_down` with HTTP 200, and its `slow_down` names the new `interval` to keep to.
  func pollDeviceToken(_ authorization: DeviceAuthorizationResponse) async throws(AuthError)
    -> PollingLoop.Answer
  {
    let endpoint = try configuration.endpoint(\.tokenEndpoint, named: "token_endpoint")
    let request = postRequest(
      endpoint,
      parameters: [
        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
        ("device_code", authorization.deviceCode ?? ""), ("client_id", configuration.clientID),
      ] + configuration.clientSecretParameter, encoding: configuration.tokenRequestEncoding)
    let response = try await sendProven(request)
    switch try Self.read(response) {
    case .json(let json):
      return .tokens(try await tokenResponse(json, proofSent: dpopKey != nil))
    case .error(let error) where error.code == .slowDown:
      let members = JSONValue.object(from: response.body)
      return .slowDown(interval: members?["interval"]?.strictNumberValue)
    case .error(let error):
      return try Self.pollAnswer(for: configuration.standardized(error))
    }
  }

  /// `GET pin_endpoint` with the per-request parameters: a PIN flow's code.
  func requestPIN() async throws(AuthError) -> DeviceAuthorizationResponse {
    let endpoint = try configuration.endpoint(\.pinEndpoint, named: "pin_endpoint")
    switch try Self.read(try await send(getRequest(endpoint))) {
    case .json(let json): return try DeviceAuthorizationResponse(json: json)
    case .error(let error): throw .tokenRequestRejected(error)
    }
  }

  /// `GET pin_endpoint/{user_code}` and what its answer means.
  ///
  /// Polling a code that expired or was used answers with a fresh start response (a new
  /// `user_code` and a `device_code`): any answer carrying `device_code` means the code the
  /// user holds is gone, so the flow stops rather than show a code that was never displayed.
  func pollPIN(_ authorization: DeviceAuthorizationResponse) async throws(AuthError)
    -> PollingLoop.Answer
  {
    let endpoint = try configuration.endpoint(\.pinEndpoint, named: "pin_endpoint")
    let url = endpoint.appendingPathComponent(authorization.userCode)
    switch try Self.read(try await send(getRequest(url))) {
    case .json(let json):
      if json["device_code"] != nil { throw .pinCodeReplaced }
      if json["access_token"] != nil {
        return .tokens(try await tokenResponse(json, proofSent: false))
      }
      let message = json["message"]?.stringValue?.lowercased() ?? ""
      return message.contains("slow down") ? .slowDown(interval: nil) : .pending
    case .error(let error):
      return try Self.pollAnswer(for: configuration.standardized(error))
    }
  }

  /// What an OAuth error means to a polling client (RFC 8628 §3.5).
  private static func pollAnswer(for error: OAuthError) throws(AuthError) -> PollingLoop.Answer {
    switch error.code {
    case .authorizationPending: return .pending
    case .slowDown: return .slowDown(interval: nil)
    case .accessDenied: throw .accessDenied(description: error.errorDescription)
    case .expiredToken: throw .userCodeExpired
    default: throw .tokenRequestRejected(error)
    }
  }
}
