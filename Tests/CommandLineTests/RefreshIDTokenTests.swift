import Foundation
import TestSupport
import Testing

/// A refresh answer that carries an id_token (as Google's and Keycloak's do): it is checked
/// (OIDC Core §12.2), and what the check finds never costs the rotated refresh token the
/// provider has just issued.
@Suite struct RefreshIDTokenTests {
  static let longer = ["token", "sandbox/alice", "--min-valid", "86400"]

  static func start(_ kind: String) async throws -> CLIHarness {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    await cli.hook("settings", #"{"profile": "oidc", "refresh_id_token": "\#(kind)"}"#)
    return cli
  }

  @Test func anIDTokenOfTheSameUserIsTakenWithItsTokens() async throws {
    let cli = try await Self.start("same")
    for round in 1...2 {
      let token = try await cli.run(Self.longer)
      #expect(token.status == 0, "\(token.stderr)")
      #expect(await cli.stat("refreshes") == round)
    }
    #expect(await cli.stat("reuse_detections") == 0)
    await cli.stop()
  }

  /// A signature that does not verify (a key the client has not fetched yet): the provider
  /// rotated the refresh token all the same, and the next refresh must send the new one.
  @Test func anIDTokenThatFailsItsCheckKeepsTheRotatedRefreshToken() async throws {
    let cli = try await Self.start("bad_signature")
    for round in 1...2 {
      let token = try await cli.run(Self.longer)
      #expect(token.status == 0, "\(token.stderr)")
      #expect(token.stderr == "")
      #expect(await cli.stat("refreshes") == round)
    }
    #expect(await cli.stat("reuse_detections") == 0)
    #expect(await cli.stat("failed_refreshes") == 0)
    await cli.stop()
  }

  /// An id_token of another user: its tokens are not used, and the account needs a sign-in.
  @Test func anIDTokenOfAnotherUserIsRefusedAndTheAccountNeedsASignIn() async throws {
    let cli = try await Self.start("other_user")
    let token = try await cli.run(Self.longer)
    #expect(token.status == 5)
    #expect(token.stdout == "")
    #expect(
      token.stderr
        == "authtui: the provider's answer to sandbox/alice's refresh named another user than "
        + "the one signed in (its id_token's subject changed), so its tokens were not used and "
        + "sandbox/alice's were cleared: sign in again with `authtui login sandbox --label "
        + "alice`\n")
    let accounts = try await cli.accounts()
    #expect(accounts.first?["status"] as? String == "sign_in_needed", "\(accounts)")
    await cli.stop()
  }
}
