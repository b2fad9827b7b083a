import Foundation
import Sandbox
import TestSupport
import Testing

/// The `gitlab` preset through the built binaries against the sandbox's GitLab profiles: the
/// provider files `authtui demo` writes point `gitlab` at `/gitlab` (GitLab.com, 17.1 or later)
/// and `work-gitlab` at `/gitlab-self-managed` (an older self-managed instance) by their
/// `issuer` alone, as a user points the preset at a self-managed instance.
@Suite struct GitLabCommandTests {
  @Test func signsInWithBothFlowsRefreshesWithRotationAndRevokesOnSignOut() async throws {
    let cli = try await CLIHarness.start()
    // Guards `"flows": ["pkce", "device"]` of gitlab.json: without "device" the second sign-in
    // is refused as a flow GitLab does not offer.
    for (user, flow) in [("alice", "pkce"), ("bob", "device")] {
      let result = try await cli.login("gitlab", as: user, ["--flow", flow])
      #expect(result.stdout.hasPrefix("Signed in as gitlab/\(user)."), "\(result.stderr)")
    }
    let accounts = try await cli.accounts()
    #expect(accounts.map { $0["account"] as? String } == ["gitlab/alice", "gitlab/bob"])
    #expect(accounts.allSatisfy { $0["refreshable"] as? Bool == true })

    // Each refresh rotates the refresh token; the stored one is always the newest, so a
    // second refresh is accepted (GitLab refuses a refresh token used once).
    let first = try await cli.run(["token", "gitlab/alice"])
    for expected in 1...2 {
      let refreshed = try await cli.run(["token", "gitlab/alice", "--min-valid", "100000"])
      #expect(refreshed.status == 0, "\(refreshed.stderr)")
      #expect(refreshed.stdout != first.stdout)
      #expect(await cli.stat("refreshes") == expected)
    }
    #expect(await cli.stat("failed_refreshes") == 0)

    // RFC 7009 revocation at /oauth/revoke with client_id only: both tokens.
    let logout = try await cli.run(["logout", "gitlab/alice"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stdout.contains("the provider revoked its tokens"))
    #expect(!logout.stderr.contains("sign-out page"))
    #expect(await cli.stat("revocations") == 2)
    await cli.stop()
  }

  @Test func namesTheAccountAfterItsGitLabUserNameFromUserinfo() async throws {
    let cli = try await CLIHarness.start()
    // The older instance's userinfo has `nickname` but no `preferred_username`, and GitLab's
    // id_token carries neither (its `sub` is a number): guards `"label": ["nickname", …]` in
    // gitlab.json's identity, without which the account would be named by its e-mail address.
    try await cli.login("work-gitlab", as: "carol")
    try await cli.login("gitlab", as: "dan")
    let accounts = try await cli.accounts()
    #expect(accounts.map { $0["account"] as? String } == ["gitlab/dan", "work-gitlab/carol"])
    await cli.stop()
  }

  @Test func refusesTheDeviceFlowOnAnInstanceWhoseDiscoveryHasNoDeviceEndpoint() async throws {
    let cli = try await CLIHarness.start()
    let refused = try await cli.run(
      ["login", "work-gitlab", "--flow", "device"], ["AUTHTUI_TEST_BROWSER_USER": "erin"])
    #expect(refused.status == 2)
    let issuer = "http://127.0.0.1:\(cli.workspace.port)\(SandboxPaths.gitLabSelfManaged.issuer)"
    #expect(
      refused.stderr.contains(
        "GitLab (work) does not offer the device flow: the discovery document of \(issuer) "
          + "lists no device_authorization_endpoint (the server may be too old for it); sign in "
          + "with the browser instead (`--flow pkce`), or add device_authorization_endpoint to "
          + "the provider file if the server has one."), "\(refused.stderr)")
    #expect(await cli.stat("device_authorizations") == 0)
    #expect(try await cli.accounts().isEmpty)
    // The browser flow of the same instance works.
    let browser = try await cli.login("work-gitlab", as: "erin", ["--flow", "pkce"])
    #expect(browser.stdout.hasPrefix("Signed in as work-gitlab/erin."))
    await cli.stop()
  }
}
