import Accounts
import AuthCore
import Foundation
import Providers
import Sandbox
import TestSupport
import Testing
import Vault

/// The `gitlab` preset in-process, through the catalog and the account book, against the
/// sandbox's GitLab profile: what the command-line tests cannot see (the granted scopes, the
/// tokens a refresh retires).
@Suite struct GitLabPresetTests {
  @Test func asksForGitLabsScopesWithoutOfflineAccessAndGetsARefreshTokenAnyway() async throws {
    let harness = try await AccountsHarness.start()
    let account = try await harness.signIn("gitlab", as: "alice")
    // Guards `"scopes"` of gitlab.json: without it the sign-in asks for no scope and GitLab
    // grants only `openid`, so git over HTTPS (read/write_repository) and the API would be
    // refused; with the template's `offline_access` GitLab refuses the request (invalid_scope).
    #expect(
      account.tokens.scopes == [
        "openid", "profile", "email", "read_user", "read_api", "read_repository",
        "write_repository",
      ])
    #expect(account.tokens.refreshToken != nil)
    #expect(account.label == "alice")
    #expect(account.subject?.allSatisfy(\.isNumber) == true)
    await harness.stop()
  }

  @Test func refusesTheOldRefreshAndAccessTokensOnceARefreshRotatedThem() async throws {
    let harness = try await AccountsHarness.start()
    let account = try await harness.signIn("gitlab", as: "alice")
    let oldRefresh = try #require(account.tokens.refreshToken)
    let oldAccess = try #require(account.tokens.accessToken)
    let refreshed = try await harness.book.refresh(account.id, startedAt: Date())
    #expect(refreshed.tokens.refreshToken != oldRefresh)
    #expect(refreshed.tokens.accessToken != oldAccess)

    let client = try await harness.book.client(for: "gitlab")
    let reused = await #expect(throws: AuthError.self) { try await client.refresh(oldRefresh) }
    guard case .refreshTokenRejected? = reused else {
      Issue.record("expected the old refresh token refused, got \(String(describing: reused))")
      return
    }
    // The old access token died with the refresh; the new one works.
    await #expect(throws: AuthError.self) {
      try await client.userinfo(accessToken: oldAccess, expectedSubject: nil)
    }
    let claims = try await client.userinfo(
      accessToken: try #require(refreshed.tokens.accessToken), expectedSubject: account.subject)
    #expect(claims.keys.contains("nickname"))
    // Refused, not treated as a theft: the newest refresh token still works.
    let again = try await harness.book.refresh(account.id, startedAt: Date())
    #expect(again.tokens.refreshToken != refreshed.tokens.refreshToken)
    #expect(await harness.stat(.reuseDetections) == 0)
    await harness.stop()
  }
}
