import Foundation
import Sandbox
import TestSupport
import Testing

/// The `/_sandbox/` hooks, over HTTP as a test of another process would use them.
@Suite(.sandboxHarness) struct HookTests {
  /// The harness the suite's trait started for this test.
  var harness: SandboxHarness { .current }

  typealias Hooks = SandboxPaths.Hooks

  @Test func statsCountGloballyAndPerProfile() async throws {
    _ = try await OpenIDSignIn.oidc(harness).tokens()
    _ = try await OpenIDSignIn.muhajir(harness).tokens()
    let stats = try #require(await harness.get(Hooks.stats).json)
    #expect(stats["authorizations"] as? Int == 2)
    #expect(stats["exchanges"] as? Int == 2)
    let profiles = try #require(stats["profiles"] as? [String: [String: Int]])
    #expect(profiles["oidc"]?["exchanges"] == 1)
    #expect(profiles["muhajir"]?["exchanges"] == 1)
    #expect(profiles["simkl"]?["exchanges"] == 0)
    for counter in SandboxCounter.allCases {
      #expect(stats[counter.rawValue] is Int, "\(counter.rawValue)")
    }
  }

  @Test func aStatus500FaultFailsTheNextRequestsOnlyAndDoesNotProcessThem() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    let code = try #require(try await signIn.authorize()["code"])
    let injected = await harness.postJSON(
      Hooks.fault, #"{"path":"/oidc/token","kind":"status500","count":2}"#)
    #expect(injected.status == 200)
    #expect(await signIn.exchange(code: code).status == 500)
    #expect(await signIn.exchange(code: code).status == 500)
    // Other paths were never affected, and the code was not consumed by the failed calls.
    #expect(await harness.get(SandboxPaths.OIDC.discovery).status == 200)
    #expect(await signIn.exchange(code: code).status == 200)
    #expect(await harness.server.stats()[.faults] == 2)
  }

  @Test func aGarbageFaultAnswers200WithABodyThatIsNotJSON() async throws {
    await harness.server.inject(SandboxFault(pathPrefix: "/oidc/token", kind: .garbage))
    let answer = await harness.postForm(SandboxPaths.OIDC.token, [("client_id", "sandbox-client")])
    #expect(answer.status == 200)
    #expect(answer.header("Content-Type") == "application/json")
    #expect(answer.json == nil)
  }

