import Foundation
import JSON

/// A client registration request (RFC 7591 §3.1): the client metadata of RFC 7591 §2 sent as
/// one JSON object to the server's `registration_endpoint`. Immutable; each property maps one
/// member of the wire, and members without a value are not sent.
public struct ClientRegistrationRequest: Sendable, Equatable {
  /// `redirect_uris` (RFC 7591 §2): for authtui, loopback URIs (RFC 8252 §7.3).
  public let redirectURIs: [String]
  /// `token_endpoint_auth_method` (RFC 7591 §2): `none` for a public client (RFC 7591 §2:
  /// "The client is a public client … and does not have a client secret").
  public let tokenEndpointAuthMethod: String
  /// `grant_types` (RFC 7591 §2): `authorization_code`, `refresh_token`, and RFC 8628's
  /// `urn:ietf:params:oauth:grant-type:device_code`.
  public let grantTypes: [String]
  /// `response_types` (RFC 7591 §2): `code` for the browser flow, none without it.
  public let responseTypes: [String]
  /// `client_name` (RFC 7591 §2), shown to the person on the consent page.
  public let clientName: String?
  /// `scope` (RFC 7591 §2), space-separated on the wire; not sent when empty.
  public let scopes: [String]
  /// `software_id` (RFC 7591 §2): the same for every copy and version of the software.
  public let softwareID: String?
  /// `software_version` (RFC 7591 §2).
  public let softwareVersion: String?
  /// `application_type` (OpenID Connect Dynamic Client Registration 1.0 §2): `native` for an
  /// application on the user's device; servers without OpenID ignore it (RFC 7591 §2: unknown
  /// metadata is ignored).
  public let applicationType: String?
  /// Members beyond these, as strings (a server's own required field).
  public let additionalParameters: [String: String]

  /// A request with the given metadata.
  public init(
    redirectURIs: [String], tokenEndpointAuthMethod: String, grantTypes: [String],
    responseTypes: [String], clientName: String? = nil, scopes: [String] = [],
    softwareID: String? = nil, softwareVersion: String? = nil, applicationType: String? = nil,
    additionalParameters: [String: String] = [:]
  ) {
    self.redirectURIs = redirectURIs
    self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
    self.grantTypes = grantTypes
    self.responseTypes = responseTypes
    self.clientName = clientName
    self.scopes = scopes
    self.softwareID = softwareID
    self.softwareVersion = softwareVersion
    self.applicationType = applicationType
    self.additionalParameters = additionalParameters
  }

  /// The value of `software_id` authtui sends: a UUID, as RFC 7591 §2 recommends, fixed for
  /// every version.
  public static let authtuiSoftwareID = "5b0d3f5e-2f4a-4c55-9c1e-6a7f1d2b8e41"

  /// authtui as RFC 8252 has a native application register: a public client
  /// (`token_endpoint_auth_method` `none`, so no secret is needed or kept), `application_type`
  /// `native`, named `authtui` with its `software_id` and `software_version`, asking for the
  /// grants of `flows` (with `refresh_token`) and, for the browser flow, the loopback
  /// `redirectURI` and `response_types` `code`.
  public static func authtui(
    flows: [SignInFlow], redirectURI: String?, scopes: [String]
  ) -> ClientRegistrationRequest {
    var grants: [String] = []
    if flows.contains(.pkce) { grants.append("authorization_code") }
    if flows.contains(.device) { grants.append(deviceCodeGrantType) }
    grants.append("refresh_token")
    let browser = flows.contains(.pkce)
    return ClientRegistrationRequest(
      redirectURIs: browser ? redirectURI.map { [$0] } ?? [] : [],
      tokenEndpointAuthMethod: "none", grantTypes: grants,
      responseTypes: browser ? ["code"] : [], clientName: "authtui", scopes: scopes,
      softwareID: authtuiSoftwareID, softwareVersion: AuthTUIVersion.current,
      applicationType: "native")
  }

  /// The grant type of RFC 8628 §3.4.
  public static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

  /// The JSON body (RFC 7591 §3.1), members in the order of RFC 7591 §2.
  public var json: OrderedJSON {
    var members: [(String, OrderedJSON?)] = [
      ("redirect_uris", redirectURIs.isEmpty ? nil : .array(redirectURIs.map(OrderedJSON.string))),
      ("token_endpoint_auth_method", .string(tokenEndpointAuthMethod)),
      ("grant_types", .array(grantTypes.map(OrderedJSON.string))),
      ("response_types", .array(responseTypes.map(OrderedJSON.string))),
      ("client_name", clientName.map(OrderedJSON.string)),
      ("scope", scopes.isEmpty ? nil : .string(scopes.joined(separator: " "))),
      ("software_id", softwareID.map(OrderedJSON.string)),
      ("software_version", softwareVersion.map(OrderedJSON.string)),
      ("application_type", applicationType.map(OrderedJSON.string)),
    ]
    let taken = Set(members.map(\.0))
    members += additionalParameters.filter { !taken.contains($0.key) }.sorted { $0.key < $1.key }
      .map { ($0.key, OrderedJSON.string($0.value)) }
    return .object(dropping: members)
  }
}
