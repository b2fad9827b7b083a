import AuthCore
import Foundation
import JSON
import Sandbox
import TestSupport
import Testing

/// The browser flow against the sandbox provider: real consent pages answered by a scripted
/// person, the real loopback listener, real HTTP to the token endpoint.
@Suite(.sandboxHarness) struct SandboxBrowserFlowTests {
  /// The harness the suite's trait started for this test.
  var harness: SandboxHarness { .current }

  static let wrongVerifier = String(repeating: "w", count: 43)

  /// A transport that sends the exchange (the one POST) with `wrongVerifier`.
  static func wrongVerifierTransport() -> InterceptingTransport {
    InterceptingTransport { request in
      request.method == .post
        ? request.settingJSONMember("code_verifier", to: Self.wrongVerifier) : request
    }
  }

  /// A transport that sets the provider's clock `seconds` off just before the exchange.
  static func movingTheClock(of sandbox: SandboxServer, by seconds: TimeInterval)
    -> InterceptingTransport
  {
    InterceptingTransport { request in
      if request.method == .post { await sandbox.setClockOffset(seconds: seconds) }
      return request
    }
  }

  @Test func signsInToEveryBrowserProfile() async throws {
    for configuration in [harness.simkl, harness.hivesigner, harness.muhajir, harness.oidc] {
      let (result, page) = try await harness.signIn(harness.client(configuration))
      let tokens = try result.get()
      #expect(!tokens.accessToken.isEmpty, "\(configuration.id)")
      #expect(page.contains("You are signed in to \(configuration.name)."))
      #expect((tokens.idToken != nil) == configuration.scopes.contains("openid"))
    }
    #expect(await harness.server.stats()[.exchanges] == 4)
  }

  @Test func readsHivesignersUsernameFromTheExchangeAnswer() async throws {
    let (result, _) = try await harness.signIn(harness.client(harness.hivesigner))
    let tokens = try result.get()
    #expect(tokens.additionalParameters["username"] == .string("alice"))
    #expect(tokens.refreshToken == nil)
    #expect(tokens.expiresIn == 604_800)
  }

  @Test func simklCodeIsConsumedByAnExchangeWithAWrongVerifier() async throws {
    let transport = Self.wrongVerifierTransport()
    let (result, page) = try await harness.signIn(
      harness.client(harness.simkl, transport: transport))
    #expect(result == .failure(.pkceVerificationFailed(description: "PKCE verification failed")))
    #expect(page.contains("Sign-in not finished"))

    // The same code with the right verifier, exactly as the client built the request: gone.
    let original = try #require(await transport.built.last)
    #expect(original.bodyParameters["code_verifier"] != Self.wrongVerifier)
    let retry = try await transport.resend(original)
    #expect(retry.status == 400)
    #expect(String(decoding: retry.body, as: UTF8.self).contains("already used"))
    let stats = await harness.server.stats()
    #expect(stats[.exchanges] == 0)
    #expect(stats[.failedExchanges] == 2)
  }

  @Test func hivesignerWrongVerifierLeavesTheCodeForTheRightOne() async throws {
    let transport = Self.wrongVerifierTransport()
    let (result, _) = try await harness.signIn(
      harness.client(harness.hivesigner, transport: transport))
    guard case .failure(.pkceVerificationFailed(let description)) = result else {
      Issue.record("expected a refused verifier, got \(result)")
      return
    }
    #expect(description?.contains("code_verifier") == true)

    let original = try #require(await transport.built.last)
    let retry = try await transport.resend(original)
    #expect(retry.status == 200)
    let json = try #require(JSONValue.object(from: retry.body))
    #expect(json["username"] == .string("alice"))
    #expect(await harness.server.stats()[.exchanges] == 1)
  }

  @Test func hivesignerRefusesACodeOlderThanFifteenMinutes() async throws {
    let sandbox = harness.server
    // The provider's clock jumps 15 minutes and 1 second just before the exchange.
    let transport = Self.movingTheClock(of: sandbox, by: 15 * 60 + 1)
    let (result, _) = try await harness.signIn(
      harness.client(harness.hivesigner, transport: transport))
    #expect(result == .failure(.authorizationCodeExpired))
  }

  @Test func hivesignerRefusesACodeDatedInTheFuture() async throws {
    let sandbox = harness.server
    let transport = Self.movingTheClock(of: sandbox, by: -(5 * 60 + 30))
    let (result, _) = try await harness.signIn(
      harness.client(harness.hivesigner, transport: transport))
    #expect(result == .failure(.authorizationCodeFromTheFuture))
  }

