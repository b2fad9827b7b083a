import AuthCore
import Foundation
import JSON

/// A provider of one's own, from its issuer URL: what `authtui providers add` (and the UI's
/// "Other provider…" form) writes into `providers/ID.json`, planned from the server's
/// discovered metadata before anything is written.
///
/// The steps, each of which the caller runs (the network is the caller's): discover the
/// issuer (`OIDCProvider.discover`), plan (`init`), register when `needsRegistration`
/// (`ClientRegistrar.register` with `registrationRequest(redirectPort:)`, then `adopt`), and
/// `save`. The file names the issuer, so every sign-in discovers the endpoints afresh.
public struct ProviderAddition: Sendable {
  /// The provider's id (`providers/ID.json`).
  public let id: ProviderID
  /// The issuer, as given.
  public let issuer: String
  /// The name to show, when one was given.
  public let name: String?
  /// What the server offers.
  public let summary: IssuerSummary
  /// The client id given, or the one registration issued.
  public private(set) var clientID: String?
  /// The client secret given (`--client-secret-file`), or one a registration issued for
  /// `client_secret_post`; written to the 0600 file only.
  public private(set) var clientSecret: ClientSecret?
  /// The flows the file lists.
  public private(set) var flows: [SignInFlow]
  /// The scopes the file lists.
  public let scopes: [String]
  /// The loopback port a registration fixed in its redirect URI (`redirect_port`).
  public private(set) var redirectPort: UInt16?
  /// Where the registration is managed, and its token (RFC 7592), when the server gave them.
  public private(set) var management: (uri: URL, token: RegistrationAccessToken)?
  /// True once a registration was adopted.
  public private(set) var registered = false

  /// The scopes authtui asks an OpenID provider for, less those the server says it lacks.
  public static let openIDScopes = ["openid", "profile", "email", "offline_access"]

  /// Plans the provider `id` at `issuer` from its `metadata`: `flows` are the ones asked for
  /// (every one the server offers when empty), each of which the server must offer; the scopes
  /// are the OpenID ones the server lists (none for a plain OAuth server); `clientSecret` is
  /// taken only with a `clientID`.
  public init(
    id: ProviderID, issuer: String, metadata: OIDCProviderMetadata, name: String? = nil,
    clientID: String? = nil, clientSecret: ClientSecret? = nil, flows asked: [SignInFlow] = []
  ) throws(ProviderAdditionError) {
    let summary = IssuerSummary(metadata)
    for flow in asked where !summary.flows.contains(flow) {
      throw .flowNotOffered(flow, issuer: issuer, offered: summary.flows)
    }
    let flows = asked.isEmpty ? summary.flows : summary.flows.filter(asked.contains)
    guard !flows.isEmpty else { throw .noUsableFlow(issuer: issuer) }
    var scopes: [String] = []
    if summary.isOpenID {
      let listed = Set(summary.scopesSupported)
      scopes = Self.openIDScopes.filter { $0 == "openid" || listed.isEmpty || listed.contains($0) }
      if summary.refresh == false { scopes.removeAll { $0 == "offline_access" } }
    }
    self.id = id
    self.issuer = issuer
    self.name = name
    self.summary = summary
    self.clientID = clientID
    self.clientSecret = clientID == nil ? nil : clientSecret
    self.flows = flows
    self.scopes = scopes
  }

  /// Why `issuer` cannot be an issuer URL before anything is sent or shown, nil when it may
  /// be one: it names a user or a password (`providers add --issuer` and the UI's "Other
  /// provider…" form both ask this first, so that no message repeats the password).
  public static func issuerProblem(_ issuer: String) -> ProviderAdditionError? {
    if let credentials = IssuerCredentials(issuer: issuer) {
      return .credentialsInIssuer(credentials)
    }
    return issuerOfDocument(at: issuer).map { .documentAddress(issuer, issuer: $0) }
  }

