import Foundation
import JSON
import Testing

@testable import AuthCore

/// Dynamic client registration (RFC 7591) and its deletion (RFC 7592) as protocol values.
@Suite struct ClientRegistrationTests {
  let transport = FakeTransport()
  let endpoint = TestProviders.url("/register")
  var registrar: ClientRegistrar { ClientRegistrar(transport: transport, requestTimeout: 11) }

  var request: ClientRegistrationRequest {
    .authtui(
      flows: [.pkce, .device], redirectURI: "http://127.0.0.1:43123/callback",
      scopes: ["openid", "offline_access"])
  }

  @Test func registersAsANativePublicClientWithTheGrantsItUses() throws {
    #expect(
      request.json.text
        == #"{"redirect_uris":["http://127.0.0.1:43123/callback"],"#
        + #""token_endpoint_auth_method":"none","grant_types":["authorization_code","#
        + #""urn:ietf:params:oauth:grant-type:device_code","refresh_token"],"#
        + #""response_types":["code"],"client_name":"authtui","scope":"openid offline_access","#
        + #""software_id":"5b0d3f5e-2f4a-4c55-9c1e-6a7f1d2b8e41","#
        + #""software_version":"\#(AuthTUIVersion.current)","application_type":"native"}"#)
    let deviceOnly = ClientRegistrationRequest.authtui(
      flows: [.device], redirectURI: "http://127.0.0.1:1/callback", scopes: [])
    #expect(
      deviceOnly.json.text.hasPrefix(
        #"{"token_endpoint_auth_method":"none","grant_types":["#
          + #""urn:ietf:params:oauth:grant-type:device_code","refresh_token"],"#
          + #""response_types":[],"client_name":"authtui","software_id""#))
  }

  @Test func postsTheMetadataAsJSONAndReadsTheClientInformation() async throws {
    await transport.enqueue(
      "/register",
      FakeTransport.json(
        #"{"client_id":"c-1","client_id_issued_at":1712345678,"client_secret":"s3cret","#
          + #""client_secret_expires_at":0,"registration_access_token":"rat-1","#
          + #""registration_client_uri":"https://provider.test/register/c-1","#
          + #""redirect_uris":["http://127.0.0.1:43123/callback"],"#
          + #""grant_types":["authorization_code","refresh_token"],"#
          + #""token_endpoint_auth_method":"client_secret_post","scope":"openid email"}"#,
        status: 201))
    let response = try await registrar.register(request, at: endpoint)
    #expect(response.clientID == "c-1")
    #expect(response.clientSecret == ClientSecret("s3cret"))
    #expect(response.clientSecretExpiresAt == nil)
    #expect(response.clientIDIssuedAt == Date(timeIntervalSince1970: 1_712_345_678))
    #expect(response.registrationAccessToken == RegistrationAccessToken("rat-1"))
    #expect(response.registrationClientURI == TestProviders.url("/register/c-1"))
    #expect(response.grantTypes == ["authorization_code", "refresh_token"])
    #expect(response.tokenEndpointAuthMethod == "client_secret_post")
    #expect(response.scopes == ["openid", "email"])
    // The secrets never print.
    #expect(!"\(response)".contains("s3cret") && !"\(response)".contains("rat-1"))
    let sent = try #require(await transport.requests.first)
    #expect(sent.method == .post)
    #expect(sent.header("Content-Type") == "application/json")
    #expect(sent.timeout == 11)
    #expect(sent.bodyText == request.json.text)
  }

  @Test(arguments: [
    (
      #"{"error":"invalid_redirect_uri","error_description":"no loopback"}"#, 400,
      ClientRegistrationError.refused(code: "invalid_redirect_uri", description: "no loopback"),
      "The server refused the loopback redirect URI authtui registers (invalid_redirect_uri: "
        + "no loopback); register a public (native) client with the server's administrator and "
        + "give authtui its client id with that redirect URI allowed."
    ),
    (
      #"{"error":"invalid_client_metadata","error_description":"vendor_tenant is required"}"#,
      400,
      .refused(code: "invalid_client_metadata", description: "vendor_tenant is required"),
      "The server refused authtui's registration (invalid_client_metadata: vendor_tenant is "
        + "required): it wants client details authtui does not send; register a public "
        + "(native) client with the server's administrator and give authtui its client id."
    ),
    (
      #"{"error":"unapproved_software_statement"}"#, 400,
      .refused(code: "unapproved_software_statement", description: nil),
      "The server registers only software with a statement it approved "
        + "(unapproved_software_statement); register a public (native) client with the "
        + "server's administrator and give authtui its client id."
    ),
    (
      #"{"error":"invalid_token"}"#, 401, .initialAccessTokenRequired(status: 401),
      "The server's registration endpoint wants an initial access token (HTTP 401), which "
        + "authtui does not have; register a public (native) client with the server's "
        + "administrator and give authtui its client id."
    ),
    (
      #"{"client_secret":"x"}"#, 201, .malformedResponse("it has no client_id"),
      "The server's answer to authtui's registration was unusable (it has no client_id); "
        + "register a public (native) client with the server's administrator and give authtui "
        + "its client id."
    ),
  ])
  func saysWhyARegistrationWasRefusedAndWhatToDo(
    body: String, status: Int, expected: ClientRegistrationError, message: String
  ) async throws {
    await transport.enqueue("/register", FakeTransport.json(body, status: status))
    let error = await #expect(throws: AuthError.self) {
      try await registrar.register(request, at: endpoint)
    }
    #expect(error == .registrationFailed(expected))
    #expect(error?.message == message)
    #expect(error?.exitCode == 7)
  }

  @Test func refusesAManagementAddressItCouldNotSendTheTokenToSafely() async throws {
    await transport.enqueue(
      "/register",
      FakeTransport.json(
        #"{"client_id":"c-1","registration_access_token":"rat","registration_client_uri":"http://provider.test/c"}"#,
        status: 201))
    let error = await #expect(throws: AuthError.self) {
      try await registrar.register(request, at: endpoint)
    }
    guard case .registrationFailed(.malformedResponse) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
  }

  @Test func deletesTheRegistrationWithItsAccessToken() async throws {
    await transport.enqueue("/register/c-1", .success(TransportResponse(status: 204)))
    try await registrar.delete(
      at: TestProviders.url("/register/c-1"), accessToken: RegistrationAccessToken("rat-1"))
    let sent = try #require(await transport.requests.first)
    #expect(sent.method == .delete)
    #expect(sent.header("Authorization") == "Bearer rat-1")
    #expect(sent.timeout == 11)
    await transport.enqueue("/register/c-1", FakeTransport.json("{}", status: 401))
    await #expect(throws: AuthError.registrationFailed(.deletionRefused(status: 401))) {
      try await registrar.delete(
        at: TestProviders.url("/register/c-1"), accessToken: RegistrationAccessToken("rat-1"))
    }
  }
}
