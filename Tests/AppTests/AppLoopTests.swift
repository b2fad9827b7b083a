import Accounts
import App
import Foundation
import Terminal
import TestSupport
import Testing

/// The real loop with an in-memory screen and a fake environment: effects run off the loop's
/// thread and come back as actions, while keys keep working.
@Suite struct AppLoopTests {
  /// From the list to a browser sign-in to Work SSO (the last provider).
  static let browserSignInToWork: [LoopHarness.Step] = [
    .init("› dave", [.character("a")]),
    // Work SSO is the last provider, above "Other provider…".
    .init("Choose a provider", [.end, .up, .enter]),
    .init("How do you want", [.enter]),
  ]

  @Test func everyKeyRespondsWhileARefreshIsInProgress() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    // Tokens with an hour left on the loop's real clock: no background refresh is due, so `r`
    // is the one refresh.
    let fresh = Fixtures.accounts.map { account in
      var account = account
      if account.expiresAt != nil {
        account.obtainedAt = Date()
        account.expiresAt = Date().addingTimeInterval(3600)
      }
      return account
    }
    let environment = FakeEnvironment(accounts: fresh, holdRefreshes: true)
    let outcome = await LoopHarness.run(
      environment, mailbox: mailbox,
      steps: [
        .init("› dave", [.character("j"), .character("j"), .character("j")]),
        .init("› bob", [.character("r")]),
        .init("refreshing work/bob", [.character("j")]),
        .init("› carol", [.character("?")]),
        .init("Help", [.escape]),
        .init("Accounts", [], also: { await environment.releaseRefreshes() }),
        .init("refreshed work/bob"),
      ])
    #expect(outcome.stuckAt == nil)
    #expect(await environment.refreshes == [Fixtures.bob.name])
  }

  /// Starting is over once the accounts show: the loop says so once (the UI then gives back
  /// what starting touched of its libraries, `StartupPages`), not at the unlock prompt nor
  /// again on later screens.
  @Test func theLoopSaysOnceWhenTheAccountsFirstShow() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    let outcome = await LoopHarness.run(
      FakeEnvironment(access: .locked(problem: nil)), mailbox: mailbox,
      steps: [
        .init("Unlock your vault", [.paste("right"), .enter]),
        .init("› dave", [.character("?")]),
        .init("Help", [.escape]),
        .init("› dave"),
      ])
    #expect(outcome.stuckAt == nil)
    #expect(outcome.settledOn.count == 1)
    #expect(outcome.settledOn.first?.contains("› dave") == true)
  }

  @Test func aCancelledSignInStoresNothing() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    let environment = FakeEnvironment()
    let outcome = await LoopHarness.run(
      environment, mailbox: mailbox,
      steps: Self.browserSignInToWork + [
        .init("Waiting for Work SSO's answer", [.escape]),
        .init("sign-in cancelled; nothing was stored"),
      ])
    #expect(outcome.stuckAt == nil)
    // The attempt's task was cancelled and the environment stored nothing. The cancel reaches
    // the environment on a task of its own, which on a busy machine can take seconds.
    try await waitUntil("the attempt is cancelled") {
      await !environment.cancelledAttempts.isEmpty
    }
    #expect(await environment.cancelledAttempts.count == 1)
    #expect(await environment.stored.isEmpty)
  }

  @Test func escDuringADiscoveryCancelsItsRequest() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    let environment = FakeEnvironment(holdDiscoveries: true)
    let outcome = await LoopHarness.run(
      environment, mailbox: mailbox,
      steps: [
        .init("› dave", [.character("a")]),
        // "Other provider…" is the last line.
        .init("Choose a provider", [.end, .enter]),
        .init("from its issuer URL", [.paste(IssuerFixtures.issuer), .enter]),
        .init("Discovering", [.escape]),
        .init("discovery stopped; Enter tries again", [.escape]),
        .init("Choose a provider", [.escape]),
        .init("› dave"),
      ])
    #expect(outcome.stuckAt == nil)
    // The cancel reaches the environment on a task of its own.
    try await waitUntil("the discovery is cancelled") {
      await !environment.cancelledDiscoveries.isEmpty
    }
    #expect(await environment.cancelledDiscoveries.count == 1)
  }

  @Test func aPastedRedirectCompletesTheSignInAndTheAccountAppears() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    let environment = FakeEnvironment()
    let outcome = await LoopHarness.run(
      environment, mailbox: mailbox,
      steps: Self.browserSignInToWork + [
        .init("Waiting for Work SSO's answer", [.character("p")]),
        .init(
          "Address the browser ended on", [.paste("http://127.0.0.1:9/callback?code=x"), .enter]),
        .init("signed in: work/erin"),
        .init("› erin"),
      ])
    #expect(outcome.stuckAt == nil)
    #expect(await environment.stored == [AccountName(provider: "work", label: "erin")])
  }

  @Test func theTokenReachesTheTerminalClipboardButNeverTheScreen() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    let environment = FakeEnvironment(clipboard: TerminalClipboard(mailbox: mailbox))
    let outcome = await LoopHarness.run(
      environment, mailbox: mailbox,
      steps: [
        .init("› dave", [.character("c")]),
        .init("sent the token of hivesigner/dave to the terminal (OSC 52);"),
      ])
    #expect(outcome.stuckAt == nil)
    #expect(outcome.clipboard == ["token-of-dave"])
    #expect(!outcome.everything.contains("token-of-dave"))
  }

  /// A hung-up terminal ends the loop wherever it is: at the passphrase prompt, where the `q`
  /// the script sends after its last step would only be typed, it ends at once.
  @Test func aHungUpTerminalEndsTheLoop() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    let outcome = await LoopHarness.run(
      FakeEnvironment(access: .locked(problem: nil)), mailbox: mailbox,
      steps: [.init("Unlock your vault", [.character("x"), .hangup])])
    #expect(outcome.stuckAt == nil)
    #expect(outcome.lastScreen.contains("Unlock your vault"))
  }

  @Test func aResizeRedrawsAtTheNewSize() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    let outcome = await LoopHarness.run(
      FakeEnvironment(), mailbox: mailbox,
      steps: [
        .init("› dave", [.resize]),
        .init("› dave"),
      ])
    #expect(outcome.stuckAt == nil)
    #expect(outcome.frameSizes.first == Size(rows: 24, columns: 80))
    #expect(outcome.frameSizes.last == Size(rows: 16, columns: 60))
    #expect(!outcome.lastScreen.contains("REFRESH"))
  }

  @Test func aWrongPassphraseCanBeTypedAgain() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    let environment = FakeEnvironment(access: .locked(problem: nil))
    let outcome = await LoopHarness.run(
      environment, mailbox: mailbox,
      steps: [
        .init("Unlock your vault", [.character("x"), .enter]),
        .init("wrong passphrase", [.paste("right"), .enter]),
        .init("› dave"),
      ])
    #expect(outcome.stuckAt == nil)
    #expect(!outcome.everything.contains("right"))
  }
}
