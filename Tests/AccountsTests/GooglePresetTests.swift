import Accounts
import AuthCore
import Foundation
import Providers
import Sandbox
import TestSupport
import Testing
import Vault

/// The `google` preset in-process against the sandbox's Google profile: what a refresh keeps,
/// and what the configuration carries.
@Suite struct GooglePresetTests {
  @Test func keepsTheSignInsRefreshTokenThroughEveryRefresh() async throws {
    let harness = try await AccountsHarness.start()
    let account = try await harness.signIn("google", as: "alice")
    #expect(account.label == "alice@example.com")
    #expect(account.subject?.allSatisfy(\.isNumber) == true)
    #expect(account.tokens.scopes == ["openid", "email", "profile"])
    let refreshToken = try #require(account.tokens.refreshToken)
    let refreshed = try await harness.book.refresh(account.id, startedAt: Date())
    #expect(refreshed.tokens.accessToken != account.tokens.accessToken)
    #expect(refreshed.tokens.refreshToken == refreshToken)
    let again = try await harness.book.refresh(account.id, startedAt: Date())
    #expect(again.tokens.refreshToken == refreshToken)
    #expect(await harness.stat(.refreshes) == 2)
    await harness.stop()
  }

  @Test func carriesTheClientSecretOnlyInTheConfigurationAndNeverPrintsIt() async throws {
    let harness = try await AccountsHarness.start()
    let configuration = try #require(harness.book.catalog.entry("google")?.configuration)
    #expect(configuration.clientSecret == ClientSecret(SandboxProfile.googleClientSecret))
    let printed = [
      "\(configuration)", String(reflecting: configuration),
      "\(String(describing: configuration.clientSecret))",
      {
        var text = ""
        dump(configuration, to: &text)
        return text
      }(),
    ]
    for text in printed {
      #expect(!text.contains(SandboxProfile.googleClientSecret))
    }
    await harness.stop()
  }
}
