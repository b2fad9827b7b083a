import AuthCore
import Foundation
import JSON
import TestSupport
import Testing

@testable import Providers

/// `ProviderAddition` and `IssuerSummary`: a provider file planned from discovered metadata,
/// and an RFC 7591 answer taken in.
@Suite struct ProviderAdditionTests {
  static let issuer = "https://id.example.com"

  @Test(arguments: [
    ("https://id.example.com/.well-known/openid-configuration", "https://id.example.com"),
    (
      "https://id.example.com/realms/w/.well-known/openid-configuration/",
      "https://id.example.com/realms/w"
    ),
    (
      "https://id.example.com/.well-known/oauth-authorization-server/tenant",
      "https://id.example.com/tenant"
    ),
    ("https://id.example.com/t/.well-known/oauth-authorization-server", "https://id.example.com/t"),
  ])
  func theAddressOfADiscoveryDocumentNamesItsIssuer(address: String, issuer: String) {
    #expect(ProviderAddition.issuerOfDocument(at: address) == issuer)
    #expect(
      ProviderAddition.issuerProblem(address) == .documentAddress(address, issuer: issuer))
  }

  @Test(arguments: [
    "https://id.example.com", "https://id.example.com/realms/w",
    "https://id.example.com/.well-known/openid-configuration-x",
    "https://.well-known/openid-configuration",
  ])
  func anIssuerIsNoDocumentsAddress(issuer: String) {
    #expect(ProviderAddition.issuerOfDocument(at: issuer) == nil)
  }

  static func metadata(_ members: [String: JSONValue] = [:], openID: Bool = true) throws
    -> OIDCProviderMetadata
  {
    var json: [String: JSONValue] = [
      "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/authorize"),
      "token_endpoint": .string(issuer + "/token"), "jwks_uri": .string(issuer + "/jwks"),
      "device_authorization_endpoint": .string(issuer + "/device"),
      "registration_endpoint": .string(issuer + "/register"),
    ]
    for (name, value) in members { json[name] = value == .null ? nil : value }
    return try OIDCProviderMetadata(
      documents: [
        MetadataDocument(kind: openID ? .openIDConfiguration : .authorizationServer, json: json)
      ], expectedIssuer: issuer)
  }

  static func addition(_ metadata: OIDCProviderMetadata, flows: [SignInFlow] = []) throws
    -> ProviderAddition
  {
    try ProviderAddition(id: "work", issuer: issuer, metadata: metadata, flows: flows)
  }

  @Test func saysWhatTheServerOffersWordForWord() throws {
    let summary = IssuerSummary(
      try Self.metadata([
        "pushed_authorization_request_endpoint": .string(Self.issuer + "/par"),
        "require_pushed_authorization_requests": .bool(true),
        "dpop_signing_alg_values_supported": .array([.string("ES256"), .string("PS256")]),
        "grant_types_supported": .array([.string("authorization_code")]),
        "end_session_endpoint": .string(Self.issuer + "/logout"),
      ]))
    #expect(
      summary.facts.map { "\($0.label): \($0.value)" } == [
        "found: OpenID Connect discovery",
        "sign-in: browser (pkce)",
        "refresh: no: sign in again when the token expires",
        "revocation: no: sign-out forgets the tokens here only",
        "sign-out page: yes",
        "registration: offered (RFC 7591)",
        "pushed requests: required (RFC 9126)",
        "DPoP: ES256, PS256 (RFC 9449)",
      ])
    // The device grant is left out: grant_types_supported does not list it.
    #expect(summary.flows == [.pkce])
  }

  @Test func plansTheScopesTheServerListsAndTheFlowsAskedFor() throws {
    let limited = try Self.addition(
      Self.metadata(["scopes_supported": .array([.string("openid"), .string("email")])]))
    #expect(limited.scopes == ["openid", "email"])
    #expect(limited.flows == [.pkce, .device])
    let plainOAuth = try Self.addition(Self.metadata(openID: false))
    #expect(plainOAuth.scopes == [])
    #expect(try Self.addition(Self.metadata(), flows: [.device]).flows == [.device])
    #expect(
      throws: ProviderAdditionError.flowNotOffered(.device, issuer: Self.issuer, offered: [.pkce])
    ) {
      try Self.addition(
        Self.metadata(["device_authorization_endpoint": .null]), flows: [.device])
    }
    #expect(throws: ProviderAdditionError.noUsableFlow(issuer: Self.issuer)) {
      try Self.addition(
        Self.metadata([
          "device_authorization_endpoint": .null,
          "code_challenge_methods_supported": .array([.string("plain")]),
        ]))
    }
  }

  @Test func takesAPublicRegistrationAndKeepsItsManagementForTheFile() throws {
    var addition = try Self.addition(Self.metadata())
    #expect(addition.needsRegistration)
    let request = addition.registrationRequest(redirectPort: 41234)
    #expect(request.redirectURIs == ["http://127.0.0.1:41234/callback"])
    try addition.adopt(
      ClientRegistrationResponse(
        clientID: "c-9", clientSecret: ClientSecret("unused"),
        registrationAccessToken: RegistrationAccessToken("rat"),
        registrationClientURI: URL(string: Self.issuer + "/register/c-9"),
        redirectURIs: ["http://127.0.0.1:41234/callback"],
        grantTypes: ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: "none"),
      redirectPort: 41234)
    #expect(addition.clientID == "c-9")
    // A public client's secret is of no use and is not written; the device grant was not
    // registered, so the device flow is dropped.
    #expect(addition.clientSecret == nil)
    #expect(addition.flows == [.pkce])
    #expect(
      OrderedJSON.object(addition.members).text
        == #"{"issuer":"https://id.example.com","client_id":"c-9","flows":["pkce"],"#
        + #""scopes":["openid","profile","email","offline_access"],"redirect_port":41234,"#
        + #""registration_client_uri":"https://id.example.com/register/c-9","#
        + #""registration_access_token":"rat"}"#)
  }

  @Test func keepsASecretOnlyForClientSecretPost() throws {
    var addition = try Self.addition(Self.metadata(), flows: [.device])
    try addition.adopt(
      ClientRegistrationResponse(
        clientID: "c-1", clientSecret: ClientSecret("s"),
        tokenEndpointAuthMethod: "client_secret_post"), redirectPort: nil)
    #expect(addition.clientSecret == ClientSecret("s"))
    #expect(
      OrderedJSON.object(addition.members).text.contains(
        #""client_secret":"s","client_secret_required":true"#))
    var basic = try Self.addition(Self.metadata())
    #expect(throws: ClientRegistrationError.unusableAuthMethod("client_secret_basic")) {
      try basic.adopt(
        ClientRegistrationResponse(
          clientID: "c-2", clientSecret: ClientSecret("s"),
          tokenEndpointAuthMethod: "client_secret_basic"), redirectPort: 1)
    }
    var moved = try Self.addition(Self.metadata())
    #expect(
      throws: ClientRegistrationError.redirectURINotRegistered("http://127.0.0.1:5000/callback")
    ) {
      try moved.adopt(
        ClientRegistrationResponse(clientID: "c-3", redirectURIs: ["http://127.0.0.1/callback"]),
        redirectPort: 5000)
    }
  }

  @Test func savesThroughTheCheckedWriterAndRefusesWhatIsThere() throws {
    let folder = try TemporaryDirectory()
    let location = ConfigurationLocation(directory: URL(fileURLWithPath: folder.file("config")))
    let addition = try Self.addition(Self.metadata())
    let url = try addition.save(in: location, replacing: false)
    #expect(url.path == folder.file("config/providers/work.json"))
    #expect(throws: ProviderAdditionError.self) {
      try addition.save(in: location, replacing: false)
    }
    _ = try addition.save(in: location, replacing: true)
    let catalog = ProviderCatalog.load(from: location)
    let entry = try #require(catalog.entry("work"))
    #expect(entry.state == .noClientID)
    #expect(entry.registration.note?.hasPrefix("ask the administrator of") == true)
    let preset = try ProviderAddition(
      id: "simkl", issuer: Self.issuer, metadata: Self.metadata())
    #expect(throws: ProviderAdditionError.presetID("simkl")) {
      try preset.save(in: location, replacing: true)
    }
    // A link where the file goes is never written through.
    let linked = try ProviderAddition(
      id: "linked", issuer: Self.issuer, metadata: Self.metadata())
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("config/providers/linked.json"), withDestinationPath: "/dev/null")
    #expect(throws: ProviderAdditionError.self) {
      try linked.save(in: location, replacing: true)
    }
  }

  /// The file `--replace` writes over holds the registration authtui made: returned, to be
  /// deleted once the new file is written, unless the new file names that very client, whose
  /// registration it then keeps managing.
  @Test func returnsTheRegistrationOfTheReplacedFileUnlessItsClientIsKept() throws {
    var old = ProviderFile()
    old.issuer = Self.issuer
    old.clientID = "c-1"
    let uri = try #require(URL(string: Self.issuer + "/register/c-1"))
    old.registrationClientURI = uri
    old.registrationAccessToken = RegistrationAccessToken("rat-1")
    var registering = try Self.addition(Self.metadata())
    #expect(
      registering.replacing(old)
        == ReplacedRegistration(
          clientID: "c-1", uri: uri, token: RegistrationAccessToken("rat-1")))
    var same = try ProviderAddition(
      id: "work", issuer: Self.issuer, metadata: Self.metadata(), clientID: "c-1")
    #expect(same.replacing(old) == nil)
    #expect(same.management?.uri == uri)
    #expect(same.management?.token == RegistrationAccessToken("rat-1"))
    var other = try ProviderAddition(
      id: "work", issuer: Self.issuer, metadata: Self.metadata(), clientID: "c-2")
    #expect(other.replacing(old)?.clientID == "c-1")
    #expect(other.management == nil)
    old.registrationAccessToken = nil
    #expect(other.replacing(old) == nil)
  }

  @Test func refusesAPresetOrAFileThereBeforeAnyRequest() throws {
    let folder = try TemporaryDirectory()
    let location = ConfigurationLocation(directory: URL(fileURLWithPath: folder.file("config")))
    try ProviderAddition.checkAvailable("work", in: location, replacing: false)
    #expect(throws: ProviderAdditionError.presetID("simkl")) {
      try ProviderAddition.checkAvailable("simkl", in: location, replacing: true)
    }
    _ = try Self.addition(Self.metadata()).save(in: location, replacing: false)
    #expect(
      throws: ProviderAdditionError.exists("work", path: folder.file("config/providers/work.json"))
    ) {
      try ProviderAddition.checkAvailable("work", in: location, replacing: false)
    }
    try ProviderAddition.checkAvailable("work", in: location, replacing: true)
    // A dangling link counts as there: the writer would refuse it.
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("config/providers/gone.json"), withDestinationPath: "/nonexistent")
    #expect(throws: ProviderAdditionError.self) {
      try ProviderAddition.checkAvailable("gone", in: location, replacing: false)
    }
    // What the write would refuse, refused with its words before a registration is asked for.
    #expect(mkfifo(folder.file("config/providers/pipe.json"), 0o600) == 0)
    #expect(
      throws: ProviderAdditionError.file(
        path: folder.file("config/providers/pipe.json"),
        reason: "it is a FIFO (named pipe); authtui writes only a regular file there: replace "
          + "it with one (or remove it), then try again")
    ) {
      try ProviderAddition.checkAvailable("pipe", in: location, replacing: true)
    }
  }

  @Test func saysWhyDiscoveryFailedWithTheFix() {
    let issuer = "http://127.0.0.1:9/dyn"
    #expect(
      ProviderAdditionError.discovery(.discoveryFailed(.invalidIssuer(issuer)), issuer: issuer)
        .description
        == "http://127.0.0.1:9/dyn is not an https URL (http only on 127.0.0.1 or localhost) "
        + "without query or fragment; give the server's issuer, for example "
        + "https://id.example.com")
    #expect(
      ProviderAdditionError.discovery(
        .discoveryFailed(.issuerMismatch(expected: issuer, received: issuer + "/")), issuer: issuer
      ).description
        == "the server at http://127.0.0.1:9/dyn names its issuer http://127.0.0.1:9/dyn/; give "
        + "exactly that")
    #expect(
      ProviderAdditionError.discovery(
        .discoveryFailed(
          .documentNotFound(url: issuer + "/.well-known/openid-configuration", status: 404)),
        issuer: issuer
      ).description
        == "http://127.0.0.1:9/dyn publishes neither OpenID discovery nor RFC 8414 metadata "
        + "(http://127.0.0.1:9/dyn/.well-known/openid-configuration answered HTTP 404); check "
        + "the issuer URL: the server's documentation names it")
  }

  @Test func suggestsAnIDFromTheIssuersHost() {
    func suggested(_ issuer: String, avoiding taken: Set<ProviderID> = []) -> String {
      ProviderAddition.suggestedID(forIssuer: issuer, avoiding: taken).rawValue
    }
    #expect(suggested("https://id.example.com") == "example")
    #expect(suggested("https://login.corp-sso.example.org/realms/Work") == "corp-sso")
    #expect(suggested("https://keycloak.example.org/realms/work") == "keycloak")
    #expect(suggested("https://Auth.Example.COM/") == "example")
    #expect(suggested("http://127.0.0.1:41234/dynamic") == "dynamic")
    #expect(suggested("http://127.0.0.1:41234") == "local")
    #expect(suggested("http://localhost:8080/realms/My_Realm") == "my-realm")
    #expect(suggested("not a url") == "provider")
    // A preset's id, or one in use, gets a number.
    #expect(suggested("https://accounts.google.com") == "google-2")
    #expect(suggested("https://id.example.com", avoiding: ["example", "example-2"]) == "example-3")
  }
}