  /// The issuer whose metadata `address` is, when it is the address of a discovery document
  /// rather than an issuer (pasted from a browser or a provider's page):
  /// `ISSUER/.well-known/openid-configuration` (OIDC Discovery §4),
  /// `ORIGIN/.well-known/oauth-authorization-server/PATH` (RFC 8414 §3) or
  /// `ISSUER/.well-known/oauth-authorization-server`; nil for any other text.
  static func issuerOfDocument(at address: String) -> String? {
    let trimmed = address.hasSuffix("/") ? String(address.dropLast()) : address
    var issuer: String?
    for suffix in ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]
    where trimmed.hasSuffix(suffix) {
      issuer = String(trimmed.dropLast(suffix.count))
    }
    let inserted = "/.well-known/oauth-authorization-server/"
    if issuer == nil, let range = trimmed.range(of: inserted) {
      issuer = String(trimmed[..<range.lowerBound]) + "/" + trimmed[range.upperBound...]
    }
    // What is left must still be a URL with a host to be an issuer.
    guard let issuer, URL(string: issuer)?.host?.isEmpty == false else { return nil }
    return issuer
  }

  /// True when there is no client id yet and the server lets applications register.
  public var needsRegistration: Bool { clientID == nil && summary.registration }

  /// authtui's registration (RFC 7591 §3.1): a native public client for the planned flows and
  /// scopes; for the browser flow, the loopback redirect URI on `redirectPort` (RFC 8252
  /// §7.3 allows any port, but many servers match the registered one exactly, so the port is
  /// fixed at registration and kept in the file).
  public func registrationRequest(redirectPort: UInt16?) -> ClientRegistrationRequest {
    .authtui(
      flows: flows, redirectURI: redirectPort.map { Self.redirectURI(port: $0) }, scopes: scopes)
  }

  /// `http://127.0.0.1:PORT/callback`.
  public static func redirectURI(port: UInt16) -> String { "http://127.0.0.1:\(port)/callback" }

  /// Takes the server's answer to `registrationRequest(redirectPort:)`: its client id, the
  /// redirect port when the browser flow was registered, the management address and token,
  /// and the flows whose grant it registered. A secret is kept only when the server registered
  /// `client_secret_post` (the one client authentication authtui can do); one it issued for a
  /// public client is of no use and is not written. A server that registered a confidential
  /// method, no redirect URI asked for, or none of the grants is refused.
  public mutating func adopt(_ response: ClientRegistrationResponse, redirectPort: UInt16?)
    throws(ClientRegistrationError)
  {
    switch response.tokenEndpointAuthMethod ?? "none" {
    case "none": clientSecret = nil
    case "client_secret_post" where response.clientSecret != nil:
      clientSecret = response.clientSecret
    case let method: throw .unusableAuthMethod(method)
    }
    let browser = flows.contains(.pkce)
    if browser, let redirectPort {
      let uri = Self.redirectURI(port: redirectPort)
      if let registered = response.redirectURIs, !registered.contains(uri) {
        throw .redirectURINotRegistered(uri)
      }
    }
    if let grants = response.grantTypes {
      let kept = flows.filter { flow in
        switch flow {
        case .pkce: return grants.contains("authorization_code")
        case .device: return grants.contains(ClientRegistrationRequest.deviceCodeGrantType)
        case .pin: return false
        }
      }
      guard !kept.isEmpty else {
        throw .malformedResponse("it registered none of the grant types asked for")
      }
      flows = kept
    }
    clientID = response.clientID
    self.redirectPort = flows.contains(.pkce) ? redirectPort : nil
    if let uri = response.registrationClientURI, let token = response.registrationAccessToken {
      management = (uri, token)
    }
    registered = true
  }

  /// Takes in the provider file this addition replaces (`--replace`), read before it is
  /// written over, and returns the registration it holds (RFC 7592), to be deleted once the new
  /// file is written: the new file does not hold what deleting it takes, so left there it
  /// could never be deleted by authtui. Nil when it holds none, or registered the client this
  /// addition names too (`--client-id` with the registered id): that client is still in use,
  /// so its registration is kept, and managed from the new file as it was from the old one.
  public mutating func replacing(_ old: ProviderFile) -> ReplacedRegistration? {
    guard let uri = old.registrationClientURI, let token = old.registrationAccessToken else {
      return nil
    }
    if let clientID, clientID == old.clientID {
      if management == nil { management = (uri, token) }
      return nil
    }
    return ReplacedRegistration(clientID: old.clientID, uri: uri, token: token)
  }

  /// What to ask the server's administrator for when authtui cannot register itself: a
  /// public client with the redirect URI on any loopback port and the grants of the flows.
  public var guide: RegistrationGuide {
    RegistrationGuide(
      applicationType: Self.applicationType,
      redirectURI: flows.contains(.pkce) ? "http://127.0.0.1/callback" : nil,
      anyPort: flows.contains(.pkce), scopes: scopes, note: note)
  }

  /// The kind of client to ask for, as `application_type` in the file.
  static let applicationType = "public (native) client, no client secret"

  /// The grant types the flows use, for the note.
  private var grantTypes: [String] {
    var grants: [String] = []
    if flows.contains(.pkce) { grants.append("authorization_code") }
    if flows.contains(.device) { grants.append(ClientRegistrationRequest.deviceCodeGrantType) }
    return grants + ["refresh_token"]
  }

  /// `registration_note` for a file without a client id.
  private var note: String {
    var parts = ["ask the administrator of \(issuer) for a public client (no secret)"]
    if flows.contains(.pkce) {
      parts.append("with the redirect URI http://127.0.0.1/callback on any port")
    }
    parts.append("and the grant types " + grantTypes.joined(separator: ", "))
    return parts.joined(separator: " ")
  }

  /// The file's members, in the order written: name, issuer, client, flows, scopes, redirect
  /// port, then the registration's management and, without a client id, what to register.
  public var members: [(String, OrderedJSON)] {
    var members: [(String, OrderedJSON)] = []
    if let name { members.append(("name", .string(name))) }
    members.append(("issuer", .string(issuer)))
    if let clientID { members.append(("client_id", .string(clientID))) }
    if let clientSecret {
      members += [("client_secret", .string(clientSecret.value)), ("client_secret_required", true)]
    }
    members.append(("flows", .array(flows.map { .string($0.rawValue) })))
    members.append(("scopes", .array(scopes.map(OrderedJSON.string))))
    if let redirectPort { members.append(("redirect_port", .int(Int(redirectPort)))) }
    if let management {
      members += [
        ("registration_client_uri", .string(management.uri.absoluteString)),
        ("registration_access_token", .string(management.token.value)),
      ]
    }
    if clientID == nil {
      members += [
        ("application_type", .string(Self.applicationType)), ("registration_note", .string(note)),
      ]
    }
    return members
  }
}

