import AuthCore
import Foundation
import Sandbox
import TestSupport
import Testing

/// Pushed authorization requests (RFC 9126) against the sandbox's `oidc` profile over real
/// HTTP: the sign-in found through discovery, the push the sandbox saw, the browser's URL
/// without the request's secrets, a refused push, and `par` settings that cannot be met.
@Suite(.sandboxHarness) struct SandboxPushedAuthorizationTests {
  var harness: SandboxHarness { .current }

  func offerPAR(_ setting: ProfileSettings.Extension = .offered, lifetime: Int = 60) async {
    var settings = await harness.server.settings(for: .oidc)
    settings.pushedAuthorization = setting
    settings.pushedRequestLifetime = lifetime
    await harness.server.setSettings(settings, for: .oidc)
  }

  func provider(_ change: (inout ProviderConfiguration) -> Void = { _ in }) -> OIDCProvider {
    var configuration = SandboxOpenIDTests.issuerOnly(harness)
    change(&configuration)
    return OIDCProvider(configuration: configuration, transport: URLSessionTransport())
  }

  @Test func signsInThroughAPushWhoseBrowserURLCarriesNoStateChallengeOrNonce() async throws {
    await offerPAR()
    let provider = provider()
    let client = try await provider.client()
    #expect(
      client.configuration.pushedAuthorizationRequestEndpoint
        == harness.endpoint(SandboxPaths.OIDC.pushedAuthorization))
    let attempt = try await AuthorizationCodeSignIn.start(client: client)
    #expect(await harness.server.stats()[.pushedRequests] == 1)

    let url = try #require(await attempt.currentProgress.authorizationURL)
    #expect(url.path == SandboxPaths.OIDC.authorize)
    let query = url.queryItems
    #expect(
      Set(query.keys) == ["response_type", "client_id", "redirect_uri", "scope", "request_uri"])
    for secret in ["state", "code_challenge", "code_challenge_method", "nonce"] {
      #expect(query[secret] == nil, "\(secret)")
    }
    #expect(query["request_uri"]?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)

    let visit = await SandboxHarness.person().visit(await attempt.browserAddress().absoluteString)
    #expect(visit.finalBody.contains("You are signed in"), "\(visit)")
    let tokens = try await attempt.tokens()
    // The nonce travelled in the push only, and still came back in the id_token.
    let idToken = try await provider.validateIDToken(in: tokens, nonce: await attempt.request.nonce)
    #expect(idToken?.subject == "alice")
    let stats = await harness.server.stats()
    #expect(stats[.exchanges] == 1)
    #expect(stats[.pushedRequests] == 1)
  }

  @Test func aRefusedPushEndsWithTheProvidersMessage() async throws {
    await offerPAR()
    let provider = provider { $0.scopes.append("photos") }
    let error = await #expect(throws: AuthError.self) {
      try await AuthorizationCodeSignIn.start(client: try await provider.client())
    }
    #expect(
      error
        == .pushedAuthorizationRejected(
          OAuthError(
            code: .invalidScope,
            errorDescription:
              "Unknown scope `photos`; offered: openid profile email offline_access."
          )))
    #expect(
      error?.message
        == "The provider refused the sign-in request it was sent first (invalid_scope: Unknown "
        + "scope `photos`; offered: openid profile email offline_access.); check the client id, "
        + "scopes and redirect settings in the provider's configuration, then start again.")
    let stats = await harness.server.stats()
    #expect(stats[.refusedPushedRequests] == 1)
    #expect(stats[.pushedRequests] == 0)
  }

  @Test func aRefusalsTextReachesTheUserCleaned() async throws {
    await offerPAR()
    await harness.server.inject(
      SandboxFault(
        pathPrefix: SandboxPaths.OIDC.pushedAuthorization,
        kind: .answer(
          status: 400,
          body:
            #"{"error":"invalid_request","error_description":"no\u001b]0;owned\u0007 \u202egpj.exe"}"#
        )))
    let provider = provider()
    let error = await #expect(throws: AuthError.self) {
      try await AuthorizationCodeSignIn.start(client: try await provider.client())
    }
    let message = try #require(error?.message)
    #expect(message.contains(#"(invalid_request: no\u{1B}]0;owned\u{7} \u{202E}gpj.exe)"#))
    #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
  }

  @Test func parRequiredWithoutAnEndpointFailsBeforeAnyBrowser() async throws {
    let provider = provider { $0.pushedAuthorization = .required }
    await #expect(
      throws: AuthError.pushedAuthorizationUnavailable(
        "Sandbox OpenID Provider", requiredByServer: false)
    ) { try await AuthorizationCodeSignIn.start(client: try await provider.client()) }
    let stats = await harness.server.stats()
    #expect(stats[.authorizations] == 0)
    #expect(stats[.pushedRequests] == 0)
  }

  @Test func aServerTakingOnlyPushedRequestsIsPushedToOrRefusedWithParOff() async throws {
    await offerPAR(.required)
    let off = provider { $0.pushedAuthorization = .off }
    await #expect(throws: AuthError.pushedAuthorizationRequiredByServer("Sandbox OpenID Provider"))
    {
      try await AuthorizationCodeSignIn.start(client: try await off.client())
    }
    let attempt = try await AuthorizationCodeSignIn.start(client: try await provider().client())
    _ = await SandboxHarness.person().visit(await attempt.browserAddress().absoluteString)
    #expect(try await attempt.tokens().accessToken.isEmpty == false)
    #expect(await harness.server.stats()[.pushedRequests] == 1)
  }

  @Test func aRestartPushesItsFreshRequestAnew() async throws {
    await offerPAR()
    let attempt = try await AuthorizationCodeSignIn.start(client: try await provider().client())
    let first = try #require(await attempt.currentProgress.authorizationURL)
    let address = await attempt.browserAddress()
    let port = UInt16(try #require(address.port))
    for _ in 0..<2 { _ = await RawHTTPClient.request("GET", address.path, port: port) }
    try await waitUntil("the attempt restarted") { await attempt.currentProgress.restarts == 1 }
    let second = try #require(await attempt.currentProgress.authorizationURL)
    #expect(second.queryItems["request_uri"] != first.queryItems["request_uri"])
    #expect(await harness.server.stats()[.pushedRequests] == 2)
    _ = await SandboxHarness.person().visit(await attempt.browserAddress().absoluteString)
    #expect(try await attempt.tokens().accessToken.isEmpty == false)
  }

  /// The reference lives `par_lifetime` seconds, less than the countdown: opening the browser
  /// after that pushes again, and the sign-in goes through.
  @Test func anExpiredReferenceIsPushedAgainWhenTheBrowserIsOpened() async throws {
    await offerPAR(lifetime: 30)
    let clock = ManualClock(now: harness.clockOrigin)
    let configuration = try await provider().configuration()
    let attempt = try await AuthorizationCodeSignIn.start(
      client: harness.client(configuration, clock: clock))
    _ = await attempt.browserAddress()
    await clock.advance(by: 45)
    await harness.server.setClockOffset(seconds: 45)
    let address = await attempt.browserAddress()
    #expect(await harness.server.stats()[.pushedRequests] == 2)
    let visit = await SandboxHarness.person().visit(address.absoluteString)
    guard visit.finalBody.contains("You are signed in") else {
      attempt.cancel()
      Issue.record("the browser did not sign in: \(visit)")
      return
    }
    #expect(try await attempt.tokens().accessToken.isEmpty == false)
  }
}
