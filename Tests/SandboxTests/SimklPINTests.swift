import Foundation
import Sandbox
import TestSupport
import Testing

/// Simkl's PIN flow: pending, "Slow down", approval on the PIN page, and the fall-through that
/// answers a poll of a gone code with a fresh start.
@Suite(.sandboxHarness) struct SimklPINTests {
  /// The harness the suite's trait started for this test.
  var harness: SandboxHarness { .current }

  typealias Paths = SandboxPaths.Simkl

  func start(_ harness: SandboxHarness) async -> RawHTTPResponse {
    await harness.get(
      SandboxHarness.target(Paths.pin, SimklProfileTests.perRequest),
      headers: SimklProfileTests.agent)
  }

  func poll(_ harness: SandboxHarness, _ userCode: String) async -> RawHTTPResponse {
    await harness.get(
      SandboxHarness.target(Paths.pin + "/" + userCode, SimklProfileTests.perRequest),
      headers: SimklProfileTests.agent)
  }

  @Test func startAnswersACodeThePageAndThePlaceholderDeviceCode() async throws {
    let start = await start(harness)
    #expect(start.status == 200)
    #expect(start["result"] == "OK")
    #expect(start["device_code"] == "DEVICE_CODE")
    #expect(start["user_code"]?.count == 5)
    #expect(start["verification_uri"] == harness.url(Paths.pinPage))
    #expect(start["verification_url"] == harness.url(Paths.pinPage))
    #expect(start.integer("expires_in") == 900)
    #expect(start.integer("interval") == 5)
  }

  @Test func pollsArePendingThenSlowDownThenOKOnceTheUserApproves() async throws {
    let userCode = try #require(await start(harness)["user_code"])
    let pending = await poll(harness, userCode)
    #expect(pending.body == #"{"result":"KO","message":"Authorization pending"}"#)
    let tooSoon = await poll(harness, userCode)
    #expect(tooSoon.body == #"{"result":"KO","message":"Slow down"}"#)

    let outcome = await harness.browse(harness.url(Paths.pinPage), user: "dora", userCode: userCode)
    #expect(outcome.succeeded, "\(outcome.failure ?? "")")
    #expect(outcome.finalBody.contains("Device connected"))

    // The client waits its interval; the sandbox's clock moves instead of the test sleeping.
    await harness.server.setClockOffset(seconds: 6)
    let approved = await poll(harness, userCode)
    #expect(approved["result"] == "OK")
    #expect(approved.json?["device_code"] == nil)
    let token = try #require(approved["access_token"])
    let settings = await harness.get(
      SandboxHarness.target(Paths.userSettings, SimklProfileTests.perRequest),
      headers: SimklProfileTests.agent + ["Authorization: Bearer \(token)"])
    #expect((settings.json?["user"] as? [String: Any])?["name"] as? String == "dora")
    let stats = await harness.server.stats()
    #expect(stats[.slowDowns, .simkl] == 1)
    #expect(stats[.deviceTokens, .simkl] == 1)
  }

  @Test func pollingAUsedCodeAnswersAFreshStartWithADeviceCode() async throws {
    let userCode = try #require(await start(harness)["user_code"])
    #expect(await harness.browse(harness.url(Paths.pinPage), userCode: userCode).succeeded)
    #expect(await poll(harness, userCode)["result"] == "OK")
    await harness.server.setClockOffset(seconds: 6)
    let again = await poll(harness, userCode)
    #expect(again["result"] == "OK")
    #expect(again["device_code"] == "DEVICE_CODE")
    let fresh = try #require(again["user_code"])
    #expect(fresh != userCode)
    #expect(again.json?["access_token"] == nil)
  }

  @Test func pollingAnExpiredOrUnknownCodeAnswersAFreshStart() async throws {
    let userCode = try #require(await start(harness)["user_code"])
    await harness.server.setClockOffset(seconds: 901)
    let expired = await poll(harness, userCode)
    #expect(expired["device_code"] == "DEVICE_CODE")
    #expect(expired["user_code"] != userCode)
    let unknown = await poll(harness, "ZZZZZ")
    #expect(unknown["device_code"] == "DEVICE_CODE")
  }

  @Test func denyingOnThePINPageIsSilentAndTheCodeKeepsWaiting() async throws {
    let userCode = try #require(await start(harness)["user_code"])
    let outcome = await harness.browse(
      harness.url(Paths.pinPage), action: .deny, userCode: userCode)
    #expect(outcome.steps.last == "GET /simkl-web/ 200")
    #expect(await poll(harness, userCode)["message"] == "Authorization pending")
  }

  @Test func aMistypedCodeIsRefusedOnThePage() async throws {
    let outcome = await harness.browse(harness.url(Paths.pinPage), userCode: "QQQQQ")
    #expect(!outcome.succeeded)
    #expect(outcome.finalStatus == 400)
    #expect(outcome.finalBody.contains("That code is not valid or has expired"))
  }
}
