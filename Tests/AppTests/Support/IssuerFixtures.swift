import App
import AuthCore
import JSON
import Providers

/// What the "Other provider…" tests discover: the sandbox's `dynamic` server as
/// `IssuerSummary` reads it, with or without dynamic registration.
enum IssuerFixtures {
  static let issuer = "http://127.0.0.1:41234/dynamic"

  /// The server's summary; `registration` false leaves out its `registration_endpoint`.
  static func summary(registration: Bool = true) throws -> IssuerSummary {
    var openID: [String: JSONValue] = [
      "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/authorize"),
      "token_endpoint": .string(issuer + "/token"), "jwks_uri": .string(issuer + "/jwks"),
      "userinfo_endpoint": .string(issuer + "/userinfo"),
      "end_session_endpoint": .string(issuer + "/end_session"),
      "response_types_supported": .array([.string("code")]),
      "code_challenge_methods_supported": .array([.string("S256")]),
      "scopes_supported": .array(
        ["openid", "profile", "email", "offline_access"].map(JSONValue.string)),
    ]
    var server = openID
    server["revocation_endpoint"] = .string(issuer + "/revoke")
    server["device_authorization_endpoint"] = .string(issuer + "/device_authorization")
    server["grant_types_supported"] = .array(
      [
        "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code",
      ].map(JSONValue.string))
    if registration { server["registration_endpoint"] = .string(issuer + "/register") }
    openID["grant_types_supported"] = server["grant_types_supported"]
    return IssuerSummary(
      try OIDCProviderMetadata(
        documents: [
          MetadataDocument(kind: .openIDConfiguration, json: openID),
          MetadataDocument(kind: .authorizationServer, json: server),
        ], expectedIssuer: issuer))
  }

  /// The sandbox provider as the catalog reads it after the form saved `providers/dynamic.json`
  /// with the client id registration gave.
  static let added = ProviderSummary(
    id: "dynamic", name: "dynamic", methods: [.pkce, .device], canRevoke: nil,
    fixedRedirectPort: 49152)

  /// The form's file, `providers/dynamic.json`, as the UI names it.
  static let file = "~/.config/authtui/providers/dynamic.json"

  /// The answer to the form's `addProvider`: `dynamic` saved, registered as
  /// `registeredClientID` when registration gave one, and the catalog's `providers` after it.
  static func saved(registeredClientID: String? = nil, providers: [ProviderSummary]) -> Answer {
    .providerAdded(
      .success(
        ProviderAdded(
          id: "dynamic", file: file, registeredClientID: registeredClientID, providers: providers)))
  }
}