  @Test func aDropFaultClosesTheConnectionWithoutAnAnswer() async throws {
    _ = await harness.postJSON(Hooks.fault, #"{"path":"/oidc/","kind":"drop"}"#)
    let dropped = await harness.get(SandboxPaths.OIDC.discovery)
    #expect(dropped.status == 0)
    #expect(await harness.get(SandboxPaths.OIDC.discovery).status == 200)
  }

  @Test func aDropAfterFaultProcessesTheRequestBeforeDroppingIt() async throws {
    let signIn = OpenIDSignIn.oidc(harness)
    let code = try #require(try await signIn.authorize()["code"])
    _ = await harness.postJSON(Hooks.fault, #"{"path":"/oidc/token","kind":"drop_after"}"#)
    #expect(await signIn.exchange(code: code).status == 0)
    // The exchange happened: the code is spent.
    #expect(await signIn.exchange(code: code)["error"] == "invalid_grant")
    #expect(await harness.server.stats()[.exchanges] == 1)
  }

  @Test func aDelayFaultStillAnswersNormally() async throws {
    _ = await harness.postJSON(
      Hooks.fault, #"{"path":"/oidc/.well-known","kind":"delay","delay_ms":50}"#)
    let delayed = await harness.get(SandboxPaths.OIDC.discovery)
    #expect(delayed.status == 200)
    #expect(delayed["issuer"] == harness.url(SandboxPaths.OIDC.issuer))
    #expect(await harness.server.stats()[.faults, .oidc] == 1)
  }

  @Test func aHoldFaultAnswersNormallyOnceReleasedAndNotBefore() async throws {
    _ = await harness.postJSON(Hooks.fault, #"{"path":"/oidc/.well-known","kind":"hold"}"#)
    let held = Task { await harness.get(SandboxPaths.OIDC.discovery) }
    // The request is taken (counted) and kept: nothing answers it until the release.
    try await waitUntil("the sandbox took the held request") {
      await harness.server.stats()[.faults, .oidc] >= 1
    }
    #expect(await harness.server.stats()[.requests, .oidc] == 0)
    let released = await harness.postJSON(SandboxPaths.Hooks.release, "{}")
    #expect(released.status == 200)
    #expect(released.json?["released"] as? Int == 1)
    let answer = await held.value
    #expect(answer.status == 200)
    #expect(answer["issuer"] == harness.url(SandboxPaths.OIDC.issuer))
    // A release with nothing held releases nothing.
    #expect(await harness.postJSON(SandboxPaths.Hooks.release, "{}").json?["released"] as? Int == 0)
  }

  @Test func faultHookRefusesWhatItCannotDoAndSaysWhatToSend() async throws {
    let unknownKind = await harness.postJSON(Hooks.fault, #"{"path":"/oidc/","kind":"flood"}"#)
    #expect(unknownKind.status == 400)
    #expect(unknownKind["error"]?.contains("status500|delay|hold|garbage|drop|drop_after") == true)
    let noDelay = await harness.postJSON(Hooks.fault, #"{"path":"/oidc/","kind":"delay"}"#)
    #expect(noDelay.status == 400)
    let hooks = await harness.postJSON(Hooks.fault, #"{"path":"/_sandbox/stats","kind":"drop"}"#)
    #expect(hooks.status == 400)
    let notJSON = await harness.postJSON(Hooks.fault, "kind=drop")
    #expect(notJSON["error"] == "The body must be a JSON object.")
  }

  @Test func clockHookSetsAndAdvancesTheOffset() async throws {
    let set = await harness.postJSON(Hooks.clock, #"{"offset_seconds":900}"#)
    #expect(set.integer("offset_seconds") == 900)
    let advanced = await harness.postJSON(Hooks.clock, #"{"advance_seconds":60}"#)
    #expect(advanced.integer("offset_seconds") == 960)
    let now = try #require(advanced.integer("now"))
    #expect(now == Int(harness.clockOrigin.timeIntervalSince1970.rounded(.down)) + 960)
  }

  @Test func settingsHookShortensTheAccessTokenLifetime() async throws {
    let changed = await harness.postJSON(
      Hooks.settings, #"{"profile":"oidc","access_token_lifetime":2}"#)
    #expect(changed.integer("access_token_lifetime") == 2)
    let tokens = try await OpenIDSignIn.oidc(harness).tokens()
    #expect(tokens.integer("expires_in") == 2)
    let accessToken = try #require(tokens["access_token"])
    _ = await harness.postJSON(Hooks.clock, #"{"advance_seconds":3}"#)
    let userinfo = await harness.get(
      SandboxPaths.OIDC.userinfo, headers: ["Authorization: Bearer \(accessToken)"])
    #expect(userinfo.status == 401)
    let unknown = await harness.postJSON(Hooks.settings, #"{"profile":"oidc","lifetime":2}"#)
    #expect(unknown.status == 400)
    #expect(unknown["error"]?.contains("access_token_lifetime") == true)
    let noProfile = await harness.postJSON(Hooks.settings, #"{"access_token_lifetime":2}"#)
    #expect(noProfile.status == 400)
  }

  @Test func settingsHookRegistersSimklRedirectURIs() async throws {
    let uri = harness.callback.redirectURI
    let changed = await harness.postJSON(
      Hooks.settings, #"{"profile":"simkl","redirect_uris":["\#(uri)"]}"#)
    #expect(changed.json?["redirect_uris"] as? [String] == [uri])
    #expect(await harness.server.settings(for: .simkl).registeredRedirectURIs == [uri])
  }

  @Test func resetForgetsTokensCountersAndTheClock() async throws {
    let accessToken = try #require(try await OpenIDSignIn.oidc(harness).tokens()["access_token"])
    await harness.server.setClockOffset(seconds: 1000)
    #expect(await harness.postJSON(Hooks.reset, "").status == 200)
    #expect(await harness.server.stats() == SandboxStats())
    #expect(await harness.server.now() == harness.clockOrigin)
    let userinfo = await harness.get(
      SandboxPaths.OIDC.userinfo, headers: ["Authorization: Bearer \(accessToken)"])
    #expect(userinfo.status == 401)
  }

  @Test func unknownHooksAndWrongMethodsAreRefused() async throws {
    #expect(await harness.get("/_sandbox/nothing").status == 404)
    #expect(await harness.get(Hooks.reset).status == 405)
  }
}
