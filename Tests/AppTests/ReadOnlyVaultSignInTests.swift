import Accounts
import App
import Foundation
import Terminal
import TestSupport
import Testing

@testable import AuthCore

/// A sign-in on a vault that cannot be written: the vault is asked first, and a read-only one
/// refuses on the flow screen before anything is asked of the provider or any code is shown.
@Suite struct ReadOnlyVaultSignInTests {
  static let path = "/home/user/.local/share/authtui/vault.db"
  static let readOnly = AccountsError.vault(
    .readOnly(path: path, .readOnlyFolder("/home/user/.local/share/authtui")))

  /// A browser sign-in to Work SSO refused because its vault's folder is read-only.
  static func refused(size: Size = Size(rows: 24, columns: 80)) -> Driver? {
    var driver = Driver(size: size)
    driver.press(.character("a"), .end, .up, .enter)
    let asked = driver.press(.enter)
    guard case .checkVaultWritable(let id)? = asked.first, asked.count == 1 else {
      Issue.record("choosing the flow did not look at the vault first: \(asked)")
      return nil
    }
    #expect(driver.finish(id, .done(readOnly)).isEmpty)
    return driver
  }

  @Test func aReadOnlyVaultRefusesTheSignInBeforeItStarts() throws {
    var driver = try #require(Self.refused())
    #expect(!driver.effects.contains { if case .startSignIn = $0 { true } else { false } })
    let screen = ScreenSnapshotTests.joined(driver)
    #expect(
      screen.contains(
        "The sign-in to Work SSO was not started, since its tokens could not be kept: the vault"
          + " \(Self.path) cannot be written: its folder /home/user/.local/share/authtui is"
          + " read-only"))
    #expect(screen.contains("chmod u+w '/home/user/.local/share/authtui'"))
    #expect(!screen.contains("Open this address"))
    #expect(driver.state.context == .signIn)
    // Fixed, the retry key looks again, and the sign-in starts.
    let again = driver.press(.character("r"))
    guard case .checkVaultWritable(let fresh)? = again.first, again.count == 1 else {
      Issue.record("r did not look at the vault again: \(again)")
      return
    }
    let started = driver.finish(fresh, .done(nil))
    guard case .startSignIn(fresh, "work", .pkce, nil)? = started.first else {
      Issue.record("a writable vault did not start the sign-in: \(started)")
      return
    }
  }

  @Test func signingInAgainIsRefusedToo() {
    var driver = Driver()
    driver.select("dave")
    let asked = driver.press(.character("s"))
    guard case .checkVaultWritable(let id)? = asked.first, asked.count == 1 else {
      Issue.record("s did not look at the vault first: \(asked)")
      return
    }
    driver.finish(id, .done(Self.readOnly))
    #expect(!driver.effects.contains { if case .startSignIn = $0 { true } else { false } })
    #expect(
      ScreenSnapshotTests.joined(driver).contains(
        "The sign-in to Hivesigner was not started"))
  }

  @Test func anAnswerForASignInLeftWhileTheVaultWasAskedIsDropped() {
    var driver = Driver()
    driver.press(.character("a"), .end, .up, .enter)
    let asked = driver.press(.enter)
    guard case .checkVaultWritable(let id)? = asked.first else {
      Issue.record("choosing the flow did not look at the vault first: \(asked)")
      return
    }
    driver.press(.escape)
    #expect(driver.finish(id, .done(nil)).isEmpty)
    #expect(driver.state.context == .list)
  }

  /// After the exchange (the vault turned read-only during the sign-in), the sentence is the
  /// vault's own: the sign-in had started.
  @Test func aVaultThatTurnedReadOnlyAfterTheApprovalSaysTheVaultsSentence() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    driver.send(.signInProgress(id, driver.browserSnapshot()))
    driver.finish(id, .signedIn(.failure(Self.readOnly)))
    let screen = ScreenSnapshotTests.joined(driver)
    #expect(!screen.contains("was not started"))
    #expect(screen.contains("the vault \(Self.path) cannot be written"))
  }

  /// Through the loop and the fake environment: nothing is started and nothing stored.
  @Test func theEnvironmentIsNeverAskedToSignIn() async throws {
    let mailbox = try Mailbox<AppLoop.Message>()
    let environment = FakeEnvironment(writeProblem: Self.readOnly)
    let outcome = await LoopHarness.run(
      environment, mailbox: mailbox,
      steps: AppLoopTests.browserSignInToWork + [.init("was not started")])
    #expect(outcome.stuckAt == nil)
    #expect(await environment.signInsStarted == 0)
    #expect(await environment.stored.isEmpty)
  }
}

extension ScreenSnapshotTests {
  @Test(arguments: sizes) func aSignInRefusedByAReadOnlyVault(size: Size) throws {
    let driver = try #require(ReadOnlyVaultSignInTests.refused(size: size))
    Snapshot.check(driver.frame, Self.name("sign-in-vault-read-only", size))
  }
}
