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
    let response = try await send(
      .post, to: endpoint, named: "registration_endpoint",
      Header("Content-Type", "application/json"), body: Data(request.json.text.utf8))
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
    let response = try await send(
      .delete, to: clientURI, named: "registration_client_uri",
      Header("Authorization", "Bearer \(accessToken.value)"))
    switch response.status {
    case 200..<300: return
    case 300..<400: throw .redirectRefused(status: response.status)
    case 500...: throw .serverError(status: response.status)
    default: throw .registrationFailed(.deletionRefused(status: response.status))
    }
  }

  /// Sends `method` to `url`, the server's `name`, with JSON accepted, authtui's user agent
  /// and `header`; refused before anything is sent when `url` is not an address authtui sends to.
  private func send(
    _ method: TransportRequest.Method, to url: URL, named name: String, _ header: Header,
    body: Data = Data()
  ) async throws(AuthError) -> TransportResponse {
    guard ProviderConfiguration.isAllowedEndpoint(url) else {
      throw .insecureEndpoint(name, provider: url.host ?? "the server")
    }
    let headers = [
      Header("Accept", "application/json"), Header("User-Agent", AuthTUIVersion.userAgent), header,
    ]
    do {
      return try await transport.send(
        TransportRequest(
          method: method, url: url, headers: headers, body: body, timeout: requestTimeout))
    } catch .cancelled {
      throw .cancelled
    } catch {
      throw .transport(error)
    }
  }
}
