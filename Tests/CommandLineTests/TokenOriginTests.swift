import Foundation
import TestSupport
import Testing

/// An account's refresh token goes back only to the server that issued it: a provider file
/// pointed at another server after the sign-in (`providers add --replace`, an edit) gets
/// neither a refresh nor a revocation of it, with the built binaries against the sandbox.
@Suite struct TokenOriginTests {
  /// sandbox/alice signed in, then its provider's token endpoint moved to a port where nothing
  /// listens: an attempt to send anything there would fail with exit 7, not be refused.
  private func movedProvider() async throws -> CLIHarness {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let path = cli.folder.file("config/providers/sandbox.json")
    var file = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
    file["token_endpoint"] = "http://127.0.0.1:1/token"
    try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
    return cli
  }

  @Test func aRefreshIsNotSentToAServerThatDidNotIssueTheToken() async throws {
    let cli = try await movedProvider()
    let port = cli.workspace.port
    let refused = try await cli.run(
      ["token", "sandbox/alice", "--min-valid", "100000"], ["AUTHTUI_NO_AGENT": "1"])
    #expect(refused.status == 5)
    #expect(
      refused.stderr
        == "authtui: sandbox/alice signed in at http://127.0.0.1:\(port), but its provider now "
        + "sends tokens to http://127.0.0.1:1, so its refresh token was not sent there (it goes "
        + "back only to the server that issued it); if the provider is right as it is now, sign "
        + "in again with `authtui login sandbox --label alice`\n")
    #expect(await cli.stat("refreshes") == 0)
    // Its tokens are as they were: the token still valid now is handed out.
    let stored = try await cli.storedToken("sandbox", "alice")
    let valid = try await cli.run(["token", "sandbox/alice"], ["AUTHTUI_NO_AGENT": "1"])
    #expect(valid.status == 0, "\(valid.stderr)")
    #expect(valid.stdout == (stored ?? "") + "\n")
    await cli.stop()
  }

  @Test func aSignOutSendsNothingToAServerThatDidNotIssueTheToken() async throws {
    let cli = try await movedProvider()
    let port = cli.workspace.port
    let signedOut = try await cli.run(["logout", "sandbox/alice", "--no-browser"])
    #expect(signedOut.status == 7)
    #expect(signedOut.stdout == "Removed sandbox/alice from this vault.\n")
    #expect(
      signedOut.stderr.hasPrefix(
        "authtui: the provider did not revoke sandbox/alice's tokens (it signed in at "
          + "http://127.0.0.1:\(port), but its provider now sends tokens to http://127.0.0.1:1, "
          + "where they were not sent.)"),
      "\(signedOut.stderr)")
    #expect(await cli.stat("revocations") == 0)
    #expect(try await cli.accounts().isEmpty)
    await cli.stop()
  }
}
