import Foundation
import JSON

/// Registers authtui with a server that allows it (RFC 7591 §3) and deletes that registration
/// again (RFC 7592 §2.3), through the injected `Transport`, each request bounded by
/// `requestTimeout` seconds. Stateless; the registration's secrets are only ever in the values
/// it returns and takes.
public struct ClientRegistrar: Sendable {
  /// The network.
  public let transport: any Transport
  /// The deadline for each request, in seconds.
  public let requestTimeout: TimeInterval

  /// A registrar over `transport`.
  public init(transport: any Transport, requestTimeout: TimeInterval = 30) {
    self.transport = transport
    self.requestTimeout = requestTimeout
  }

  /// Sends `request` to `endpoint` (`registration_endpoint`) and reads the client information
  /// response (RFC 7591 §3.2.1). An error answer (§3.2.2) becomes
  /// `AuthError.registrationFailed(.refused)`, 401 and 403 `.initialAccessTokenRequired`.
  public func register(_ request: ClientRegistrationRequest, at endpoint: URL)
    async throws(AuthError) -> ClientRegistrationResponse
  {
    guard ProviderConfiguration.isAllowedEndpoint(endpoint) else {
      throw .insecureEndpoint("registration_endpoint", provider: endpoint.host ?? "the server")
    }
    let response = try await send(
      TransportRequest(
        method: .post, url: endpoint,
        headers: headers + [Header("Content-Type", "application/json")],
        body: Data(request.json.text.utf8), timeout: requestTimeout))
    if response.status == 401 || response.status == 403 {
      throw .registrationFailed(.initialAccessTokenRequired(status: response.status))
    }
    switch try ProviderClient.read(response) {
    case .error(let error):
      throw .registrationFailed(
        .refused(code: error.code.rawValue, description: error.errorDescription))
    case .json(let json):
      do {
        return try ClientRegistrationResponse(json: json)
      } catch {
        throw .registrationFailed(error)
      }
    }
  }

  /// Deletes the registration at `clientURI` (`registration_client_uri`) with its
  /// `registration_access_token` as a bearer token (RFC 7592 §2.3): 204 (or any 2xx) is done.
  public func delete(at clientURI: URL, accessToken: RegistrationAccessToken)
    async throws(AuthError)
  {
    guard ProviderConfiguration.isAllowedEndpoint(clientURI) else {
      throw .insecureEndpoint("registration_client_uri", provider: clientURI.host ?? "the server")
    }
    let response = try await send(
      TransportRequest(
        method: .delete, url: clientURI,
        headers: headers + [Header("Authorization", "Bearer \(accessToken.value)")],
        timeout: requestTimeout))
    switch response.status {
    case 200..<300: return
    case 300..<400: throw .redirectRefused(status: response.status)
    case 500...: throw .serverError(status: response.status)
    default: throw .registrationFailed(.deletionRefused(status: response.status))
    }
  }

  private var headers: [Header] {
    [Header("Accept", "application/json"), Header("User-Agent", AuthTUIVersion.userAgent)]
  }

  private func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
    do {
      return try await transport.send(request)
    } catch .cancelled {
      throw .cancelled
    } catch {
      throw .transport(error)
    }
  }
}
