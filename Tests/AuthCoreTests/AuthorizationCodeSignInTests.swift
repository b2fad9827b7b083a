import AuthCore
import Foundation
import Loopback
import TestSupport
import Testing

/// The browser flow through the real loopback listener (real sockets), with a scripted token
/// endpoint and a manual clock.
@Suite struct AuthorizationCodeSignInTests {
  let clock = ManualClock()
  let transport = FakeTransport()
  static let tokens = FakeTransport.json(
    #"{"access_token":"at","token_type":"bearer","expires_in":3600}"#)

  func start(_ configuration: ProviderConfiguration = TestProviders.oidc) async throws
    -> AuthorizationCodeSignIn
  {
    let client = ProviderClient(configuration: configuration, transport: transport, clock: clock)
    return try await AuthorizationCodeSignIn.start(client: client)
  }

  func port(_ attempt: AuthorizationCodeSignIn) throws -> UInt16 {
    UInt16(try #require(URL(string: attempt.redirectURI)?.port))
  }

  /// The attempt's outcome, once a redirect has reached it. On the manual clock an attempt
  /// that got none would wait forever, so that is a test failure and the attempt is cancelled.
  func outcome(_ attempt: AuthorizationCodeSignIn) async throws -> TokenResponse {
    if await attempt.currentProgress.phase == .waitingForBrowser {
      Issue.record("no redirect reached the attempt")
      attempt.cancel()
    }
    return try await attempt.tokens()
  }

  /// Plays the browser arriving at the redirect URI with `query` (`STATE` is replaced by the
  /// attempt's state).
  func redirect(_ attempt: AuthorizationCodeSignIn, _ query: String) async throws -> String {
    let state = await attempt.request.state
    let target = "/callback?" + query.replacingOccurrences(of: "STATE", with: state)
    return await RawHTTPClient.get(target, port: try port(attempt))
  }

  @Test func exchangesTheCodeFromTheRedirectAndSendsTheBrowserBackToTheTerminal() async throws {
    await transport.enqueue("/token", Self.tokens)
    let attempt = try await start()
    defer { attempt.cancel() }
    let first = await attempt.currentProgress
    #expect(first.phase == .waitingForBrowser)
    #expect(first.authorizationURL == (await attempt.request.url))
    #expect(first.deadline == (await clock.now()).addingTimeInterval(300))
    #expect(attempt.redirectURI.hasPrefix("http://127.0.0.1:"))

    let page = try await redirect(
      attempt, "code=the-code&state=STATE&iss=https%3A%2F%2Fprovider.test")
    #expect(RawHTTPClient.status(of: page) == 200)
    #expect(page.contains("You are signed in to Work SSO. Return to the terminal"))
    #expect(!page.contains("the-code"))
    #expect(try await outcome(attempt).accessToken == "at")
    let exchanges = await transport.requests(to: "/token")
    #expect(exchanges.map { $0.bodyParameters["code"] } == ["the-code"])
    #expect(exchanges.first?.bodyParameters["code_verifier"] != nil)
    #expect(await !listenerIsOpen(attempt))
  }

  @Test func answersStraysAndForeignRedirectsWithoutEndingTheWait() async throws {
    await transport.enqueue("/token", Self.tokens)
    let attempt = try await start()
    defer { attempt.cancel() }
    let port = try port(attempt)
    #expect(RawHTTPClient.status(of: await RawHTTPClient.get("/favicon.ico", port: port)) == 404)
    #expect(
      RawHTTPClient.status(
        of: await RawHTTPClient.postForm("/callback", port: port, body: "code=x"))
        == 405)
    let garbage = await RawHTTPClient.exchange(
      port: port, bytes: Array("\u{1}\u{2}junk\r\n\r\n".utf8))
    #expect(RawHTTPClient.status(of: garbage) == 400)
    let forged = try await redirect(attempt, "code=stolen&state=forged")
    #expect(RawHTTPClient.status(of: forged) == 400)
    #expect(forged.contains("The sign-in in the terminal is still waiting."))
    let codeless = try await redirect(attempt, "state=STATE")
    #expect(RawHTTPClient.status(of: codeless) == 400)

    let progress = await attempt.currentProgress
    #expect(progress.phase == .waitingForBrowser)
    #expect(progress.ignoredRedirects == 2)
    #expect(
      progress.lastIgnoredRedirect == .malformedRedirect("it has neither a code nor an error"))

    let page = try await redirect(attempt, "code=real&state=STATE")
    #expect(page.contains("You are signed in"))
    #expect(try await outcome(attempt).accessToken == "at")
    #expect(await transport.requests(to: "/token").map { $0.bodyParameters["code"] } == ["real"])
  }

