import Foundation
import Sandbox
import TestSupport
import Testing

/// `authtui-test-browser`, the stand-in for a person that other tests set as `BROWSER`.
@Suite struct TestBrowserTests {
  /// Runs the test browser on `url` (for at most 30 s) with `changes` to its variables; the
  /// other `AUTHTUI_TEST_BROWSER_*` ones are unset.
  func browse(_ url: String, _ changes: [String: String?] = [:]) async throws
    -> ChildProcess.Result
  {
    var all: [String: String?] = [
      "AUTHTUI_TEST_BROWSER_ACTION": nil, "AUTHTUI_TEST_BROWSER_USER": nil,
      "AUTHTUI_TEST_BROWSER_USER_CODE": nil, "AUTHTUI_TEST_BROWSER_USER_CODE_FILE": nil,
      "AUTHTUI_TEST_BROWSER_DELAY_MS": nil, "AUTHTUI_TEST_BROWSER_LOG": nil,
      "AUTHTUI_TEST_BROWSER_DETACH": nil,
    ]
    all.merge(changes) { _, new in new }
    return try await ChildProcess.run(
      Products.testBrowser, [url], environment: ChildProcess.environment(all), timeout: 30)
  }

  @Test func approvesAsTheNamedUserAndLandsOnTheCallback() async throws {
    let harness = try await SandboxHarness()
    let signIn = OpenIDSignIn.oidc(harness)
    let result = try await browse(signIn.authorizationURL, ["AUTHTUI_TEST_BROWSER_USER": "lena"])
    #expect(result.status == 0)
    let callback = try #require(await harness.callback.received(state: signIn.state).last)
    let tokens = await signIn.exchange(code: try #require(callback["code"]))
    let accessToken = try #require(tokens["access_token"])
    let userinfo = await harness.get(
      SandboxPaths.OIDC.userinfo, headers: ["Authorization: Bearer \(accessToken)"])
    #expect(userinfo["sub"] == "lena")
    // The log shows the way, never the code or the state.
    #expect(result.stderr.contains("GET /oidc/authorize 200"))
    #expect(result.stderr.contains("POST /oidc/authorize 302"))
    #expect(result.stderr.contains("GET /callback 200"))
    #expect(!result.stderr.contains(try #require(callback["code"])))
    #expect(!result.stderr.contains(signIn.state))
    await harness.stop()
  }

  @Test func ignoringLeavesTheConsentUnanswered() async throws {
    let harness = try await SandboxHarness()
    let signIn = OpenIDSignIn.oidc(harness)
    let result = try await browse(
      signIn.authorizationURL, ["AUTHTUI_TEST_BROWSER_ACTION": "ignore"])
    #expect(result.status == 0)
    #expect(await harness.callback.received(state: signIn.state).isEmpty)
    #expect(await harness.server.stats()[.authorizations] == 0)
    await harness.stop()
  }

  @Test func waitsForTheUserCodeFileAndThenApprovesTheDevice() async throws {
    let harness = try await SandboxHarness()
    let folder = try TemporaryDirectory()
    let codeFile = folder.file("user-code")
    async let visit = browse(
      harness.url(SandboxPaths.Simkl.pinPage), ["AUTHTUI_TEST_BROWSER_USER_CODE_FILE": codeFile])
    let start = await harness.get(
      SandboxHarness.target(SandboxPaths.Simkl.pin, SimklProfileTests.perRequest),
      headers: SimklProfileTests.agent)
    let userCode = try #require(start["user_code"])
    try folder.write(userCode, to: "user-code")
    #expect(try await visit.status == 0)
    let poll = await harness.get(
      SandboxHarness.target(SandboxPaths.Simkl.pin + "/" + userCode, SimklProfileTests.perRequest),
      headers: SimklProfileTests.agent)
    #expect(poll["result"] == "OK")
    await harness.stop()
  }

  @Test func detachedItReturnsAtOnceAndStillSignsIn() async throws {
    let harness = try await SandboxHarness()
    let folder = try TemporaryDirectory()
    let log = folder.file("browser.log")
    let signIn = OpenIDSignIn.oidc(harness)
    let result = try await browse(
      signIn.authorizationURL,
      ["AUTHTUI_TEST_BROWSER_DETACH": "1", "AUTHTUI_TEST_BROWSER_LOG": log])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    // Up to a minute, for a loaded machine; it ends as soon as the callback is there.
    var callbacks: [[String: String]] = []
    for _ in 0..<2400 where callbacks.isEmpty {
      try await Task.sleep(for: .milliseconds(25))
      callbacks = await harness.callback.received(state: signIn.state)
    }
    #expect(callbacks.first?["code"] != nil)
    await harness.stop()
  }

  @Test func refusesANonLoopbackURLAndABadAction() async throws {
    let offLoopback = try await browse("https://example.com/authorize")
    #expect(offLoopback.status == 1)
    #expect(offLoopback.stderr.contains("only http://127.0.0.1 URLs"))
    let badAction = try await browse(
      "http://127.0.0.1:1/", ["AUTHTUI_TEST_BROWSER_ACTION": "maybe"])
    #expect(badAction.status == 2)
    #expect(badAction.stderr.contains("approve, deny or ignore"))
  }

  @Test func readsFormsButtonsAndEntitiesAsABrowserDoes() {
    let html = """
      <html><body><!-- <form action="/fake"> -->
      <form method="POST" action="/a?x=1&amp;y=2">
        <input type="hidden" name="request_id" value="r&quot;1">
        <input name=username value='al&#105;ce'>
        <input type="checkbox" name="remember" checked>
        <button type="submit" name="decision" value="approve">Yes, <b>allow</b></button>
        <button name="decision" value="deny" formnovalidate>No</button>
        <button type="button">Help</button>
      </form></body></html>
      """
    let forms = HTMLForm.forms(in: html)
    #expect(forms.count == 1)
    let form = forms[0]
    #expect(form.action == "/a?x=1&y=2")
    #expect(form.method == "post")
    #expect(form.fields.map(\.name) == ["request_id", "username", "remember"])
    #expect(form.fields[0].value == "r\"1")
    #expect(form.fields[1].value == "alice")
    #expect(form.fields[2].checked)
    #expect(form.buttons.map(\.value) == ["approve", "deny"])
    #expect(form.buttons[0].label == "Yes, allow")
  }
}
