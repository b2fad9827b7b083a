import AuthCore
import Foundation
import Loopback
import TestSupport
import Testing

/// The one-time loopback addresses a browser is given instead of a URL that carries secrets:
/// the sign-in listener's `/sign-in/RANDOM` route (and the restart a second fetch causes), and
/// the sign-out page's own `OneTimeRedirect`. Real sockets, a scripted token endpoint and a
/// manual clock.
@Suite struct OneTimeAddressTests {
  let clock = ManualClock()
  let transport = FakeTransport()

  func start() async throws -> AuthorizationCodeSignIn {
    try await AuthorizationCodeSignIn.start(
      client: ProviderClient(
        configuration: TestProviders.oidc, transport: transport, clock: clock))
  }

  /// GETs `address` (an `http://127.0.0.1:PORT/…` URL) as a browser would.
  func fetch(_ address: URL, method: String = "GET") async throws -> RawHTTPResponse {
    let port = UInt16(try #require(address.port))
    return await RawHTTPClient.request(method, address.path, port: port)
  }

  /// The attempt's progress once `condition` holds (the restart follows the second fetch's
  /// answer); a generous bound that only matters when the test fails.
  func progress(
    _ attempt: AuthorizationCodeSignIn, where condition: (SignInProgress) -> Bool
  ) async throws -> SignInProgress {
    for _ in 0..<6000 {
      let progress = await attempt.currentProgress
      if condition(progress) { return progress }
      try await Task.sleep(nanoseconds: 10_000_000)
    }
    Issue.record("the attempt never reached the expected state")
    return await attempt.currentProgress
  }

  @Test func redirectsTheFirstFetchToTheAuthorizationURLAndAnswersLaterOnesGone() async throws {
    let attempt = try await start()
    let address = try #require(await attempt.currentProgress.browserURL)
    let port = try #require(URL(string: attempt.redirectURI)?.port)
    #expect(address.absoluteString.hasPrefix("http://127.0.0.1:\(port)/sign-in/"))
    // 32 random bytes, base64url: 43 characters.
    #expect(address.lastPathComponent.count == 43)
    #expect(address.query == nil)

    let first = try await fetch(address)
    #expect(first.status == 303)
    #expect(first.header("Location") == (await attempt.request.url).absoluteString)
    #expect(first.header("Cache-Control") == "no-store")
    #expect(first.header("Referrer-Policy") == "no-referrer")

    let second = try await fetch(address)
    #expect(second.status == 410)
    #expect(second.body.contains("This sign-in link works once and has already been opened."))
    #expect(second.header("Location") == nil)
    attempt.cancel()
  }

  @Test func refusesOtherMethodsAndUnknownAddressesWithoutUsingTheLink() async throws {
    let attempt = try await start()
    let address = try #require(await attempt.currentProgress.browserURL)
    #expect(try await fetch(address, method: "POST").status == 405)
    #expect(try await fetch(address, method: "HEAD").status == 405)
    let guessed = try #require(URL(string: address.absoluteString.dropLast(2) + "xx"))
    #expect(try await fetch(guessed).status == 404)
    // None of those counted as a fetch: the browser still gets through.
    #expect(try await fetch(address).status == 303)
    #expect(await attempt.currentProgress.restarts == 0)
    attempt.cancel()
  }

  @Test func aSecondFetchRestartsTheAttemptWithFreshSecretsAndTheFreshOneSignsIn()
    async throws
  {
    await transport.enqueue(
      "/token",
      FakeTransport.json(#"{"access_token":"at","token_type":"bearer","expires_in":3600}"#))
    let attempt = try await start()
    let before = await attempt.request
    let address = await attempt.browserAddress()
    // Someone else fetches the address first and reads the URL; the browser then gets 410.
    let stolen = try await fetch(address)
    #expect(stolen.header("Location")?.contains("state=\(before.state)") == true)
    #expect(try await fetch(address).status == 410)

    let restarted = try await progress(attempt) { $0.restarts == 1 }
    #expect(restarted.notice == .restarted)
    #expect(
      restarted.notice?.message
        == "The sign-in link was opened twice, possibly by another program; started again "
        + "with a fresh link.")
    #expect(restarted.phase == .waitingForBrowser)
    let after = await attempt.request
    #expect(after.state != before.state)
    #expect(after.codeChallenge != before.codeChallenge)
    #expect(after.nonce != before.nonce)
    #expect(after.redirectURI == before.redirectURI)
    #expect(restarted.authorizationURL == after.url)
    let fresh = try #require(restarted.browserURL)
    #expect(fresh != address)

    // The stolen state is dead: a code sent with it is refused without an exchange.
    let port = UInt16(try #require(URL(string: attempt.redirectURI)?.port))
    let forged = await RawHTTPClient.get("/callback?code=theirs&state=\(before.state)", port: port)
    #expect(RawHTTPClient.status(of: forged) == 400)
    // The browser, opened again, goes through the fresh address to the fresh request.
    let reopened = try await fetch(await attempt.browserAddress())
    #expect(reopened.header("Location") == after.url.absoluteString)
    let page = await RawHTTPClient.get("/callback?code=ours&state=\(after.state)", port: port)
    #expect(page.contains("You are signed in"))
    #expect(try await attempt.tokens().accessToken == "at")
    #expect(await transport.requests(to: "/token").map { $0.bodyParameters["code"] } == ["ours"])
  }

  @Test func handsOutAFreshAddressWhenThePageIsOpenedAgain() async throws {
    let attempt = try await start()
    let published = try #require(await attempt.currentProgress.browserURL)
    let first = await attempt.browserAddress()
    let second = await attempt.browserAddress()
    #expect(first == published)
    #expect(second != first)
    #expect(attempt.isOneTimeAddress(second.absoluteString))
    #expect(!attempt.isOneTimeAddress((await attempt.request.url).absoluteString))
    // Each opened once: no alarm, both lead to the same request.
    let url = (await attempt.request.url).absoluteString
    #expect(try await fetch(first).header("Location") == url)
    #expect(try await fetch(second).header("Location") == url)
    #expect(await attempt.currentProgress.restarts == 0)
    attempt.cancel()
  }

  @Test func anAddressOfAReplacedRequestNeverLeadsAnywhere() async throws {
    let attempt = try await start()
    let address = await attempt.browserAddress()
    let spare = await attempt.browserAddress()
    _ = try await fetch(address)
    _ = try await fetch(address)
    _ = try await progress(attempt) { $0.restarts == 1 }
    // Never fetched, but its request is gone: 410, and no second restart.
    #expect(try await fetch(spare).status == 410)
    #expect(try await fetch(address).status == 410)
    #expect(await attempt.currentProgress.restarts == 1)
    attempt.cancel()
  }

  @Test func anEndSessionAddressRedirectsOnceAndClosesOnceFetched() async throws {
    let target = try #require(
      URL(string: "https://provider.test/logout?id_token_hint=header.claims.sig"))
    let link = try await OneTimeRedirect(to: target)
    #expect(link.address.absoluteString.hasPrefix("http://127.0.0.1:"))
    #expect(link.address.path.hasPrefix("/sign-out/"))
    #expect(!link.address.absoluteString.contains("id_token"))
    let waiting = Task { await link.waitUntilFetched(deadline: .distantFuture, clock: clock) }
    let first = try await fetch(link.address)
    #expect(first.status == 303)
    #expect(first.header("Location") == target.absoluteString)
    #expect(first.header("Referrer-Policy") == "no-referrer")
    #expect(await waiting.value)
    // The listener is gone once the address was used.
    #expect(try await fetch(link.address).status != 303)
  }

  @Test func anEndSessionAddressThatNobodyFetchesClosesAtItsDeadline() async throws {
    let target = try #require(URL(string: "https://provider.test/logout?id_token_hint=x"))
    let link = try await OneTimeRedirect(to: target)
    let deadline = (await clock.now()).addingTimeInterval(30)
    let waiting = Task { await link.waitUntilFetched(deadline: deadline, clock: clock) }
    #expect(await clock.advanceToNextDeadline() == deadline)
    #expect(await !waiting.value)
    #expect(try await fetch(link.address).status != 303)
  }

  /// The query parameter `name` of `location`.
  func parameter(_ name: String, of location: String?) -> String? {
    guard let location, let mark = location.firstIndex(of: "?") else { return nil }
    return FormEncoding.decode(location[location.index(after: mark)...]).first {
      $0.name == name
    }?.value
  }

  @Test func servesThePostLogoutLandingAndOnlyTheRightStateSaysSignedOut() async throws {
    // Port 0: the provider allows any loopback port, so the listener picks one and writes it in.
    let target = try #require(
      URL(
        string: "https://provider.test/logout?id_token_hint=x&client_id=c"
          + "&post_logout_redirect_uri=http%3A%2F%2F127.0.0.1%3A0%2Fcallback&state=stale"))
    let link = try await OneTimeRedirect(to: target, account: "sandbox/alice")
    let landing = try #require(link.landingURI)
    let port = try #require(link.address.port)
    #expect(landing.absoluteString == "http://127.0.0.1:\(port)/callback")
    #expect(link.unservedLandingPort == nil)
    let fetching = Task { await link.waitUntilFetched(deadline: .distantFuture, clock: clock) }
    let first = try await fetch(link.address)
    #expect(first.status == 303)
    let location = first.header("Location")
    #expect(
      location?.hasPrefix("https://provider.test/logout?id_token_hint=x&client_id=c&") == true)
    #expect(parameter("post_logout_redirect_uri", of: location) == landing.absoluteString)
    let state = try #require(parameter("state", of: location))
    // A fresh 32-byte state replaces whatever the URL had.
    #expect(state.count == 43 && state != "stale")
    #expect(await fetching.value)

    let returning = Task { await link.waitForReturn(deadline: .distantFuture, clock: clock) }
    let altered = state.dropLast() + (state.hasSuffix("A") ? "B" : "A")
    for query in ["?state=stale", "", "?state=" + altered] {
      let forged = await RawHTTPClient.request("GET", "/callback" + query, port: UInt16(port))
      #expect(forged.status == 400)
      #expect(forged.body.contains("<h1>Sign-out not confirmed</h1>"))
      #expect(!forged.body.contains("signed out:"))
    }
    #expect(
      await RawHTTPClient.request("POST", "/callback?state=\(state)", port: UInt16(port))
        .status == 405)
    let back = await RawHTTPClient.request("GET", "/callback?state=\(state)", port: UInt16(port))
    #expect(back.status == 200)
    #expect(
      back.body.contains(
        "sandbox/alice is signed out: the provider ended its session in this browser, and "
          + "authtui removed the account. You can close this tab."))
    #expect(await returning.value)
    #expect(
      await RawHTTPClient.request("GET", "/callback?state=\(state)", port: UInt16(port))
        .status != 200)
  }

  @Test func aReturnThatNeverComesEndsAtItsDeadline() async throws {
    let target = try #require(
      URL(
        string:
          "https://provider.test/logout?post_logout_redirect_uri=http%3A%2F%2F127.0.0.1%3A0%2Fbye"
      ))
    let link = try await OneTimeRedirect(to: target)
    let fetching = Task { await link.waitUntilFetched(deadline: .distantFuture, clock: clock) }
    #expect(try await fetch(link.address).status == 303)
    #expect(await fetching.value)
    let deadline = (await clock.now()).addingTimeInterval(120)
    let returning = Task { await link.waitForReturn(deadline: deadline, clock: clock) }
    #expect(await clock.advanceToNextDeadline() == deadline)
    #expect(await !returning.value)
    #expect(try await fetch(link.address).status != 410)
  }

  @Test func aLandingPortInUseSendsNoReturnAddress() async throws {
    let other = try LoopbackServer(port: 0, configuration: .callback) { _ in
      .text("other\n", status: 200)
    }
    let target = try #require(
      URL(
        string: "https://provider.test/logout?client_id=c&post_logout_redirect_uri="
          + "http%3A%2F%2F127.0.0.1%3A\(other.port)%2Fcallback"))
    let link = try await OneTimeRedirect(to: target)
    #expect(link.unservedLandingPort == other.port)
    #expect(link.landingURI == nil)
    #expect(link.address.port != Int(other.port))
    let first = try await fetch(link.address)
    #expect(first.header("Location") == "https://provider.test/logout?client_id=c")
    await link.stop()
    await other.stop()
  }

  @Test func aReturnAddressAuthtuiCannotServeIsSentAsItIs() async throws {
    for uri in [
      "https%3A%2F%2Fapp.example%2Fbye", "http%3A%2F%2Flocalhost%3A8765%2Fcallback",
      "http%3A%2F%2F127.0.0.1%2Fcallback", "http%3A%2F%2F127.0.0.1%3A80%2Fcallback",
    ] {
      let target = try #require(
        URL(string: "https://provider.test/logout?post_logout_redirect_uri=\(uri)&state=s"))
      let link = try await OneTimeRedirect(to: target)
      #expect(link.landingURI == nil && link.unservedLandingPort == nil)
      #expect(try await fetch(link.address).header("Location") == target.absoluteString)
      #expect(await link.waitForReturn(deadline: .distantFuture, clock: clock) == false)
      await link.stop()
    }
  }
}
