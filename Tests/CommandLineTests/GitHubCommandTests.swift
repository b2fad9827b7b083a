import Foundation
import Sandbox
import TestSupport
import Testing

/// The `github` preset through the built binary, against the sandbox's `github` profile: the
/// device flow (the person types the code, since GitHub gives no `verification_uri_complete`),
/// the account it makes, and a sign-out that cannot revoke.
@Suite struct GitHubCommandTests {
  /// `login github --json`, the test browser typing the code from the `user_code` event as
  /// `user`; returns the events and the exit status.
  func deviceLogin(_ cli: CLIHarness, as user: String) async throws -> (
    events: [String], status: Int32?
  ) {
    let codeFile = cli.folder.file("github-code-\(user)")
    var environment = cli.environment
    environment["AUTHTUI_TEST_BROWSER_USER"] = user
    environment["AUTHTUI_TEST_BROWSER_USER_CODE_FILE"] = codeFile
    let login = try RunningChild(
      Products.authtui, ["login", "github", "--json"], environment: environment)
    let event = try #require(await login.nextLine(timeout: 30))
    let code = try #require(
      (try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any])?["user_code"]
        as? String)
    _ = try cli.folder.write(code, to: "github-code-\(user)")
    var events = [event]
    while let line = await login.nextLine(timeout: 30) { events.append(line) }
    return (events, await login.wait(timeout: 30))
  }

  @Test func signsInWithTheDeviceFlowAndSignsOutPointingAtTheApplicationSettings() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "github", "device_interval": 1}"#)
    let (events, status) = try await deviceLogin(cli, as: "octocat")
    #expect(status == 0, "\(events)")
    #expect(events.first?.contains(#""verification_uri_complete":null"#) == true)
    #expect(events.last == #"{"event":"signed_in","account":"github/octocat","expires_at":null}"#)

    let accounts = try await cli.accounts()
    #expect(accounts.map { $0["account"] as? String } == ["github/octocat"])
    #expect(accounts.first?["refreshable"] as? Bool == false)
    #expect(accounts.first?["expires_at"] is NSNull)
    #expect(accounts.first?["status"] as? String == "valid")
    #expect(await cli.stat("identity_requests") == 1)

    // git over HTTPS: the helper answers with the login as user name and the token as
    // password, the pair GitHub takes for a token on the command line.
    try cli.folder.write(
      #"{"git": {"https://github.com": "github/octocat"}}"#, to: "config/config.json")
    let token = try await cli.run(["token", "github/octocat"])
    let credential = try await cli.run(
      ["git-credential", "get"], input: "protocol=https\nhost=github.com\n\n")
    #expect(credential.status == 0, "\(credential.stderr)")
    #expect(credential.stdout == "username=octocat\npassword=\(token.stdout)")

    // GitHub revokes only with the client secret: sign-out is local, and says where to go.
    let logout = try await cli.run(["logout", "github/octocat"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(
      logout.stdout
        == "Removed github/octocat. This provider cannot revoke tokens from here: withdraw "
        + "authtui's access at https://github.com/settings/applications.\n")
    #expect(await cli.stat("revocations") == 0)
    await cli.stop()
  }

  /// Guards `refresh_requires_client_secret` as a provider file sets it: against expiring
  /// user tokens whose refresh needs the secret, the account is not refreshable, login says
  /// until when it holds, and a token wanted past that asks for a new sign-in without a
  /// refresh being tried. Without the line, authtui would keep the refresh token, list the
  /// account as refreshable and send a refresh GitHub refuses.
  @Test func anExpiringTokenWhoseRefreshNeedsTheSecretAsksForANewSignIn() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook(
      "settings",
      #"{"profile": "github", "device_interval": 1, "access_token_lifetime": 28800, "refresh_token_lifetime": 15897600, "refresh_needs_client_secret": true}"#
    )
    let file = cli.folder.file("config/providers/github.json")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    try Data(("{\"refresh_requires_client_secret\": true," + text.dropFirst()).utf8).write(
      to: URL(fileURLWithPath: file))
    let (events, status) = try await deviceLogin(cli, as: "octocat")
    #expect(status == 0, "\(events)")
    #expect(
      events.last?.hasPrefix(#"{"event":"signed_in","account":"github/octocat","expires_at":""#)
        == true)

    let accounts = try await cli.accounts()
    #expect(accounts.first?["refreshable"] as? Bool == false)
    #expect(accounts.first?["expires_at"] is String)

    let late = try await cli.run(["token", "github/octocat", "--min-valid", "100000"])
    #expect(late.status == 5)
    #expect(late.stdout.isEmpty)
    // The minutes left depend on how long the test took so far.
    let said = late.stderr.replacingOccurrences(
      of: #"expires in \d+ min"#, with: "expires in N min", options: .regularExpression)
    #expect(
      said
        == "authtui: github/octocat's token runs out too soon (it expires in N min) and the "
        + "provider gives no refresh token; sign in again with `authtui login github --label "
        + "octocat`\n")
    #expect(await cli.stat("refreshes") == 0)
    #expect(await cli.stat("failed_refreshes") == 0)
    await cli.stop()
  }

  /// GitHub's expiring user tokens say `refresh_token_expires_in`: the account lists until
  /// when its refresh token works, and each rotation brings the new token's end.
  @Test func anExpiringUserTokensRefreshTokenEndMovesWithEachRotation() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook(
      "settings",
      #"{"profile": "github", "device_interval": 1, "access_token_lifetime": 28800, "refresh_token_lifetime": 15897600}"#
    )
    /// Whether the listed end is `lifetime` after a moment from `start` to now (the list has
    /// whole seconds).
    func refreshEnds(_ lifetime: TimeInterval, after start: Date) async throws -> Bool {
      let text = try #require(try await cli.accounts().first?["refresh_expires_at"] as? String)
      let end = try #require(ISO8601DateFormatter().date(from: text))
      let received = end.addingTimeInterval(-lifetime)
      return received >= start.addingTimeInterval(-1) && received <= Date()
    }
    let signIn = Date()
    let (events, status) = try await deviceLogin(cli, as: "octocat")
    #expect(status == 0, "\(events)")
    #expect(try await refreshEnds(15_897_600, after: signIn))
    // GitHub now issues refresh tokens of a day: the rotated one's end is the new one's.
    await cli.hook("settings", #"{"profile": "github", "refresh_token_lifetime": 86400}"#)
    let refresh = Date()
    let refreshed = try await cli.run(["token", "github/octocat", "--min-valid", "100000"])
    #expect(refreshed.status == 0, "\(refreshed.stderr)")
    #expect(try await refreshEnds(86_400, after: refresh))
    #expect(await cli.stat("refreshes") == 1)
    await cli.stop()
  }
}
