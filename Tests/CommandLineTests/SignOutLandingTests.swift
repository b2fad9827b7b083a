import Foundation
import Loopback
import Sandbox
import TestSupport
import Testing

/// The post-logout landing (issue 15 item 5): `authtui logout` of an OpenID account opens the
/// provider's end-session page with a `post_logout_redirect_uri` of authtui's own and a fresh
/// `state`; the sandbox (which redirects only to an address registered for the client, here
/// its loopback redirect URIs: `post_logout_uses_redirect_uri` in `sandbox.json`) returns the
/// browser there, and only the right `state` shows "signed out".
@Suite struct SignOutLandingTests {
  /// The query parameter `name` of `url`.
  static func parameter(_ name: String, of url: String) -> String? {
    URLComponents(string: url)?.queryItems?.first { $0.name == name }?.value
  }

  /// `url` with its query parameter `name` set to `value`, or removed when nil.
  static func replacing(_ name: String, with value: String?, in url: String) throws -> String {
    var components = try #require(URLComponents(string: url))
    var items = (components.queryItems ?? []).filter { $0.name != name }
    if let value { items.append(URLQueryItem(name: name, value: value)) }
    components.queryItems = items
    return try #require(components.string)
  }

  /// `authtui logout ACCOUNT` with a test browser that keeps the last page it shows: what
  /// logout said on its three lines of stderr, its stdout, and that page once the browser wrote
  /// it (after reading the answer, which logout does not wait for).
  static func logOut(_ account: String, _ cli: CLIHarness) async throws -> (
    said: [String], stdout: String, lastPage: String
  ) {
    let page = cli.folder.file("last-page.html")
    let logout = try await cli.run(["logout", account], ["AUTHTUI_TEST_BROWSER_PAGE_FILE": page])
    #expect(logout.status == 0, "\(logout.stderr)")
    let said = logout.stderr.split(separator: "\n").map(String.init)
    #expect(said.count == 3, "\(said)")
    try await waitUntil("the test browser wrote its last page") {
      FileManager.default.fileExists(atPath: page)
    }
    return (said, logout.stdout, try String(contentsOfFile: page, encoding: .utf8))
  }

