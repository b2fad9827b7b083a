import Foundation
import JSON

/// A client information response (RFC 7591 §3.2.1), with RFC 7592 §3's management members:
/// the client id the server issued and the metadata it registered, which may differ from what
/// was asked (the server may replace or drop values). Immutable; each property maps one member.
/// The secrets (`client_secret`, `registration_access_token`) print as placeholders.
public struct ClientRegistrationResponse: Sendable, Equatable {
  /// `client_id` (RFC 7591 §3.2.1, required).
  public let clientID: String
  /// `client_secret` (RFC 7591 §3.2.1), when the server issued one.
  public let clientSecret: ClientSecret?
  /// `client_id_issued_at` (RFC 7591 §3.2.1), seconds since 1970.
  public let clientIDIssuedAt: Date?
  /// `client_secret_expires_at` (RFC 7591 §3.2.1): nil when there is no secret or it does not
  /// expire (0 on the wire).
  public let clientSecretExpiresAt: Date?
  /// `registration_access_token` (RFC 7592 §3): the bearer token for managing the
  /// registration.
  public let registrationAccessToken: RegistrationAccessToken?
  /// `registration_client_uri` (RFC 7592 §3): where the registration is read, changed and
  /// deleted.
  public let registrationClientURI: URL?
  /// `redirect_uris` as registered; nil when the answer does not repeat them.
  public let redirectURIs: [String]?
  /// `grant_types` as registered; nil when the answer does not repeat them.
  public let grantTypes: [String]?
  /// `token_endpoint_auth_method` as registered; nil when the answer does not say (then the
  /// one asked for stands).
  public let tokenEndpointAuthMethod: String?
  /// `scope` as registered, split at spaces; nil when the answer does not repeat it.
  public let scopes: [String]?

  /// A response with the given members.
  public init(
    clientID: String, clientSecret: ClientSecret? = nil, clientIDIssuedAt: Date? = nil,
    clientSecretExpiresAt: Date? = nil, registrationAccessToken: RegistrationAccessToken? = nil,
    registrationClientURI: URL? = nil, redirectURIs: [String]? = nil, grantTypes: [String]? = nil,
    tokenEndpointAuthMethod: String? = nil, scopes: [String]? = nil
  ) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.clientIDIssuedAt = clientIDIssuedAt
    self.clientSecretExpiresAt = clientSecretExpiresAt
    self.registrationAccessToken = registrationAccessToken
    self.registrationClientURI = registrationClientURI
    self.redirectURIs = redirectURIs
    self.grantTypes = grantTypes
    self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
    self.scopes = scopes
  }

  /// Reads an answer's members. `client_id` must be a non-empty string; a
  /// `registration_client_uri` must be https (http only on loopback), since the registration
  /// access token is sent there. Other members of the wrong type are ignored.
  public init(json: [String: JSONValue]) throws(ClientRegistrationError) {
    guard let clientID = json["client_id"]?.stringValue, !clientID.isEmpty else {
      throw .malformedResponse("it has no client_id")
    }
    guard clientID.count <= 512,
      clientID.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
    else { throw .malformedResponse("its client_id holds spaces or control characters") }
    func text(_ name: String) -> String? {
      json[name]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }
    func date(_ name: String) -> Date? {
      guard let seconds = json[name]?.strictNumberValue, seconds > 0, seconds < 1e11 else {
        return nil
      }
      return Date(timeIntervalSince1970: seconds)
    }
    func strings(_ name: String) -> [String]? { json[name]?.arrayValue?.compactMap(\.stringValue) }
    var clientURI: URL?
    if let uri = text("registration_client_uri") {
      guard let url = URL(string: uri), url.host != nil,
        ProviderConfiguration.isAllowedEndpoint(url)
      else {
        throw .malformedResponse(
          "its registration_client_uri is no https URL, so the registration access token "
            + "cannot be sent there")
      }
      clientURI = url
    }
    self.init(
      clientID: clientID, clientSecret: text("client_secret").map(ClientSecret.init),
      clientIDIssuedAt: date("client_id_issued_at"),
      clientSecretExpiresAt: date("client_secret_expires_at"),
      registrationAccessToken: text("registration_access_token").map(
        RegistrationAccessToken.init),
      registrationClientURI: clientURI, redirectURIs: strings("redirect_uris"),
      grantTypes: strings("grant_types"),
      tokenEndpointAuthMethod: text("token_endpoint_auth_method"),
      scopes: text("scope").map { $0.split(separator: " ").map(String.init) })
  }
}