  @Test func stillAcceptsTheRealRedirectAfterAHundredGarbageConnections() async throws {
    await transport.enqueue("/token", Self.tokens)
    let attempt = try await start()
    defer { attempt.cancel() }
    let port = try port(attempt)
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<100 {
        group.addTask {
          let bytes =
            index.isMultiple(of: 3)
            ? Array("GET /callback?code=x&state=y\(index) HTTP/1.1\r\n\r\n".utf8)
            : index.isMultiple(of: 2) ? Array("BREW /pot HTTP/1.1\r\n\r\n".utf8) : []
          _ = await RawHTTPClient.exchange(port: port, bytes: bytes, timeout: 0.3)
        }
      }
    }
    // The listener notices the closed connections in its own time (a busy machine may still
    // hold them past its limit of connections): a stray request answered (404) says there is
    // room again, so the real redirect is not turned away as one too many.
    try await waitUntil("the redirect listener answers again") {
      RawHTTPClient.status(of: await RawHTTPClient.get("/favicon.ico", port: port)) == 404
    }
    // The answer comes once the attempt's task gets its turn on the cooperative pool: in a
    // full parallel run, which starts with this suite, that turn has come more than a minute
    // late (twice in a few dozen runs), so this redirect waits longer than the usual minute.
    let sent = ContinuousClock.now
    let state = await attempt.request.state
    let page = await RawHTTPClient.get(
      "/callback?code=real&state=\(state)", port: port, timeout: 300)
    let waited = ContinuousClock.now - sent
    let progress = await attempt.currentProgress
    #expect(page.contains("You are signed in"), "answered after \(waited): \(progress)")
    #expect(try await outcome(attempt).accessToken == "at")
    #expect(await transport.requests(to: "/token").count == 1)
  }

  @Test func reportsADenialWithTheProvidersDescription() async throws {
    let attempt = try await start()
    defer { attempt.cancel() }
    let page = try await redirect(
      attempt, "error=access_denied&error_description=User+pressed+Deny&state=STATE")
    #expect(RawHTTPClient.status(of: page) == 200)
    #expect(page.contains("Sign-in did not complete"))
    #expect(page.contains("declined at the provider (User pressed Deny)"))
    let error = await #expect(throws: AuthError.self) { _ = try await outcome(attempt) }
    #expect(error == .accessDenied(description: "User pressed Deny"))
    #expect(error?.exitCode == 6)
    #expect(await transport.requests.isEmpty)
  }

  @Test func escapesTheProvidersTextInTheBrowserPage() async throws {
    let attempt = try await start()
    defer { attempt.cancel() }
    let page = try await redirect(
      attempt,
      "error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=STATE")
    #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!page.contains("<script>"))
    _ = try? await outcome(attempt)
  }

  @Test func refusesARedirectFromAnotherIssuer() async throws {
    let attempt = try await start()
    defer { attempt.cancel() }
    _ = try await redirect(attempt, "code=c&state=STATE&iss=https%3A%2F%2Fevil.test")
    await #expect(
      throws: AuthError.issuerMismatch(
        expected: "https://provider.test", received: "https://evil.test")
    ) { _ = try await outcome(attempt) }
    #expect(await transport.requests.isEmpty)
  }

  @Test func aForgedRedirectWithTheRightStateDoesNotEndTheWaitAndTheRealOneStillSignsIn()
    async throws
  {
    await transport.enqueue(
      "/token",
      FakeTransport.json(#"{"error":"invalid_grant","error_description":"bad code"}"#, status: 400),
      Self.tokens)
    let attempt = try await start()
    defer { attempt.cancel() }
    // Another local program that learned the state sends a code of its own first.
    let forged = try await redirect(attempt, "code=bogus&state=STATE")
    #expect(RawHTTPClient.status(of: forged) == 200)
    #expect(forged.contains("Sign-in not finished"))
    #expect(forged.contains("The sign-in in the terminal is still waiting"))
    let waiting = await attempt.currentProgress
    #expect(waiting.phase == .waitingForBrowser)
    #expect(waiting.deadline == attempt.deadline)
    #expect(waiting.failedExchanges == 1)
    guard case .exchangeFailed(.tokenRequestRejected(let refusal))? = waiting.notice else {
      Issue.record("expected a failed exchange, got \(String(describing: waiting.notice))")
      return
    }
    #expect(refusal.code == .invalidGrant)
    #expect(waiting.notice?.message.hasSuffix("still waiting for the browser's redirect.") == true)

    // The same code again is not sent to the provider twice.
    let again = try await redirect(attempt, "code=bogus&state=STATE")
    #expect(RawHTTPClient.status(of: again) == 400)

    let page = try await redirect(attempt, "code=real&state=STATE")
    #expect(page.contains("You are signed in"))
    #expect(try await outcome(attempt).accessToken == "at")
    #expect(
      await transport.requests(to: "/token").map { $0.bodyParameters["code"] } == [
        "bogus", "real",
      ])
  }

  @Test func aFailedExchangeIsTheOutcomeWhenTheDeadlineComes() async throws {
    await transport.enqueue(
      "/token",
      FakeTransport.json(
        #"{"error":"secret_error","message":"PKCE verification failed"}"#, status: 401))
    let attempt = try await start()
    defer { attempt.cancel() }
    let page = try await redirect(attempt, "code=c&state=STATE")
    #expect(page.contains("PKCE proof (PKCE verification failed)"))
    #expect(await attempt.currentProgress.phase == .waitingForBrowser)
    await clock.advanceToNextDeadline()
    await #expect(throws: AuthError.pkceVerificationFailed(description: "PKCE verification failed"))
    {
      _ = try await attempt.tokens()
    }
    #expect(await !listenerIsOpen(attempt))
  }

  @Test func exchangesOnlyOnceWhenTheRedirectArrivesTwice() async throws {
    await transport.enqueue("/token", Self.tokens, Self.tokens)
    let attempt = try await start()
    defer { attempt.cancel() }
    let query = "code=c&state=STATE"
    async let first = redirect(attempt, query)
    async let second = redirect(attempt, query)
    let pages = try await [first, second]
    #expect(pages.contains { $0.contains("You are signed in") })
    _ = try await outcome(attempt)
    try await attempt.submitRedirect(
      attempt.redirectURI + "?code=c&state=" + (await attempt.request.state))
    #expect(await transport.requests(to: "/token").count == 1)
  }

  // MARK: Paste path

  @Test func acceptsAPastedRedirectURL() async throws {
    await transport.enqueue("/token", Self.tokens)
    let attempt = try await start()
    defer { attempt.cancel() }
    let state = await attempt.request.state
    let pasted = " \(attempt.redirectURI)?code=pasted&state=\(state)\n"
    try await attempt.submitRedirect(pasted)
    #expect(try await outcome(attempt).accessToken == "at")
    #expect(await transport.requests(to: "/token").map { $0.bodyParameters["code"] } == ["pasted"])
    #expect(await !listenerIsOpen(attempt))
  }

  @Test func checksAPastedURLExactlyLikeARedirectAndKeepsWaiting() async throws {
    await transport.enqueue("/token", Self.tokens)
    let attempt = try await start()
    defer { attempt.cancel() }
    let base = attempt.redirectURI
    await #expect(throws: AuthError.stateMismatch) {
      try await attempt.submitRedirect("\(base)?code=x&state=old-tab")
    }
    await #expect(throws: AuthError.malformedRedirect("it does not start with \(base)")) {
      try await attempt.submitRedirect("https://example.com/callback?code=x&state=y")
    }
    #expect(await attempt.currentProgress.phase == .waitingForBrowser)
    let state = await attempt.request.state
    try await attempt.submitRedirect("\(base)?code=good&state=\(state)")
    #expect(try await outcome(attempt).accessToken == "at")
  }

  // MARK: Countdown and cancellation

  @Test func silentDenialEndsAtTheDeadlineAsNoAnswer() async throws {
    let origin = await clock.now()
    let attempt = try await start(TestProviders.simkl)
    defer { attempt.cancel() }
    #expect(await clock.advanceToNextDeadline() == origin.addingTimeInterval(300))
    let error = await #expect(throws: AuthError.self) { _ = try await attempt.tokens() }
    #expect(error == .noAnswer(waited: 300))
    #expect(error?.exitCode == 6)
    #expect(
      error?.message
        == "No answer from the provider after 5 minutes (the sign-in may have been declined); "
        + "start a new sign-in to try again.")
    #expect(await attempt.currentProgress.phase == .failed(.noAnswer(waited: 300)))
    #expect(await transport.requests.isEmpty)
    #expect(await !listenerIsOpen(attempt))
  }

  @Test func usesTheProvidersOwnLoginTimeout() async throws {
    var configuration = TestProviders.oidc
    configuration.loginTimeout = 42
    let origin = await clock.now()
    let attempt = try await start(configuration)
    defer { attempt.cancel() }
    #expect(attempt.deadline == origin.addingTimeInterval(42))
    await clock.advanceToNextDeadline()
    await #expect(throws: AuthError.noAnswer(waited: 42)) { _ = try await attempt.tokens() }
  }

  @Test func cancellingEndsTheWaitAndClosesThePort() async throws {
    let attempt = try await start()
    defer { attempt.cancel() }
    attempt.cancel()
    await #expect(throws: AuthError.cancelled) { _ = try await attempt.tokens() }
    #expect(await !listenerIsOpen(attempt))
  }

  @Test func cancellingTheWaitingTaskCancelsTheAttempt() async throws {
    let attempt = try await start()
    defer { attempt.cancel() }
    let waiter = Task { try await attempt.tokens() }
    waiter.cancel()
    await #expect(throws: AuthError.cancelled) { _ = try await waiter.value }
    #expect(await attempt.currentProgress.phase == .failed(.cancelled))
  }

  @Test func aRetryIsAFreshAttemptWithNewSecrets() async throws {
    let first = try await start()
    defer { first.cancel() }
    first.cancel()
    _ = try? await first.tokens()
    let second = try await start()
    defer { second.cancel() }
    let (one, two) = (await first.request, await second.request)
    #expect(one.state != two.state)
    #expect(one.codeChallenge != two.codeChallenge)
    second.cancel()
  }

  @Test func reportsAFixedRedirectPortInUse() async throws {
    let occupant = try LoopbackServer { _ in .text("busy", status: 200) }
    defer { occupant.requestStop() }
    var configuration = TestProviders.simkl
    configuration.redirectPort = occupant.port
    await #expect(throws: AuthError.portInUse(occupant.port)) { _ = try await start(configuration) }
    await occupant.stop()
  }

  @Test func listensOnTheFixedPortAndPathTheRegistrationNames() async throws {
    var configuration = TestProviders.simkl
    configuration.redirectPath = "/oauth/done"
    // A port found free may be taken by a parallel test before it is bound again: retry.
    var started: AuthorizationCodeSignIn?
    for _ in 0..<5 where started == nil {
      let probe = try LoopbackServer { _ in .text("", status: 200) }
      configuration.redirectPort = probe.port
      await probe.stop()
      started = try? await start(configuration)
    }
    let attempt = try #require(started)
    defer { attempt.cancel() }
    let port = try #require(configuration.redirectPort)
    #expect(attempt.redirectURI == "http://127.0.0.1:\(port)/oauth/done")
    #expect(RawHTTPClient.status(of: await RawHTTPClient.get("/callback", port: port)) == 404)
    attempt.cancel()
    _ = try? await attempt.tokens()
  }

}
