import Foundation
import TestSupport
import Testing

/// The UI meeting the key `authtui vault unlock --cache` keeps in the kernel keyring.
@Suite struct UnlockCacheUITests {
  @Test func theUIOpensWithTheCachedKeyAndAsksAgainOnceTheVaultIsLocked() async throws {
    let fixture = try await UIFixture.start()
    try await LiveUITests.authtui(["login", "sandbox"], in: fixture)
    try await LiveUITests.authtui(["vault", "unlock", "--cache", "10m"], in: fixture)
    var failure: (any Error)?
    do {
      // No passphrase variable and no key typed: the list shows all the same.
      try await TmuxSession.run(fixture.command, environment: fixture.environment()) { tmux in
        let screen = try await tmux.waitFor("alice")
        #expect(!screen.contains { $0.contains("Unlock your vault") })
      }
    } catch {
      failure = error
    }
    // Whatever happened above, the key leaves the keyring.
    try await LiveUITests.authtui(["vault", "lock"], in: fixture)
    if let failure { throw failure }
    try await TmuxSession.run(fixture.command, environment: fixture.environment()) { tmux in
      try await tmux.unlock()
      try await tmux.waitFor("alice")
    }
    await fixture.stop()
  }
}