  @Test func aDeclinedConsentEndsTheSignInAsDenied() async throws {
    let (result, page) = try await harness.signIn(
      harness.client(harness.hivesigner), person: SandboxHarness.person(.deny))
    #expect(result == .failure(.accessDenied(description: nil)))
    #expect(page.contains("declined at the provider"))
  }

  @Test func simklSilentDenialEndsAtTheDeadlineWithNothingReturned() async throws {
    let clock = ManualClock()
    let origin = await clock.now()
    var simkl = harness.simkl
    simkl.loginTimeout = 300  // Simkl's own advice: about five minutes.
    let attempt = try await AuthorizationCodeSignIn.start(
      client: harness.client(simkl, clock: clock))
    await harness.registerSimklRedirect(attempt.redirectURI)
    let visit = await SandboxHarness.person(.deny).visit(
      await attempt.browserAddress().absoluteString)
    #expect(visit.finalURL.hasSuffix(SandboxPaths.Simkl.home))
    #expect(await attempt.currentProgress.phase == .waitingForBrowser)

    #expect(await clock.advanceToNextDeadline() == origin.addingTimeInterval(300))
    let error = await #expect(throws: AuthError.self) { _ = try await attempt.tokens() }
    #expect(error == .noAnswer(waited: 300))
    #expect(error?.message.hasPrefix("No answer from the provider") == true)
    let stats = await harness.server.stats()
    #expect(stats[.denials] == 1)
    #expect(stats[.exchanges] + stats[.failedExchanges] == 0)
    #expect(await !listenerIsOpen(attempt))
  }

  @Test func aRedirectWithAnotherStateIsRefusedAndTheRealOneStillSignsIn() async throws {
    let attempt = try await AuthorizationCodeSignIn.start(client: harness.client(harness.oidc))
    // The same request with a forged state: the provider sends it back as it was given.
    let request = await attempt.request
    let forged = request.url.absoluteString.replacingOccurrences(
      of: "state=\(request.state)", with: "state=forged-state")
    let stray = await SandboxHarness.person().visit(forged)
    #expect(stray.finalStatus == 400)
    #expect(stray.finalBody.contains("did not belong to this sign-in"))
    #expect(await attempt.currentProgress.lastIgnoredRedirect == .stateMismatch)

    let real = await SandboxHarness.person().visit(await attempt.browserAddress().absoluteString)
    #expect(real.finalBody.contains("You are signed in"))
    #expect(try await attempt.tokens().idToken != nil)
    let stats = await harness.server.stats()
    #expect(stats[.authorizations] == 2)
    #expect(stats[.exchanges] == 1)
  }

  @Test func aListenerFloodedWithAHundredGarbageConnectionsStillTakesTheRealRedirect()
    async throws
  {
    let attempt = try await AuthorizationCodeSignIn.start(client: harness.client(harness.oidc))
    let port = try #require(URL(string: attempt.redirectURI)?.port)
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<100 {
        group.addTask {
          let bytes =
            index.isMultiple(of: 2) ? Array("\u{16}\u{3}\u{1}garbage \(index)\r\n\r\n".utf8) : []
          _ = await RawHTTPClient.exchange(port: UInt16(port), bytes: bytes, timeout: 0.3)
        }
      }
    }
    let visit = await SandboxHarness.person().visit(await attempt.browserAddress().absoluteString)
    #expect(visit.finalBody.contains("You are signed in"))
    #expect(try await attempt.tokens().refreshToken != nil)
  }

  @Test(arguments: [
    (SandboxFault.Kind.status500, AuthError.serverError(status: 500)),
    (SandboxFault.Kind.garbage, AuthError.nonJSONResponse(status: 200)),
    (SandboxFault.Kind.drop, nil),
  ])
  func aBrokenTokenEndpointGivesItsTypedError(fault: SandboxFault.Kind, expected: AuthError?)
    async throws
  {
    await harness.server.inject(SandboxFault(pathPrefix: SandboxPaths.OIDC.token, kind: fault))
    let (result, page) = try await harness.signIn(harness.client(harness.oidc))
    // A dropped connection names the sandbox's address, its port included.
    let dropped = AuthError.transport(.connectionLost(host: "127.0.0.1:\(harness.port)"))
    #expect(result == .failure(expected ?? dropped))
    #expect(page.contains("Sign-in not finished"))
    #expect(page.contains("still waiting"))
    #expect(await harness.server.stats()[.faults] == 1)
  }
}
