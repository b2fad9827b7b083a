import Foundation

extension ProviderClient {
  /// Pushes `request` to the PAR endpoint (RFC 9126 §2.1): every parameter of the request in
  /// a form-encoded `POST` (`client_id`, PKCE, `state`, `nonce`, the provider's extras where
  /// its file puts them, and the client secret of a provider that requires one at its token
  /// endpoint), and returns the request with the `request_uri` the server gave for it. A
  /// refusal (§2.3) is `AuthError.pushedAuthorizationRejected` with the server's `error` and
  /// `error_description`.
  func push(_ request: AuthorizationRequest, to endpoint: URL) async throws(AuthError)
    -> AuthorizationRequest
  {
    let http = postRequest(
      endpoint, parameters: request.pushedParameters + configuration.clientSecretParameter,
      encoding: .form)
    let response = try await send(http)
    switch try Self.read(response) {
    case .json(let json):
      let answer = try PushedAuthorizationResponse(json: json)
      return request.pushed(answer, at: await clock.now())
    case .error(let error):
      throw .pushedAuthorizationRejected(error)
    }
  }
}
