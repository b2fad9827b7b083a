import Foundation
import Sandbox
import TestSupport
import Testing

/// What another local user can see and do during `login` and `logout`: the browser command's
/// argv (readable by everyone in `ps`) holds only a one-time loopback address, never `state`,
/// `code_challenge`, `nonce` or an id_token; a forged callback cannot end a sign-in; and a
/// one-time address someone else fetched first makes the sign-in start again.
@Suite struct OneTimeAddressCommandTests {
  static func events(_ stdout: String) -> [[String: Any]] {
    stdout.split(separator: "\n").map {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) ?? [:]
    }
  }

  /// The browser invocations recorded in `path`: each one's arguments.
  static func invocations(_ path: String) throws -> [[String]] {
    try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n\n")
      .filter { !$0.isEmpty }.map { $0.split(separator: "\n").map(String.init) }
  }

  /// The value of the query parameter `name` of `url`.
  static func parameter(_ name: String, of url: String) -> String? {
    URLComponents(string: url)?.queryItems?.first { $0.name == name }?.value
  }

  @Test func givesTheBrowserAOneTimeAddressAndNoneOfTheRequestsSecrets() async throws {
    let cli = try await CLIHarness.start()
    let argv = cli.folder.file("browser-argv")
    let result = try await cli.run(
      ["login", "sandbox", "--json"], ["AUTHTUI_TEST_BROWSER_ARGV_FILE": argv])
    #expect(result.status == 0, "\(result.stderr)")
    let events = Self.events(result.stdout)
    #expect(events.map { $0["event"] as? String } == ["authorize", "signed_in"])
    let url = try #require(events.first?["url"] as? String)
    let address = try #require(events.first?["one_time_url"] as? String)
    #expect(address.hasPrefix("http://127.0.0.1:"))
    #expect(address.contains("/sign-in/"))

    let secrets = try ["state", "code_challenge", "nonce"].map { name in
      try #require(Self.parameter(name, of: url), "\(name) in \(url)")
    }
    // The browser got an address of its own; the events' one is left for the program reading
    // them, so opening both is no second fetch.
    let invocations = try Self.invocations(argv)
    #expect(invocations.count == 1)
    let opened = try #require(invocations.first?.first)
    #expect(opened.hasPrefix("http://127.0.0.1:") && opened.contains("/sign-in/"))
    #expect(opened != address)
    let recorded = try String(contentsOfFile: argv, encoding: .utf8)
    for name in ["state=", "code_challenge", "nonce"] { #expect(!recorded.contains(name)) }
    for secret in secrets { #expect(!recorded.contains(secret)) }
    await cli.stop()
  }

  @Test func aForgedCallbackWithTheRightStateDoesNotEndTheLoginAndTheRealRedirectSignsIn()
    async throws
  {
    let cli = try await CLIHarness.start()
    let login = try RunningChild(
      Products.authtui, ["login", "sandbox", "--flow", "pkce", "--no-browser", "--json"],
      environment: cli.environment)
    let first = await login.nextLine(timeout: 60)
    let startErrors = await login.standardError()
    let line = try #require(first, "\(startErrors)")
    let authorize = try #require(Self.events(line).first)
    let url = try #require(authorize["url"] as? String)
    let state = try #require(Self.parameter("state", of: url))
    let redirectURI = try #require(Self.parameter("redirect_uri", of: url))
    let redirect = try #require(URL(string: redirectURI))
    let port = UInt16(try #require(redirect.port))

    // Another local user who read the state sends a code of their own, before the browser
    // (with the provider's public issuer, RFC 9207).
    let issuer = "http%3A%2F%2F127.0.0.1%3A\(cli.workspace.port)%2Foidc"
    let forged = await RawHTTPClient.request(
      "GET", "\(redirect.path)?code=bogus&state=\(state)&iss=\(issuer)", port: port)
    #expect(forged.status == 200)
    #expect(forged.body.contains("The sign-in in the terminal is still waiting"))

    let person = ScriptedBrowser(script: ScriptedBrowser.Script(username: "alice"))
    let visit = await person.visit(try #require(authorize["one_time_url"] as? String))
    // The browser's own wait for the last page is short; the outcome is the login's.
    #expect(visit.steps.first?.hasSuffix(" 303") == true, "\(visit)")
    let signedIn = try #require(await login.nextLine(timeout: 60))
    #expect(signedIn.hasPrefix(#"{"event":"signed_in","account":"sandbox/alice""#))
    #expect(await login.wait(timeout: 60) == 0)
    let errors = await login.standardError()
    #expect(errors.contains("A redirect's code could not be exchanged ("))
    #expect(errors.contains("still waiting for the browser's redirect."))
    await cli.stop()
  }

  @Test func startsAgainWithAFreshLinkWhenAnotherProgramOpenedTheLinkFirst() async throws {
    let cli = try await CLIHarness.start()
    let argv = cli.folder.file("browser-argv")
    // The first time, another program (a browser that only looks) fetches the address just
    // before the real browser, which then gets 410; the second time the browser is alone.
    let browser = cli.folder.file("browser.sh")
    try """
    #!/bin/sh
    if mkdir "$0.first" 2>/dev/null; then
      AUTHTUI_TEST_BROWSER_ACTION=ignore "\(Products.testBrowser)" "$1"
    fi
    exec "\(Products.testBrowser)" "$1"

    """.write(toFile: browser, atomically: true, encoding: .utf8)
    // Read by sh, not executed: a script just written can be "busy" (ETXTBSY) while a process
    // spawned by a parallel test still holds the writing descriptor.
    let result = try await cli.run(
      ["login", "sandbox", "--json"],
      ["BROWSER": "/bin/sh \(browser)", "AUTHTUI_TEST_BROWSER_ARGV_FILE": argv])
    let log = (try? String(contentsOfFile: cli.folder.file("browser.log"), encoding: .utf8)) ?? ""
    #expect(result.status == 0, "\(result.stderr)\n\(log)")
    let events = Self.events(result.stdout)
    #expect(events.map { $0["event"] as? String } == ["authorize", "restarted", "signed_in"])
    let first = try #require(events.first)
    let restarted = try #require(events.dropFirst().first)
    #expect(restarted["reason"] as? String == "address_fetched_twice")
    #expect(
      restarted["message"] as? String
        == "The sign-in link was opened twice, possibly by another program; started again "
        + "with a fresh link.")
    for name in ["state", "code_challenge", "nonce"] {
      let old = Self.parameter(name, of: try #require(first["url"] as? String))
      let new = Self.parameter(name, of: try #require(restarted["url"] as? String))
      #expect(old != nil && new != nil && old != new, "\(name)")
    }
    #expect(first["one_time_url"] as? String != restarted["one_time_url"] as? String)
    #expect(
      result.stderr.contains(
        "The sign-in link was opened twice, possibly by another program; started again with a "
          + "fresh link."))
    // The looker, the browser that got 410, and the browser opened again with a fresh address.
    let invocations = try Self.invocations(argv).map { $0.first ?? "" }
    #expect(invocations.count == 3)
    #expect(invocations.count == 3 && invocations[0] == invocations[1])
    #expect(invocations.count == 3 && invocations[1] != invocations[2])
    #expect(invocations.allSatisfy { $0.contains("/sign-in/") && !$0.contains("state=") })
    #expect(await cli.stat("exchanges") == 1)
    await cli.stop()
  }

  @Test func logoutPrintsNoIDTokenAndGivesTheBrowserAOneTimeAddress() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "alice")
    try await cli.login("sandbox", as: "bob")
    let argv = cli.folder.file("browser-argv")
    let logout = try await cli.run(
      ["logout", "sandbox/alice"], ["AUTHTUI_TEST_BROWSER_ARGV_FILE": argv])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stderr.contains("Opened the provider's sign-out page with $BROWSER"))
    // The browser runs on by itself after its first fetch: wait for it to confirm the sign-out.
    var endSessions = 0
    for _ in 0..<600 where endSessions == 0 {
      endSessions = await cli.stat("end_sessions")
      if endSessions == 0 { try await Task.sleep(nanoseconds: 100_000_000) }
    }
    #expect(endSessions == 1)
    let invocations = try Self.invocations(argv)
    #expect(invocations.count == 1)
    #expect(invocations.first?.first?.contains("/sign-out/") == true)
    let recorded = try String(contentsOfFile: argv, encoding: .utf8)
    for output in [logout.stdout, logout.stderr, recorded] {
      #expect(!output.contains("id_token"))
      // A JWT's header always starts so (`{"` in base64url).
      #expect(!output.contains("eyJ"))
    }

    // Without a browser the one-time address is printed on the terminal, and works once.
    try await TmuxSession.run(
      "\(Products.authtui) logout sandbox/bob --no-browser; echo EXIT=$?", columns: 200,
      environment: cli.environmentChanges
    ) { session in
      let screen = try await session.waitFor("/sign-out/", timeout: .seconds(60))
      #expect(screen.contains { $0.contains("(it works once;") })
      let line = try #require(screen.first { $0.contains("/sign-out/") })
      let address = try #require(URL(string: line.trimmingCharacters(in: .whitespaces)))
      let port = UInt16(try #require(address.port))
      let first = await RawHTTPClient.request("GET", address.path, port: port)
      #expect(first.status == 303)
      let location = try #require(first.header("Location"))
      #expect(location.contains("/oidc/end_session?id_token_hint="))
      // The person then confirms at the provider, which returns the browser to authtui.
      let visit = await ScriptedBrowser(script: .init()).visit(location)
      #expect(visit.finalStatus == 200 && visit.finalBody.contains("<h1>Signed out</h1>"))
      let done = try await session.waitFor("EXIT=", timeout: .seconds(60))
      #expect(done.contains("EXIT=0"))
      #expect(done.contains("The provider's sign-out page was opened."))
      #expect(!done.joined().contains("id_token"))
      #expect(!done.joined().contains("eyJ"))
    }
    await cli.stop()
  }
}
