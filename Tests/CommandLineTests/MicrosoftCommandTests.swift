import Foundation
import Sandbox
import TestSupport
import Testing
import Vault

/// The `microsoft` preset against the sandbox's Microsoft profile (`/microsoft/{tenant}/…`),
/// through the built binary and the test browser: both flows sign in, refresh (the refresh
/// token replaced every time) and sign out (the logout page and local deletion, no revocation).
@Suite struct MicrosoftCommandTests {
  static let consumerTenant = SandboxPaths.Microsoft.consumerTenant
  static let organizationTenant = SandboxPaths.Microsoft.organizationTenant

  /// The stored account `microsoft/LABEL`, read from the vault.
  func record(_ cli: CLIHarness, _ label: String) async throws -> AccountRecord? {
    try await cli.workspace.withVault { vault in
      try await vault.account(providerID: "microsoft", label: label)
    }
  }

  /// Adds `members` to the sandbox's `microsoft.json` (as a user file over the preset would).
  func override(_ cli: CLIHarness, _ members: [String: Any]) throws {
    let path = cli.folder.file("config/providers/microsoft.json")
    var object =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
      as? [String: Any] ?? [:]
    object.merge(members) { _, new in new }
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
  }

  /// Starts a device sign-in (`action`: the person's answer) and plays the person, who reads
  /// the code from the `user_code` event, since Microsoft sends no `verification_uri_complete`
  /// to carry it. Returns the event and the running login.
  func startDeviceSignIn(_ cli: CLIHarness, as user: String, action: String = "approve")
    async throws -> (event: [String: Any], login: RunningChild)
  {
    var environment = cli.environment
    environment["AUTHTUI_TEST_BROWSER_USER"] = user
    environment["AUTHTUI_TEST_BROWSER_ACTION"] = action
    environment["AUTHTUI_TEST_BROWSER_USER_CODE_FILE"] = cli.folder.file("device-code-\(user)")
    let login = try RunningChild(
      Products.authtui, ["login", "microsoft", "--flow", "device", "--json"],
      environment: environment)
    let line = try #require(await login.nextLine(timeout: 60))
    let event = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    try cli.folder.write(try #require(event["user_code"] as? String), to: "device-code-\(user)")
    return (event, login)
  }

  /// Guards `"tenant": ["tid"]` in microsoft.json's `identity` (and, through the sign-in, its
  /// `id_token_issuer_fields`).
  @Test func signsInThroughTheBrowserAtCommonAndKeepsTheSigningTenant() async throws {
    let cli = try await CLIHarness.start()
    let result = try await cli.login("microsoft", as: "alice")
    #expect(result.stdout.hasPrefix("Signed in as microsoft/alice."), "\(result.stderr)")
    let stored = try #require(try await record(cli, "alice"))
    #expect(stored.identity["tenant"] == Self.organizationTenant)
    #expect(stored.tokens.refreshToken != nil)
    #expect(await cli.stat("exchanges") == 1)
    // Scripts see it too.
    #expect(try await cli.accounts().first?["tenant"] as? String == Self.organizationTenant)
    await cli.stop()
  }

  @Test func signsInWithTheDeviceCodeAsAPersonalAccount() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "microsoft", "device_interval": 1}"#)
    let (event, login) = try await startDeviceSignIn(cli, as: "personal-bob")
    let signedIn = try #require(await login.nextLine(timeout: 60))
    #expect(await login.wait(timeout: 30) == 0)
    #expect(event["event"] as? String == "user_code")
    #expect((event["verification_uri"] as? String)?.hasSuffix("/microsoft/devicelogin") == true)
    #expect(
      event["verification_uri_complete"] is NSNull || event["verification_uri_complete"] == nil)
    #expect(
      signedIn.hasPrefix(#"{"event":"signed_in","account":"microsoft/personal-bob","#))
    let stored = try #require(try await record(cli, "personal-bob"))
    #expect(stored.identity["tenant"] == Self.consumerTenant)
    #expect(await cli.stat("device_tokens") == 1)
    await cli.stop()
  }

  /// Microsoft calls a denial `authorization_declined` (RFC 8628: `access_denied`); guards
  /// `error_aliases` in microsoft.json.
  @Test func aDeclinedDeviceCodeEndsTheSignInAsADenial() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "microsoft", "device_interval": 1}"#)
    let (_, login) = try await startDeviceSignIn(cli, as: "alice", action: "deny")
    let last = try #require(await login.nextLine(timeout: 60))
    let error = try #require(
      try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    #expect(error["error"] as? String == "access_denied", "\(last)")
    #expect(await login.wait(timeout: 30) == 6)
    await cli.stop()
  }

  /// Every refresh returns a new refresh token; the old one keeps working at Microsoft, so
  /// the sandbox counts its reuse: storing the new one means no reuse is ever counted.
  @Test func storesTheReplacedRefreshTokenOnEveryRefresh() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "microsoft", "access_token_lifetime": 30}"#)
    try await cli.login("microsoft", as: "alice")
    let first = try #require(try await record(cli, "alice")?.tokens.refreshToken)
    let refreshed = try await cli.run(["token", "microsoft/alice", "--min-valid", "60"])
    #expect(refreshed.status == 0, "\(refreshed.stderr)")
    let second = try #require(try await record(cli, "alice")?.tokens.refreshToken)
    #expect(second != first)
    #expect(try await cli.run(["token", "microsoft/alice", "--min-valid", "60"]).status == 0)
    let third = try #require(try await record(cli, "alice")?.tokens.refreshToken)
    #expect(third != second)
    #expect(await cli.stat("refreshes") == 2)
    #expect(await cli.stat("replaced_refresh_token_uses") == 0)
    await cli.stop()
  }

  /// No revocation endpoint: the logout page is opened, the account deleted here, and the
  /// message says the tokens stay valid. (The preset's `end_session_endpoint` line is guarded
  /// by `theMicrosoftPresetFillsItsTenantFieldWithCommonByDefault`: here the sandbox file and
  /// discovery name the sandbox's logout page too.)
  @Test func signsOutThroughTheLogoutPageAndSaysTheTokensAreNotRevoked() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("microsoft", as: "alice")
    let logout = try await cli.run(["logout", "microsoft/alice"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(
      logout.stdout
        == "Removed microsoft/alice from this vault. This provider cannot revoke tokens: its "
        + "sign-out page ends your browser session only, and tokens already issued stay valid "
        + "until they expire; to end them now, withdraw authtui's access at "
        + "https://myapps.microsoft.com/.\n")
    #expect(logout.stderr.contains("Opened the provider's sign-out page"))
    #expect(await cli.stat("revocations") == 0)
    // What the browser is sent to: Microsoft's logout page, which ends the browser session
    // and touches no token.
    let page = await RawHTTPClient.get(
      SandboxPaths.Microsoft.logout("common"), port: cli.workspace.port)
    #expect(RawHTTPClient.status(of: page) == 200)
    #expect(page.contains("You signed out of your account"))
    #expect(await cli.stat("end_sessions") >= 1)
    #expect(try await cli.accounts().isEmpty)
    await cli.stop()
  }

  @Test func aTenantFieldPointsEveryEndpointAtThatTenant() async throws {
    let cli = try await CLIHarness.start()
    try override(cli, ["fields": ["tenant": "consumers"]])
    let result = try await cli.login("microsoft", as: "personal-carol")
    #expect(result.stdout.hasPrefix("Signed in as microsoft/personal-carol."), "\(result.stderr)")
    let stored = try #require(try await record(cli, "personal-carol"))
    #expect(stored.identity["tenant"] == Self.consumerTenant)
    try override(cli, ["fields": ["tenant": "contoso.onmicrosoft.com"]])
    #expect(try await cli.login("microsoft", as: "dave").status == 0)
    #expect(try await record(cli, "dave")?.identity["tenant"] == Self.organizationTenant)
    await cli.stop()
  }

  /// A generic OpenID client pointed at `common` (the preset without
  /// `id_token_issuer_fields`) refuses Microsoft's templated issuer.
  @Test func aGenericOpenIDClientRefusesTheTemplatedIssuer() async throws {
    let cli = try await CLIHarness.start()
    let path = cli.folder.file("config/providers/microsoft.json")
    var object =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
      as? [String: Any] ?? [:]
    object["id_token_issuer_fields"] = nil
    object["preset"] = "oidc"
    object["fields"] = ["tenant": "common"]
    object["flows"] = ["pkce"]
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    let result = try await cli.run(["login", "microsoft"])
    #expect(result.status == 7, "\(result.stderr)")
    let base = try #require(
      (object["issuer"] as? String)?.components(separatedBy: "/microsoft/").first)
    #expect(
      result.stderr.contains(
        "The provider's discovery document names the issuer \(base)/microsoft/{tenantid}/v2.0, "
          + "not \(base)/microsoft/common/v2.0"), "\(result.stderr)")
    await cli.stop()
  }
}
