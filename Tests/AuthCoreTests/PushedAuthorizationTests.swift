import AuthCore
import Foundation
import JSON
import Loopback
import TestSupport
import Testing

/// Pushed authorization requests (RFC 9126) over a scripted PAR endpoint: what is pushed, what
/// the browser's URL keeps, a refused or malformed answer, and a reference pushed again when it
/// has expired or the attempt restarts.
@Suite struct PushedAuthorizationTests {
  let clock = ManualClock()
  let transport = FakeTransport()

  static let requestURI = "urn:ietf:params:oauth:request_uri:first"

  /// The OpenID test provider, its server publishing a PAR endpoint.
  static var configuration: ProviderConfiguration {
    var configuration = TestProviders.oidc
    configuration.pushedAuthorizationRequestEndpoint = TestProviders.url("/par")
    return configuration
  }

  static func answer(_ uri: String = requestURI, expiresIn: Int = 60) -> FakeTransport.Reply {
    FakeTransport.json(#"{"request_uri":"\#(uri)","expires_in":\#(expiresIn)}"#, status: 201)
  }

  func start(_ configuration: ProviderConfiguration = Self.configuration) async throws
    -> AuthorizationCodeSignIn
  {
    try await AuthorizationCodeSignIn.start(
      client: ProviderClient(configuration: configuration, transport: transport, clock: clock))
  }

  @Test func pushesEveryParameterAndGivesTheBrowserOnlyTheReference() async throws {
    var configuration = Self.configuration
    configuration.extraAuthorizeParameters = ["prompt": "login"]
    configuration.extraRequestParameters = ["tenant": "t1", "state": "not-here"]
    await transport.enqueue("/par", Self.answer())
    let attempt = try await start(configuration)
    let request = await attempt.request
    let pushes = await transport.requests(to: "/par")
    #expect(pushes.count == 1)
    let push = try #require(pushes.first)
    #expect(push.method == .post)
    #expect(push.header("Content-Type") == "application/x-www-form-urlencoded")
    let body = push.bodyParameters
    #expect(
      Set(body.keys) == [
        "response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge",
        "code_challenge_method", "nonce", "prompt", "tenant",
      ])
    #expect(body["state"] == request.state)
    #expect(body["nonce"] == request.nonce)
    #expect(body["code_challenge"] == request.codeChallenge)
    #expect(body["prompt"] == "login")
    #expect(body["tenant"] == "t1")
    #expect(body["redirect_uri"] == attempt.redirectURI)

    let url = request.url
    #expect(url.path == "/authorize")
    #expect(
      url.queryItems == [
        "response_type": "code", "client_id": "abc123", "redirect_uri": attempt.redirectURI,
        "scope": "openid profile offline_access", "request_uri": Self.requestURI, "tenant": "t1",
      ])
    #expect(await attempt.currentProgress.authorizationURL == url)
    #expect(request.description.hasSuffix(", pushed)"))
    attempt.cancel()
  }

  @Test func aProviderOutsideOpenIDGetsOnlyTheClientAndTheReference() async throws {
    var configuration = Self.configuration
    configuration.scopes = ["read"]
    await transport.enqueue("/par", Self.answer())
    let attempt = try await start(configuration)
    #expect(
      await attempt.request.url.queryItems == [
        "client_id": "abc123", "request_uri": Self.requestURI,
      ])
    attempt.cancel()
  }

  @Test func pushesTheClientSecretAndTheExtrasWhereTheConfigurationSaysSo() async throws {
    var configuration = Self.configuration
    configuration.clientSecret = ClientSecret("installed-app-secret")
    configuration.extraRequestParameters = ["tenant": "t1"]
    configuration.extraRequestParametersLocation = .query
    await transport.enqueue("/par", Self.answer())
    let attempt = try await start(configuration)
    let push = try #require(await transport.requests(to: "/par").first)
    #expect(push.bodyParameters["client_secret"] == "installed-app-secret")
    #expect(push.bodyParameters["tenant"] == nil)
    #expect(push.url.query == "tenant=t1")
    attempt.cancel()
  }

  @Test func aRefusedPushEndsTheStartWithTheServersError() async throws {
    await transport.enqueue(
      "/par",
      FakeTransport.json(
        #"{"error":"invalid_request","error_description":"redirect_uri not registered"}"#,
        status: 400))
    await #expect(
      throws: AuthError.pushedAuthorizationRejected(
        OAuthError(code: .invalidRequest, errorDescription: "redirect_uri not registered"))
    ) { try await start() }
  }

  @Test func anAnswerWithoutARequestURIIsRefused() async throws {
    await transport.enqueue("/par", FakeTransport.json(#"{"expires_in":60}"#, status: 201))
    await #expect(
      throws: AuthError.malformedResponse("the pushed authorization answer has no request_uri")
    ) { try await start() }
  }

  @Test func aParRequiredProviderWithoutEndpointFailsBeforeTheListenerStarts() async throws {
    // The fixed port is taken: had the listener started first, this would be portInUse.
    let taken = try LoopbackServer(port: 0, configuration: .callback) { _ in .text("", status: 404)
    }
    var configuration = TestProviders.oidc
    configuration.pushedAuthorization = .required
    configuration.redirectPort = taken.port
    await #expect(
      throws: AuthError.pushedAuthorizationUnavailable("Work SSO", requiredByServer: false)
    ) {
      try await start(configuration)
    }
    #expect(await transport.requests.isEmpty)
    await taken.stop()
  }

  @Test func pushesTheRequestAgainWhenItsReferenceHasExpired() async throws {
    await transport.enqueue(
      "/par", Self.answer(expiresIn: 60),
      Self.answer("urn:ietf:params:oauth:request_uri:second", expiresIn: 60))
    let attempt = try await start()
    let first = await attempt.browserAddress()
    await clock.advance(by: 30)
    let second = await attempt.browserAddress()
    #expect(await transport.requests(to: "/par").count == 1)
    #expect(second != first)
    // Within the margin before the reference expires: pushed again.
    await clock.advance(by: 29)
    let third = await attempt.browserAddress()
    let pushes = await transport.requests(to: "/par")
    #expect(pushes.count == 2)
    // The same request (its state, PKCE and nonce) under a new reference.
    #expect(pushes[0].bodyParameters == pushes[1].bodyParameters)
    let renewed = await attempt.request.url
    #expect(renewed.queryItems["request_uri"] == "urn:ietf:params:oauth:request_uri:second")
    let progress = await attempt.currentProgress
    #expect(progress.authorizationURL == renewed)
    #expect(progress.browserURL == third)
    #expect(third != second)
    attempt.cancel()
  }

  @Test func aFailedPushAgainLeavesTheAttemptWaitingAndSaysSo() async throws {
    await transport.enqueue(
      "/par", Self.answer(expiresIn: 10), FakeTransport.raw("busy", status: 503))
    let attempt = try await start()
    _ = await attempt.browserAddress()
    await clock.advance(by: 10)
    _ = await attempt.browserAddress()
    let progress = await attempt.currentProgress
    #expect(progress.notice == .pushFailed(.serverError(status: 503)))
    #expect(progress.phase == .waitingForBrowser)
    #expect(
      progress.notice?.message.hasPrefix(
        "The sign-in request expired at the provider and could not be sent again") == true)
    attempt.cancel()
  }

  @Test func aRestartPushesItsFreshRequest() async throws {
    await transport.enqueue(
      "/par", Self.answer(), Self.answer("urn:ietf:params:oauth:request_uri:second"))
    let attempt = try await start()
    let address = await attempt.browserAddress()
    let port = UInt16(try #require(address.port))
    for _ in 0..<2 { _ = await RawHTTPClient.request("GET", address.path, port: port) }
    try await waitUntil("the attempt restarted") { await attempt.currentProgress.restarts == 1 }
    let pushes = await transport.requests(to: "/par")
    #expect(pushes.count == 2)
    #expect(pushes[0].bodyParameters["state"] != pushes[1].bodyParameters["state"])
    #expect(pushes[1].bodyParameters["state"] == (await attempt.request.state))
    #expect(
      await attempt.currentProgress.authorizationURL?.queryItems["request_uri"]
        == "urn:ietf:params:oauth:request_uri:second")
    attempt.cancel()
  }

  @Test func readsAPushAnswersLifetimeWithinBounds() throws {
    func lifetime(_ members: String) throws -> TimeInterval {
      let json = try #require(
        JSONValue.object(from: Data(#"{"request_uri":"urn:x"\#(members)}"#.utf8)))
      return try PushedAuthorizationResponse(json: json).expiresIn
    }
    #expect(try lifetime(#","expires_in":90"#) == 90)
    #expect(try lifetime("") == 60)
    #expect(try lifetime(#","expires_in":0"#) == 60)
    #expect(try lifetime(#","expires_in":"soon""#) == 60)
    #expect(try lifetime(#","expires_in":1e9"#) == 3600)
  }

  @Test(arguments: [#"{"request_uri":"a b"}"#, #"{"request_uri":""}"#, #"{"request_uri":7}"#])
  func refusesARequestURIThatIsNone(text: String) throws {
    let json = try #require(JSONValue.object(from: Data(text.utf8)))
    #expect(throws: AuthError.self) { try PushedAuthorizationResponse(json: json) }
  }
}
