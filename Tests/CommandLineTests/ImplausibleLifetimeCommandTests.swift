import Foundation
import TestSupport
import Testing
import Vault

/// A provider that answers `"expires_in": 1e300` (or 9.3e18, past `Int.max`): the sign-in
/// works and says the lifetime was taken as ten years, and `list`, `export`, `exec` and
/// `token` work with that account, locally and through the agent.
@Suite struct ImplausibleLifetimeCommandTests {
  /// Hivesigner's token answer, as the sandbox's fault gives it (Hivesigner names the account
  /// in the answer, so nothing else is asked of the provider).
  static func answer(expiresIn: String) -> String {
    let body = #"{"access_token":"hs-token","username":"alice","expires_in":\#(expiresIn)}"#
    let quoted = body.replacingOccurrences(of: "\"", with: "\\\"")
    return
      #"{"path":"/hivesigner/api/oauth2/token","kind":"answer","status":200,"body":"\#(quoted)"}"#
  }

  /// The whole seconds since 1970 ten years after now, give or take a day (the test may run
  /// slowly, and a day is far from 1e300).
  static func aboutTenYearsFromNow(_ text: String) -> Bool {
    guard let seconds = Double(text) else { return false }
    let expected = Date().timeIntervalSince1970 + 315_360_000
    return abs(seconds - expected) < 86_400
  }

  @Test(arguments: ["1e300", "9.3e18"])
  func aLifetimeOfCenturiesIsTakenAsTenYearsAndEveryCommandWorks(_ stated: String)
    async throws
  {
    let cli = try await CLIHarness.start()
    #expect(await cli.hook("fault", Self.answer(expiresIn: stated)).status == 200)
    let login = try await cli.login("hivesigner")
    #expect(
      login.stderr.contains(
        "authtui: the provider gave the token a lifetime of more than ten years, which is not "
          + "plausible; authtui takes it as ten years (until "), "\(login.stderr)")
    #expect(login.stdout.contains("Signed in as hivesigner/alice. The token is valid until 20"))

    let rows = try await cli.accounts()
    let expiresAt = try #require(rows.first?["expires_at"] as? String)
    let expiry = try #require(ISO8601DateFormatter().date(from: expiresAt))
    #expect(Self.aboutTenYearsFromNow(String(expiry.timeIntervalSince1970)))
    let list = try await cli.run(["list"])
    #expect(list.status == 0)
    #expect(list.stdout.contains(expiresAt), "\(list.stdout)")

    let envFile = cli.folder.file("hivesigner.env")
    let export = try await cli.run(["export", "hivesigner", "--env-file", envFile])
    #expect(export.status == 0, "\(export.stderr)")
    let written = try String(contentsOfFile: envFile, encoding: .utf8)
    let line = written.split(separator: "\n").first { $0.hasPrefix("HIVESIGNER_TOKEN_EXPIRES_AT=") }
    let value = line.map { $0.dropFirst("HIVESIGNER_TOKEN_EXPIRES_AT=".count) }
    #expect(value.map { Self.aboutTenYearsFromNow($0.trimmingCharacters(in: ["'"])) } == true)

    let exec = try await cli.run(
      ["exec", "hivesigner", "--", "sh", "-c", #"echo "$AUTHTUI_TOKEN_EXPIRES_AT""#])
    #expect(exec.status == 0, "\(exec.stderr)")
    #expect(Self.aboutTenYearsFromNow(exec.stdout.trimmingCharacters(in: .newlines)))
    #expect(try await cli.run(["token", "hivesigner"]).stdout == "hs-token\n")

    // Through the agent: the same answers.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let viaAgent = try await cli.run(
      ["exec", "hivesigner", "--", "sh", "-c", #"echo "$AUTHTUI_TOKEN_EXPIRES_AT""#])
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    #expect(viaAgent.stdout == exec.stdout)
    let exportViaAgent = try await cli.run(["export", "hivesigner", "--env-file", envFile])
    #expect(exportViaAgent.status == 0, "\(exportViaAgent.stderr)")
    #expect(try String(contentsOfFile: envFile, encoding: .utf8) == written)
    _ = await agent.stop()
    await cli.stop()
  }

  @Test func anExpiryStoredBeyondAnyYearByAnOlderVersionIsReadAsTenYears() async throws {
    let cli = try await CLIHarness.start()
    let obtained = Date()
    try await cli.workspace.withVault { vault in
      var tokens = TokenSet(accessToken: "hs-token", obtainedAt: obtained)
      tokens.expiresAt = Date(timeIntervalSince1970: 1e300)
      _ = try await vault.insert(NewAccount(providerID: "hivesigner", label: "bob", tokens: tokens))
    }
    let tenYears = String(Int(obtained.timeIntervalSince1970 + 315_360_000))
    let list = try await cli.run(["list"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("hivesigner/bob  valid   20"), "\(list.stdout)")
    let exec = try await cli.run(
      ["exec", "hivesigner/bob", "--", "sh", "-c", #"echo "$AUTHTUI_TOKEN_EXPIRES_AT""#])
    #expect(exec.status == 0, "\(exec.stderr)")
    #expect(exec.stdout == tenYears + "\n")
    let envFile = cli.folder.file("bob.env")
    let export = try await cli.run(["export", "hivesigner/bob", "--env-file", envFile])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(
      try String(contentsOfFile: envFile, encoding: .utf8)
        == "HIVESIGNER_TOKEN='hs-token'\nHIVESIGNER_TOKEN_EXPIRES_AT='\(tenYears)'\n")
    await cli.stop()
  }
}