  @Test func logoutOpensTheSignOutPageAndTheProviderReturnsTheBrowserToTheSignedOutPage()
    async throws
  {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    let (said, stdout, seen) = try await Self.logOut("sandbox/alice", cli)
    #expect(said.first?.hasPrefix("Waiting up to 10 seconds for $BROWSER (") == true)
    #expect(
      said.dropFirst().first?.hasPrefix("Opened the provider's sign-out page with $BROWSER (")
        == true)
    #expect(said.last == "The provider signed the browser out and sent it back to authtui.")
    #expect(
      stdout
        == "Signed out of sandbox/alice: the provider revoked its tokens, and it was removed here.\n"
    )
    // The browser's last page is authtui's landing, reached after the provider's confirmation.
    #expect(seen.contains("<h1>Signed out</h1>"))
    #expect(
      seen.contains(
        "sandbox/alice is signed out: the provider ended its session in this browser"))
    let log = try String(contentsOfFile: cli.folder.file("browser.log"), encoding: .utf8)
    let steps = log.split(separator: "\n").map(String.init)
    let endSession = try #require(steps.firstIndex { $0.contains("POST /oidc/end_session 302") })
    #expect(steps[(endSession + 1)...].contains { $0.hasSuffix("GET /callback 200") })
    #expect(await cli.stat("end_sessions") == 1)
    #expect(try await cli.accounts().isEmpty)
    await cli.stop()
  }

  @Test func aReturnWithATamperedOrMissingStateShowsAnErrorAndTheRightOneStillCounts()
    async throws
  {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "bob")
    try await TmuxSession.run(
      "\(Products.authtui) logout sandbox/bob --no-browser; echo EXIT=$?", columns: 200,
      environment: cli.environmentChanges
    ) { session in
      // The deletion did not wait for the browser: the account is gone already.
      let screen = try await session.waitFor("/sign-out/", timeout: .seconds(60))
      #expect(try await cli.accounts().isEmpty)
      let line = try #require(screen.first { $0.contains("/sign-out/") })
      let address = try #require(URL(string: line.trimmingCharacters(in: .whitespaces)))
      let first = await RawHTTPClient.request(
        "GET", address.path, port: UInt16(try #require(address.port)))
      #expect(first.status == 303)
      let location = try #require(first.header("Location"))
      let landing = try #require(Self.parameter("post_logout_redirect_uri", of: location))
      #expect(landing == "http://127.0.0.1:\(try #require(address.port))/callback")
      let state = try #require(Self.parameter("state", of: location))
      #expect(state.count == 43)

      // The provider returns whatever state it was given: a tampered one, or none.
      for tampered in [
        try Self.replacing("state", with: "tampered", in: location),
        try Self.replacing("state", with: nil, in: location),
      ] {
        let visit = await ScriptedBrowser(script: .init()).visit(tampered)
        #expect(visit.steps.last == "GET /callback 400")
        #expect(visit.finalBody.contains("<h1>Sign-out not confirmed</h1>"))
        #expect(!visit.finalBody.contains("is signed out"))
      }
      #expect(await cli.stat("end_sessions") == 2)
      let waiting = try await session.capture()
      #expect(waiting.contains { $0.contains("The provider's sign-out page was opened.") })
      #expect(!waiting.contains { $0.contains("EXIT=") || $0.contains("sent it back") })

      // The untampered return is still awaited, and ends the wait.
      let visit = await ScriptedBrowser(script: .init()).visit(location)
      #expect(visit.steps.last == "GET /callback 200")
      #expect(visit.finalBody.contains("sandbox/bob is signed out"))
      let done = try await session.waitFor("EXIT=", timeout: .seconds(60))
      #expect(done.contains("EXIT=0"))
      #expect(done.contains("The provider signed the browser out and sent it back to authtui."))
    }
    await cli.stop()
  }

  @Test func aLandingPortTakenByAnotherProgramIsSaidAndTheProviderKeepsItsPage() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "carol")
    // Another program holds the port the registration names for the return.
    let other = try LoopbackServer(port: 0, configuration: .callback) { _ in
      .text("someone else\n", status: 200)
    }
    let file = cli.folder.file("config/providers/sandbox.json")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    try text.replacingOccurrences(of: "{\n", with: "{\n  \"redirect_port\": \(other.port),\n")
      .write(toFile: file, atomically: true, encoding: .utf8)
    let (said, _, seen) = try await Self.logOut("sandbox/carol", cli)
    #expect(
      said.first
        == "Port \(other.port) is in use by another program, so authtui cannot show the page "
        + "the provider returns to after signing out; the provider keeps its own page open "
        + "instead.")
    #expect(said.last?.hasPrefix("Opened the provider's sign-out page with $BROWSER (") == true)
    // Asked for no return, the provider ends on its own page.
    #expect(seen.contains("You are signed out."))
    #expect(await cli.stat("end_sessions") == 1)
    await other.stop()
    await cli.stop()
  }

  /// Issue 28: a browser that never fetches the one-time address does not make logout seem to
  /// hang. Logout says at once that it waits for the browser, gives up on the fetch (at most
  /// 10 s; not timed here), says so, and the address then no longer works.
  @Test func aBrowserThatNeverFetchesThePageIsSaidAtOnceAndGivenUpOn() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "dora")
    // A "browser" that takes the address and never loads it.
    let taken = cli.folder.file("taken-address")
    let browser = cli.folder.file("lazy-browser")
    try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(taken)'\n".write(
      toFile: browser, atomically: true, encoding: .utf8)
    #expect(chmod(browser, 0o755) == 0)
    let logout = try await cli.run(["logout", "sandbox/dora"], ["BROWSER": browser])
    #expect(logout.status == 0, "\(logout.stderr)")
    let said = logout.stderr.split(separator: "\n").map(String.init)
    #expect(said.count == 2, "\(said)")
    #expect(
      said.first
        == "Waiting up to 10 seconds for $BROWSER (\(browser)) to open the provider's sign-out "
        + "page (Ctrl-C skips)…")
    #expect(
      said.last
        == "$BROWSER (\(browser)) did not open the provider's sign-out page within 10 seconds; "
        + "sign out on the provider's site to end the browser session there too.")
    #expect(
      logout.stdout
        == "Signed out of sandbox/dora: the provider revoked its tokens, and it was removed here.\n"
    )
    #expect(try await cli.accounts().isEmpty)
    // The browser was given the one-time address, which nobody fetched and which is closed now.
    let line = try String(contentsOfFile: taken, encoding: .utf8)
    let address = try #require(URL(string: line.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(address.path.hasPrefix("/sign-out/"))
    let late = await RawHTTPClient.request(
      "GET", address.path, port: UInt16(try #require(address.port)))
    #expect(late.status != 303)
    #expect(await cli.stat("end_sessions") == 0)
    await cli.stop()
  }
}
