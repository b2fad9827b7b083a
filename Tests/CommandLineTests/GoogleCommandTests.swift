import Foundation
import Sandbox
import TestSupport
import Testing

/// The `google` preset through the built binaries against the sandbox's Google profile, with
/// the provider file `authtui demo` writes: the preset, the sandbox's issuer, the client id and
/// the Desktop app's client secret.
@Suite struct GoogleCommandTests {
  static let secret = SandboxProfile.googleClientSecret

  @Test func signsInRefreshesWithoutRotationAndRevokesOnSignOut() async throws {
    let cli = try await CLIHarness.start()
    // Guards `"client_secret_required": true` of google.json (without it the file's secret is
    // refused and no sign-in starts) and `"access_type": "offline"` (without it Google sends
    // no refresh token, and the account is not refreshable).
    let login = try await cli.login("google", as: "alice")
    #expect(login.stdout.hasPrefix("Signed in as google/alice@example.com."), "\(login.stderr)")
    let accounts = try await cli.accounts()
    #expect(accounts.map { $0["account"] as? String } == ["google/alice@example.com"])
    #expect(accounts.first?["refreshable"] as? Bool == true)

    // Google's refresh answers carry no refresh token: the one from the sign-in stays and
    // serves every later refresh.
    let first = try await cli.run(["token", "google/alice@example.com"])
    for expected in 1...2 {
      let refreshed = try await cli.run(
        ["token", "google/alice@example.com", "--min-valid", "100000"])
      #expect(refreshed.status == 0, "\(refreshed.stderr)")
      #expect(refreshed.stdout != first.stdout)
      #expect(await cli.stat("refreshes") == expected)
    }
    #expect(await cli.stat("failed_refreshes") == 0)

    // Revoking the refresh token ends the grant; Google then answers `400 invalid_token` for
    // the access token, which is no failure.
    let logout = try await cli.run(["logout", "google/alice@example.com"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stdout.contains("the provider revoked its tokens"))
    #expect(await cli.stat("revocations") == 1)
    #expect(try await cli.accounts().isEmpty)
    await cli.stop()
  }

  /// Guards `refresh_token_lifetime` as the user of a "Testing" app sets it: the refresh
  /// token's end counts from the sign-in, a refresh (which brings no refresh token) keeps it,
  /// and past it the sandbox, as Google, refuses the refresh token, which asks for a sign-in.
  @Test func aTestingAppsSevenDayRefreshTokenIsListedUntilItEnds() async throws {
    let cli = try await CLIHarness.start()
    let file = cli.folder.file("config/providers/google.json")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    try Data(("{\"refresh_token_lifetime\": 604800," + text.dropFirst()).utf8).write(
      to: URL(fileURLWithPath: file))
    let account = "google/alice@example.com"
    let before = Date().timeIntervalSince1970.rounded(.down)
    try await cli.login("google", as: "alice")
    let after = Date().timeIntervalSince1970
    func refreshEnd() async throws -> TimeInterval? {
      let text = try await cli.accounts().first?["refresh_expires_at"] as? String
      return text.flatMap { ISO8601DateFormatter().date(from: $0)?.timeIntervalSince1970 }
    }
    let end = try #require(try await refreshEnd())
    #expect(end >= before + 604_800 && end <= after + 604_800, "\(before) \(end) \(after)")
    #expect(try await cli.run(["list"]).stdout.contains("  until "))

    let refreshed = try await cli.run(["token", account, "--min-valid", "100000"])
    #expect(refreshed.status == 0, "\(refreshed.stderr)")
    #expect(await cli.stat("refreshes") == 1)
    #expect(try await refreshEnd() == end)

    // Eight days on, Google has ended the refresh token.
    await cli.hook("clock", #"{"advance_seconds": 691200}"#)
    let refused = try await cli.run(["token", account, "--min-valid", "100000"])
    #expect(refused.status == 5, "\(refused.stderr)")
    #expect(refused.stderr.contains("authtui login google --label alice@example.com"))
    let status = try await cli.run(["status"])
    #expect(status.status == 1)
    #expect(status.stdout.contains("\n\(account): needs a new sign-in"), "\(status.stdout)")
    await cli.stop()
  }

  @Test func refusesATokenRequestWithoutTheClientSecretAsGoogleDoes() async throws {
    let cli = try await CLIHarness.start()
    // The generic OpenID template over Google's issuer: a public client, no secret.
    let issuer = "http://127.0.0.1:\(cli.workspace.port)\(SandboxPaths.Google.issuer)"
    _ = try cli.folder.write(
      #"{"preset": "oidc", "name": "Google without secret", "issuer": "\#(issuer)", "#
        + #""client_id": "sandbox-client", "scopes": ["openid", "email"], "login_timeout": 10}"#,
      to: "config/providers/plain-google.json")
    let refused = try await cli.run(["login", "plain-google", "--json"])
    #expect(refused.status != 0)
    #expect(refused.stdout.contains("invalid_request"), "\(refused.stdout)")
    #expect(await cli.stat("failed_exchanges") == 0)
    #expect(await cli.stat("exchanges") == 0)
    #expect(try await cli.accounts().isEmpty)
    await cli.stop()
  }

  @Test func keepsTheClientSecretOutOfEveryOutputAndTheBrowsersArguments() async throws {
    let cli = try await CLIHarness.start()
    let argv = cli.folder.file("browser-argv")
    var outputs = [
      try await cli.run(
        ["login", "google", "--json"], ["AUTHTUI_TEST_BROWSER_ARGV_FILE": argv])
    ]
    let account = "google/alice@example.com"
    for arguments in [
      ["token", account, "--min-valid", "100000"], ["list"], ["list", "--json"],
      ["status"], ["status", "--json"], ["providers"], ["providers", "--json"],
      ["export", account], ["logout", account],
    ] {
      outputs.append(try await cli.run(arguments))
    }
    #expect(outputs.first?.status == 0, "\(outputs.first?.stderr ?? "")")
    for output in outputs {
      #expect(!output.stdout.contains(Self.secret))
      #expect(!output.stderr.contains(Self.secret))
    }
    let browserArguments = (try? String(contentsOfFile: argv, encoding: .utf8)) ?? ""
    #expect(!browserArguments.isEmpty)
    #expect(!browserArguments.contains(Self.secret))
    await cli.stop()
  }
}
