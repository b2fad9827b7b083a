import AuthCore
import Crypto
import Foundation
import JSON
import Loopback

/// A client that registered itself (RFC 7591): what it may do, and how it manages its
/// registration (RFC 7592).
struct RegisteredClient: Sendable {
  /// `redirect_uris`, matched byte for byte at the authorization endpoint.
  let redirectURIs: [String]
  /// `grant_types`: the token endpoint refuses any other.
  let grantTypes: [String]
  /// The metadata as registered, echoed by the answers.
  let metadata: [(String, OrderedJSON)]
  /// SHA-256 of the `registration_access_token`, base64url.
  let accessTokenHash: String
}

/// Dynamic client registration (RFC 7591 §3) and its management (RFC 7592 §2): public native
/// clients only, whose redirect URIs must be loopback callbacks, under the `registration`
/// setting (`open`, `closed`, `vendor_field`).
extension OpenIDAuthority {
  /// The grant types a client may register.
  private var registrableGrants: [String] {
    ["authorization_code", "refresh_token"]
      + (configuration.offersDeviceGrant ? [Self.deviceGrantType] : [])
  }

  /// `POST registration_endpoint` (RFC 7591 §3.1): a JSON object of client metadata; `201`
  /// with the client information response (§3.2.1), or `400` with an error of §3.2.2.
  mutating func register(_ request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    func refuse(_ error: String, _ description: String, status: Int = 400) -> HTTPResponse {
      context.count(.refusedRegistrations)
      return Answers.oauthError(error, description, status: status)
    }
    if context.settings.registration == .closed {
      return refuse(
        "invalid_token",
        "Registration needs an initial access token from this server's administrator "
          + "(RFC 7591 §3).", status: 401)
    }
    guard let body = JSONValue.object(from: request.body) else {
      return refuse("invalid_client_metadata", "Send the client metadata as a JSON object.")
    }
    if context.settings.registration == .vendorField,
      body["vendor_tenant"]?.stringValue?.isEmpty != false
    {
      return refuse(
        "invalid_client_metadata", "vendor_tenant is required by this server's policy.")
    }
    let method = body["token_endpoint_auth_method"]?.stringValue ?? "client_secret_basic"
    guard method == "none" else {
      return refuse(
        "invalid_client_metadata",
        "Only public clients register here: token_endpoint_auth_method must be none.")
    }
    let grants = body["grant_types"]?.stringArrayValue ?? ["authorization_code"]
    if let unknown = grants.first(where: { !registrableGrants.contains($0) }) {
      return refuse("invalid_client_metadata", "The grant type \(unknown) is not offered.")
    }
    let redirectURIs = body["redirect_uris"]?.stringArrayValue ?? []
    if grants.contains("authorization_code") && redirectURIs.isEmpty {
      return refuse("invalid_redirect_uri", "authorization_code needs redirect_uris.")
    }
    if let bad = redirectURIs.first(where: { !RedirectURI.isLoopbackCallback($0) }) {
      return refuse(
        "invalid_redirect_uri",
        "\(bad) is not http://127.0.0.1:PORT/callback (RFC 8252 §7.3).")
    }
    let clientID = "dyn-" + RandomToken.hex(byteCount: 8)
    let accessToken = RandomToken.opaque()
    let responseTypes = body["response_types"]?.stringArrayValue ?? ["code"]
    var metadata: [(String, OrderedJSON)] = [
      ("redirect_uris", .array(redirectURIs.map(OrderedJSON.string))),
      ("token_endpoint_auth_method", "none"),
      ("grant_types", .array(grants.map(OrderedJSON.string))),
      ("response_types", .array(responseTypes.map(OrderedJSON.string))),
    ]
    for name in [
      "client_name", "scope", "software_id", "software_version", "application_type",
      "vendor_tenant",
    ] {
      if let value = body[name]?.stringValue { metadata.append((name, .string(value))) }
    }
    registeredClients[clientID] = RegisteredClient(
      redirectURIs: redirectURIs, grantTypes: grants, metadata: metadata,
      accessTokenHash: Base64URL.encode(SHA256.hash(accessToken)))
    context.count(.registrations)
    return Answers.json(
      clientInformation(clientID, accessToken: accessToken, context: context), status: 201)
  }

  /// `GET` or `DELETE registration_endpoint/{client_id}` with the registration access token
  /// (RFC 7592 §2.1, §2.3): the client's information, or `204` and the client is gone (its
  /// tokens stop working). A wrong token, or a client that is no more, answers `401`.
  mutating func manageRegistration(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let clientID = String(request.path.split(separator: "/").last ?? "")
    guard let token = Answers.bearerToken(of: request),
      let client = registeredClients[clientID],
      client.accessTokenHash == Base64URL.encode(SHA256.hash(token))
    else {
      return Answers.oauthError(
        "invalid_token", "The registration access token is unknown for this client.",
        status: 401)
    }
    guard request.method == "DELETE" else {
      return Answers.json(clientInformation(clientID, accessToken: nil, context: context))
    }
    registeredClients[clientID] = nil
    tokens.revokeClient(clientID)
    context.count(.registrationDeletions)
    return HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
  }

  /// The client information response (RFC 7591 §3.2.1, RFC 7592 §3).
  private func clientInformation(
    _ clientID: String, accessToken: String?, context: ProviderContext
  ) -> OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("client_id", .string(clientID)), ("client_id_issued_at", .int(context.unixTime)),
    ]
    members += registeredClients[clientID]?.metadata ?? []
    if let accessToken { members.append(("registration_access_token", .string(accessToken))) }
    members.append(
      (
        "registration_client_uri",
        .string(context.absolute((configuration.routes.registration ?? "") + "/" + clientID))
      ))
    return .object(members)
  }
}
