import AuthCore
import Foundation
import JSON
import TestSupport
import Testing

@Suite struct DeviceAuthorizationTests {
  let clock = ManualClock()

  static let deviceAnswer = #"""
    {"device_code":"dev-secret","user_code":"WDJB-MJHT","verification_uri":"https://provider.test/device",
     "verification_uri_complete":"https://provider.test/device?user_code=WDJB-MJHT","expires_in":900,"interval":5}
    """#
  static let pending = FakeTransport.json(#"{"error":"authorization_pending"}"#, status: 400)
  static let slowDown = FakeTransport.json(#"{"error":"slow_down"}"#, status: 400)
  static let tokens = FakeTransport.json(
    #"{"access_token":"at","refresh_token":"rt","expires_in":60}"#)

  func begin(_ transport: FakeTransport, answer: String = deviceAnswer) async throws
    -> UserCodeSignIn
  {
    await transport.enqueue("/device", FakeTransport.json(answer))
    let client = ProviderClient(
      configuration: TestProviders.oidc, transport: transport, clock: clock)
    return try await UserCodeSignIn.startDevice(client: client)
  }

  @Test func showsTheCodeAndPollsUntilApproved() async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue("/token", Self.pending, Self.tokens)
    let attempt = try await begin(transport)
    let first = await attempt.currentProgress
    #expect(first.phase == .waitingForApproval)
    #expect(first.userCode == "WDJB-MJHT")
    #expect(first.verificationURIComplete?.absoluteString.hasSuffix("user_code=WDJB-MJHT") == true)
    #expect(first.deadline == (await clock.now()).addingTimeInterval(900))
    #expect(!attempt.authorization.description.contains("dev-secret"))

    let seen = await runOnManualClock(attempt, clock)
    let tokens = try await attempt.tokens()
    #expect(tokens.accessToken == "at")
    #expect(seen.last?.phase == .signedIn)
    let polls = await transport.requests(to: "/token")
    #expect(polls.count == 2)
    #expect(
      polls.first?.bodyParameters == [
        "grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": "dev-secret",
        "client_id": "abc123",
      ])
    let device = await transport.requests(to: "/device")
    #expect(
      device.first?.bodyParameters == [
        "client_id": "abc123", "scope": "openid profile offline_access",
      ])
  }

  @Test func slowDownAddsFiveSecondsForTheRestOfTheFlow() async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue("/token", Self.pending, Self.slowDown, Self.pending, Self.tokens)
    let origin = await clock.now()
    let attempt = try await begin(transport)
    let seen = await runOnManualClock(attempt, clock)
    _ = try await attempt.tokens()
    let times = await transport.times.dropFirst()
    #expect(offsets(Array(times), from: origin) == [5, 10, 20, 30])
    let announced = seen.compactMap { $0.nextPollAt }.map { $0.timeIntervalSince(origin) }
    #expect(announced == [5, 10, 20, 30])
    #expect(seen.filter { $0.nextPollAt != nil }.map { $0.pollInterval } == [5, 5, 10, 10])
    #expect(seen.last?.pollInterval == 10)
  }

  /// GitHub's `slow_down` comes with HTTP 200 and names the interval it now holds the client
  /// to; a poller that only adds 5 s would poll too early again and again.
  @Test func slowDownNamingALongerIntervalIsKeptTo() async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue(
      "/token", FakeTransport.json(#"{"error":"authorization_pending"}"#),
      FakeTransport.json(#"{"error":"slow_down","interval":20}"#),
      FakeTransport.json(#"{"error":"slow_down","interval":"1e999"}"#),
      FakeTransport.json(#"{"error":"slow_down","interval":3}"#), Self.tokens)
    let origin = await clock.now()
    let attempt = try await begin(transport)
    let seen = await runOnManualClock(attempt, clock)
    _ = try await attempt.tokens()
    // 20 as named; a string is no interval (+5); 3 is shorter than +5, so +5.
    let times = await transport.times.dropFirst()
    #expect(offsets(Array(times), from: origin) == [5, 10, 30, 55, 85])
    #expect(seen.last?.pollInterval == 30)
  }

  @Test func stopsAtTheLocalDeadlineWhateverTheProviderSays() async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue("/token", Self.pending, Self.pending, Self.pending, Self.pending)
    let origin = await clock.now()
    let attempt = try await begin(
      transport,
      answer:
        #"{"device_code":"d","user_code":"U","verification_uri":"https://provider.test/device","expires_in":12}"#
    )
    _ = await runOnManualClock(attempt, clock)
    await #expect(throws: AuthError.userCodeExpired) { _ = try await attempt.tokens() }
    #expect(await transport.requests(to: "/token").count == 2)
    #expect(await clock.now() == origin.addingTimeInterval(12))
  }

  @Test(arguments: [
    (
      #"{"error":"access_denied","error_description":"The user declined"}"#,
      AuthError.accessDenied(description: "The user declined")
    ),
    (#"{"error":"expired_token"}"#, AuthError.userCodeExpired),
    (
      #"{"error":"invalid_client"}"#,
      AuthError.tokenRequestRejected(OAuthError(code: .invalidClient))
    ),
  ])
  func endsOnTheProvidersVerdict(body: String, expected: AuthError) async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue("/token", Self.pending, FakeTransport.json(body, status: 400))
    let attempt = try await begin(transport)
    let seen = await runOnManualClock(attempt, clock)
    await #expect(throws: expected) { _ = try await attempt.tokens() }
    #expect(seen.last?.phase == .failed(expected))
    #expect(seen.last?.nextPollAt == nil)
  }

  @Test func pollsHalfAsOftenAfterARequestTimesOut() async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue("/token", .failure(.timedOut(seconds: 30)), Self.tokens)
    let origin = await clock.now()
    let attempt = try await begin(transport)
    _ = await runOnManualClock(attempt, clock)
    _ = try await attempt.tokens()
    #expect(offsets(Array(await transport.times.dropFirst()), from: origin) == [5, 15])
  }

  @Test func keepsPollingThroughA500AGarbageBodyAndADroppedConnectionUntilApproved()
    async throws
  {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue(
      "/token", FakeTransport.raw("", status: 500), FakeTransport.raw("<html>oops", status: 200),
      .failure(.connectionLost(host: "provider.test")), Self.pending, Self.tokens)
    let origin = await clock.now()
    let attempt = try await begin(transport)
    let seen = await runOnManualClock(attempt, clock)
    #expect(try await attempt.tokens().accessToken == "at")
    #expect(seen.last?.phase == .signedIn)
    // 5, then 10, 20, 40 after one, two, three failures in a row; an answer resets it to 5.
    #expect(
      offsets(Array(await transport.times.dropFirst()), from: origin) == [5, 15, 35, 75, 80])
    let shown = seen.filter { $0.nextPollAt != nil }.map(\.pollTrouble)
    #expect(shown == [nil, .httpStatus(500), .unreadableAnswer, .noConnection, nil])
    #expect(seen.filter { $0.nextPollAt != nil }.allSatisfy { $0.pollInterval == 5 })
  }

  @Test func aProviderThatNeverAnswersEndsTheSignInAtTheCodesDeadlineAsExpired() async throws {
    let transport = FakeTransport(clock: clock)
    for _ in 0..<40 {
      await transport.enqueue("/token", FakeTransport.raw("", status: 503))
    }
    let origin = await clock.now()
    let attempt = try await begin(
      transport,
      answer:
        #"{"device_code":"d","user_code":"U","verification_uri":"https://provider.test/device","expires_in":300,"interval":5}"#
    )
    let seen = await runOnManualClock(attempt, clock)
    await #expect(throws: AuthError.userCodeExpired) { _ = try await attempt.tokens() }
    // Backoff doubles up to a minute between polls, and the wait ends at expires_in.
    #expect(
      offsets(Array(await transport.times.dropFirst()), from: origin)
        == [5, 15, 35, 75, 135, 195, 255])
    #expect(await clock.now() == origin.addingTimeInterval(300))
    #expect(seen.dropLast().last?.pollTrouble == .httpStatus(503))
  }

  @Test func accessDeniedAfterAFailedPollStillEndsTheSignInAtOnce() async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue(
      "/token", .failure(.cannotConnect(host: "provider.test")),
      FakeTransport.json(#"{"error":"access_denied"}"#, status: 400), Self.tokens)
    let attempt = try await begin(transport)
    _ = await runOnManualClock(attempt, clock)
    await #expect(throws: AuthError.accessDenied(description: nil)) {
      _ = try await attempt.tokens()
    }
    #expect(await transport.requests(to: "/token").count == 2)
  }

  @Test func cancellingStopsThePollingAtOnce() async throws {
    let transport = FakeTransport(clock: clock)
    let attempt = try await begin(transport)
    await clock.waitForSleepers()
    attempt.cancel()
    await #expect(throws: AuthError.cancelled) { _ = try await attempt.tokens() }
    #expect(await transport.requests(to: "/token").isEmpty)
    #expect(await attempt.currentProgress.phase == .failed(.cancelled))
  }

  @Test func refusesAProviderWithoutTheDeviceFlow() async throws {
    let client = ProviderClient(
      configuration: TestProviders.hivesigner, transport: FakeTransport(), clock: clock)
    await #expect(throws: AuthError.flowNotOffered(.device, provider: "Hivesigner")) {
      _ = try await UserCodeSignIn.startDevice(client: client)
    }
  }
}

@Suite struct PINSignInTests {
  let clock = ManualClock()
  static let start = #"""
    {"result":"OK","device_code":"DEVICE_CODE","user_code":"5G6JA","verification_uri":"https://simkl.com/pin",
     "verification_url":"https://simkl.com/pin","expires_in":900,"interval":5}
    """#

  func begin(_ transport: FakeTransport) async throws -> UserCodeSignIn {
    await transport.enqueue("/api/oauth/pin", FakeTransport.json(Self.start))
    let client = ProviderClient(
      configuration: TestProviders.simkl, transport: transport, clock: clock)
    return try await UserCodeSignIn.startPIN(client: client)
  }

  @Test func pollsTheCodesOwnURLAndBacksOffOnSlowDown() async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue(
      "/api/oauth/pin/5G6JA",
      FakeTransport.json(#"{"result":"KO","message":"Authorization pending"}"#),
      FakeTransport.json(#"{"result":"KO","message":"Slow down"}"#),
      FakeTransport.json(#"{"result":"OK","access_token":"simkl-at"}"#))
    let origin = await clock.now()
    let attempt = try await begin(transport)
    #expect(attempt.flow == .pin)
    #expect(await attempt.currentProgress.userCode == "5G6JA")
    _ = await runOnManualClock(attempt, clock)
    let tokens = try await attempt.tokens()
    #expect(tokens.accessToken == "simkl-at")
    let polls = await transport.requests(to: "/api/oauth/pin/5G6JA")
    #expect(polls.count == 3)
    #expect(polls.allSatisfy { $0.method == .get && $0.queryParameters["app-name"] == "authtui" })
    #expect(
      await transport.requests(to: "/api/oauth/pin").first?.queryParameters["client_id"]
        == "simkl-client")
    #expect(offsets(Array(await transport.times.dropFirst()), from: origin) == [5, 10, 20])
  }

  @Test func aPINPollThatGetsA502IsRetriedUntilApproved() async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue(
      "/api/oauth/pin/5G6JA", FakeTransport.raw("Bad Gateway", status: 502),
      FakeTransport.json(#"{"result":"OK","access_token":"simkl-at"}"#))
    let attempt = try await begin(transport)
    let seen = await runOnManualClock(attempt, clock)
    #expect(try await attempt.tokens().accessToken == "simkl-at")
    #expect(seen.contains { $0.pollTrouble == .httpStatus(502) })
    #expect(seen.last?.phase == .signedIn)
    #expect(seen.last?.pollTrouble == nil)
  }

  @Test func stopsWithAClearErrorWhenAPollAnswersWithAFreshCode() async throws {
    let transport = FakeTransport(clock: clock)
    await transport.enqueue(
      "/api/oauth/pin/5G6JA",
      FakeTransport.json(#"{"result":"KO","message":"Authorization pending"}"#),
      FakeTransport.json(
        #"{"result":"OK","device_code":"DEVICE_CODE","user_code":"NEW99","verification_uri":"https://simkl.com/pin","expires_in":900,"interval":5}"#
      ))
    let attempt = try await begin(transport)
    let seen = await runOnManualClock(attempt, clock)
    let error = await #expect(throws: AuthError.self) { _ = try await attempt.tokens() }
    #expect(error == .pinCodeReplaced)
    #expect(error?.exitCode == 7)
    #expect(
      error?.message
        == "The code you were shown is no longer valid at the provider (it expired or was "
        + "already used); start a new sign-in to get a fresh code.")
    #expect(seen.allSatisfy { $0.userCode == "5G6JA" && $0.pollTrouble == nil })
    #expect(!"\(seen)".contains("NEW99"))
  }

  @Test func takesAHugeOrInfiniteLifetimeAndIntervalAsADay() throws {
    // Found by the device-authorization fuzz target: 9e112 seconds trapped converting to Int.
    let json = try #require(
      JSONValue.object(
        from: Data(
          #"{"user_code":"U","verification_uri":"https://provider.test/device","expires_in":9e112,"interval":"1e999"}"#
            .utf8)))
    let answer = try DeviceAuthorizationResponse(json: json)
    #expect(answer.expiresIn == 86_400)
    #expect(answer.interval == 86_400)
    #expect(answer.description.hasSuffix("expires_in: 86400, interval: 86400)"))
    var notANumber = json
    notANumber["interval"] = .string("nan")
    #expect(try DeviceAuthorizationResponse(json: notANumber).interval == 5)
  }

  /// The address is opened in the browser and the code copied and pasted: an address that is
  /// no web page (`file:`, `javascript:`, another program's scheme, plain http elsewhere) or a
  /// code holding a control character refuses the answer; a `verification_uri_complete` that
  /// is no such page is left out.
  @Test func refusesAnAddressThatIsNoWebPageAndACodeWithControlCharacters() throws {
    func answer(_ members: String) throws(AuthError) -> DeviceAuthorizationResponse {
      let json = JSONValue.object(from: Data(("{\"expires_in\":600," + members + "}").utf8)) ?? [:]
      return try DeviceAuthorizationResponse(json: json)
    }
    let badAddress =
      "The provider's answer was incomplete (the answer's verification_uri is not an https "
      + "address (or http on this machine) of at most 2048 bytes, so authtui does not open it); "
      + "try again, and report it to the provider if it keeps happening."
    for address in [
      "file:///etc/passwd", "javascript:alert(1)", "steam://run/123", "http://attacker.example/",
      "https://provider.test/" + String(repeating: "a", count: 2048),
    ] {
      do throws(AuthError) {
        _ = try answer(#""user_code":"AB","verification_uri":"\#(address)""#)
        Issue.record("\(address) was taken")
      } catch {
        #expect(error.message == badAddress, "\(address)")
      }
    }
    let local = try answer(#""user_code":"AB","verification_uri":"http://127.0.0.1:8/device""#)
    #expect(local.verificationURI.absoluteString == "http://127.0.0.1:8/device")
    let dropped = try answer(
      #""user_code":"AB","verification_uri":"https://p.test/d","verification_uri_complete":"file:///etc/shadow""#
    )
    #expect(dropped.verificationURIComplete == nil)
    let kept = try answer(
      #""user_code":"AB","verification_uri":"https://p.test/d","verification_uri_complete":"https://p.test/d?c=AB""#
    )
    #expect(kept.verificationURIComplete?.absoluteString == "https://p.test/d?c=AB")
    for code in [#"AB\u001b]52;c;ZXZpbA==\u0007CD"#, #"AB\nCD"#, String(repeating: "A", count: 65)]
    {
      do {
        _ = try answer(#""user_code":"\#(code)","verification_uri":"https://p.test/d""#)
        Issue.record("\(code) was taken")
      } catch {
        #expect(
          error.message
            == "The provider's answer was incomplete (the answer's user_code is longer than 64 "
            + "bytes or holds control characters); try again, and report it to the provider if "
            + "it keeps happening.")
      }
    }
  }
}
