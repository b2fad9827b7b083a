import Accounts
import AuthCore
import Foundation
import Providers
import Sandbox
import TestSupport
import Testing
import Vault

/// A refresh whose answer comes too late: the request is given up before its lease lapses,
/// and nobody replays the refresh token it may have spent.
@Suite struct RefreshDeadlineTests {
  @Test func aRefreshDelayedPastItsLeaseCausesNoSecondRefresh() async throws {
    let harness = try await AccountsHarness.start()
    await harness.setAccessTokenLifetime(120)
    let account = try await harness.signIn()
    await harness.setAccessTokenLifetime(3600)
    // Two processes' books on the vault file: the first with a lease of 3 s whose request must
    // end after 2 s (the second as usual); the provider answers the first refresh after 8 s.
    let config = ConfigurationLocation(
      directory: URL(fileURLWithPath: harness.folder.file("config")))
    let other = try await Vault.open(at: harness.vault.location)
    try await other.unlock(with: Passphrase("test"))
    let first = AccountBook(
      vault: harness.vault, catalog: ProviderCatalog.load(from: config),
      transport: URLSessionTransport(), requestTimeout: 2, leaseMargin: 1)
    let second = AccountBook(
      vault: other, catalog: ProviderCatalog.load(from: config), transport: URLSessionTransport())
    await harness.sandbox.inject(
      SandboxFault(pathPrefix: "/oidc/token", kind: .delay(milliseconds: 8000)))

    let late = Task {
      try await first.accessToken(for: account.id, minimumValidity: 300, startedAt: Date())
    }
    let deadline = Date().addingTimeInterval(60)
    while await harness.stat(.faults) < 1, Date() < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    // Waits for the first book's lease, then finds its request given up: the refresh token
    // may be spent, and the access token still works.
    let token = try await second.accessToken(
      for: account.id, minimumValidity: 300, startedAt: Date())
    #expect(token == account.tokens.accessToken)
    await #expect(throws: AccountsError.auth(.transport(.timedOut(seconds: 2)))) {
      _ = try await late.value
    }
    // The provider carries the late request out; nothing else reaches it. (A guard of its
    // own: on a busy machine the steps above may take longer than the first one's.)
    let counted = Date().addingTimeInterval(300)
    while await harness.stat(.refreshes) < 1, Date() < counted {
      try await Task.sleep(for: .milliseconds(20))
    }
    let again = try await second.accessToken(
      for: account.id, minimumValidity: 300, startedAt: Date())
    #expect(again == account.tokens.accessToken)
    #expect(await harness.stat(.refreshes) == 1)
    #expect(await harness.stat(.reuseDetections) == 0)
    await other.close()
    await harness.stop()
  }
}