/// Why `authtui providers add` (or the UI's form) cannot add the provider; `description` says
/// what to do.
public enum ProviderAdditionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The issuer URL names a user (and a password): refused before any request.
  case credentialsInIssuer(IssuerCredentials)
  /// The "issuer" given is the address of the discovery document of `issuer`.
  case documentAddress(String, issuer: String)
  /// The id is a built-in preset's: a file of that name would change the preset.
  case presetID(ProviderID)
  /// `providers/ID.json` exists, and replacing it was not asked for.
  case exists(ProviderID, path: String)
  /// A flow asked for is not one the server offers.
  case flowNotOffered(SignInFlow, issuer: String, offered: [SignInFlow])
  /// The server offers no flow authtui can use.
  case noUsableFlow(issuer: String)
  /// The file cannot be written.
  case file(path: String, reason: String)
  /// The issuer's metadata could not be had or used (`OIDCProvider.discover`'s error).
  case discovery(AuthError, issuer: String)
  /// No loopback port could be opened for the redirect URI to register.
  case noRedirectPort
  /// The server did not register authtui, or registered it in a way it cannot use.
  case registration(AuthError)

  /// What to do about a server whose metadata authtui cannot use.
  private static let serverFix =
    "its administrator can fix that, or you can write the provider file with its endpoints "
    + "yourself (docs/providers.md)"

  public var description: String {
    switch self {
    case .credentialsInIssuer(let credentials),
      .discovery(.discoveryFailed(.credentialsInIssuer(let credentials)), _):
      // The issuer is not repeated: the password is in it.
      return "the issuer URL \(credentials.problem)"
    case .documentAddress(let address, let issuer):
      return "\(address) is the address of a discovery document, not an issuer: give the "
        + "issuer it belongs to, \(issuer)"
    case .presetID(let id):
      return "\(id) is a built-in preset; give your provider another id, such as \(id)-2 "
        + "(or give the preset your client id: `authtui providers add \(id) --client-id ID`)"
    case .exists(let id, let path):
      return "\(path) exists already; give the provider another id than \(id), or give the "
        + "same command again with --replace to replace the file"
    case .flowNotOffered(let flow, let issuer, let offered):
      let others =
        offered.isEmpty
        ? "none authtui can use"
        : offered.map(\.rawValue).joined(separator: " and ")
      return "\(issuer) does not offer the \(flow.rawValue) flow (it offers \(others)); leave "
        + "--flow out to take every flow it offers"
    case .noUsableFlow(let issuer):
      return "\(issuer) offers neither a browser sign-in with PKCE nor a device code that authtui "
        + "can use (its metadata lists no usable authorization_endpoint, token_endpoint or "
        + "device_authorization_endpoint); check the issuer URL"
    case .file(let path, let reason):
      return "\(path): \(reason)"
    case .discovery(.discoveryFailed(.invalidIssuer), let issuer):
      return "\(issuer) is not an https URL (http only on 127.0.0.1 or localhost) without "
        + "query or fragment; give the server's issuer, for example https://id.example.com"
    case .discovery(.discoveryFailed(.unreachableIssuer(_, let problem)), let issuer):
      return "\(issuer) is not a valid URL: \(problem)"
    case .discovery(.discoveryFailed(.issuerMismatch(_, let received?)), let issuer):
      return "the server at \(issuer) names its issuer \(received); give exactly that"
    case .discovery(.discoveryFailed(.documentNotFound(let url, let status, _)), let issuer):
      return "\(issuer) publishes neither OpenID discovery nor RFC 8414 metadata (\(url) "
        + "answered HTTP \(status)); check the issuer URL: the server's documentation names it"
    // There is no provider file yet: the metadata's own problems are said of the server.
    case .discovery(.discoveryFailed(.missingMember(let name)), let issuer):
      return "\(issuer)'s metadata has no `\(name)`, which authtui needs; " + Self.serverFix
    case .discovery(.discoveryFailed(.invalidEndpoint(let name)), let issuer):
      return "\(issuer)'s metadata has an unusable `\(name)`; " + Self.serverFix
    case .discovery(.discoveryFailed(.insecureEndpoint(let name)), let issuer):
      return "\(issuer)'s metadata gives a plain http `\(name)` (only 127.0.0.1 and "
        + "localhost may use http); " + Self.serverFix
    case .discovery(let error, let issuer):
      return "\(issuer) could not be discovered: \(error.message)"
    case .noRedirectPort:
      return "no loopback port could be opened for the redirect URI to register; close some "
        + "programs (or raise the open-file limit) and try again"
    case .registration(let error):
      return error.message
    }
  }
}
