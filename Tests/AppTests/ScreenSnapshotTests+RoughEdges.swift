import Accounts
import App
import Foundation
import Terminal
import Testing

@testable import AuthCore

/// Golden screens of issue 28's rough edges at 60×16, 80×24 and 100×30: the demo's words, an
/// ended sign-in, lists that do not fit, the waiting line beside a QR code, and the sign-out
/// dialog's facts and result.
extension ScreenSnapshotTests {
  static let roughSizes = sizes + [Size(rows: 30, columns: 100)]

  static var demo: AppConfiguration {
    var configuration = Fixtures.configuration
    configuration.demoNotice = "DEMO · throwaway vault, passphrase \"demo\""
    configuration.demoApprover = "demo-user"
    return configuration
  }

  /// Fourteen accounts at four providers: more than a small terminal's list shows.
  static var manyAccounts: [AccountSummary] {
    Fixtures.accounts
      + (1...8).map { number in
        AccountSummary(
          name: Fixtures.name("work", "user-\(number)"), providerName: "Work SSO",
          expiresAt: Fixtures.now.addingTimeInterval(Double(number) * 600),
          obtainedAt: Fixtures.now.addingTimeInterval(-600), scopes: ["openid"],
          refreshable: true)
      }
  }

  /// Twelve providers: more than a small terminal's provider choice shows.
  static var manyProviders: [ProviderSummary] {
    Fixtures.providers
      + (1...8).compactMap { number in
        guard let id = try? ProviderID("extra-\(number)") else { return nil }
        return ProviderSummary(id: id, name: "Extra \(number)", methods: [.pkce])
      }
  }

  @Test(arguments: roughSizes) func theDemosEmptyListKeepsItsCountAndNamesNoDemo(size: Size) {
    let driver = Driver(accounts: [], size: size, configuration: Self.demo)
    #expect(!driver.text.contains("authtui demo"))
    #expect(driver.frame.textLines()[0].hasSuffix(" · 0 accounts"))
    Snapshot.check(driver.frame, Self.name("demo-list-empty", size))
  }

  @Test(arguments: roughSizes) func theDemosLabelBeingTypedNamesNoCommand(size: Size) {
    var driver = Driver(accounts: [], size: size, configuration: Self.demo)
    driver.press(.character("a"), .character("l"))
    driver.type("second")
    #expect(!driver.text.contains("demo-answer"))
    Snapshot.check(driver.frame, Self.name("demo-label", size))
  }

  @Test(arguments: roughSizes) func theDemosApproverCountsDownOnTheFlowScreen(size: Size) {
    var driver = Driver(accounts: [], size: size, configuration: Self.demo)
    guard let id = driver.startSignIn("work", .pkce) else { return }
    guard
      case .openSignInPage(let request, _, _)? =
        driver.send(.signInProgress(id, driver.browserSnapshot())).first
    else {
      Issue.record("the page was not handed to the approver")
      return
    }
    driver.finish(request, .browser(.handedToDemoApprover(after: 4)))
    driver.advance(1)
    #expect(Self.joined(driver).contains("approves as demo-user in 3 s."))
    Snapshot.check(driver.frame, Self.name("demo-flow", size))
  }

  @Test(arguments: roughSizes) func aDeclinedDeviceSignInLooksEnded(size: Size) {
    var driver = Driver(size: size)
    guard let id = driver.showDeviceCode(for: 9) else { return }
    driver.finish(id, .signedIn(.failure(.auth(.accessDenied(description: "User pressed Deny")))))
    driver.advance(6)
    #expect(!driver.text.contains("left"))
    #expect(!driver.text.contains("WDJB-MJHT"))
    #expect(!driver.text.contains("scan to open"))
    Snapshot.check(driver.frame, Self.name("sign-in-declined", size))
  }

  @Test(arguments: roughSizes) func aTimedOutBrowserSignInLooksEnded(size: Size) {
    var driver = Driver(size: size)
    guard let id = driver.startSignIn("work", .pkce) else { return }
    driver.send(.signInProgress(id, driver.browserSnapshot(seconds: 60)))
    driver.advance(60)
    #expect(!driver.text.contains("Approve there"))
    #expect(!driver.text.contains("127.0.0.1:41234"))
    Snapshot.check(driver.frame, Self.name("sign-in-timed-out", size))
  }

  @Test(arguments: roughSizes) func aDeviceSignInsWaitingLineIsWhole(size: Size) {
    var driver = Driver(size: size)
    guard driver.showDeviceCode(for: 1) != nil else { return }
    #expect(Self.joined(driver).contains("next check in 4 s (every 5 s)"))
    Snapshot.check(driver.frame, Self.name("sign-in-device-waiting", size))
  }

  @Test(arguments: roughSizes) func aProviderListThatDoesNotFitSaysWhatIsLeftOut(size: Size) {
    var driver = Driver(providers: Self.manyProviders, size: size)
    driver.press(.character("a"), .home, .down, .down, .down, .down, .down, .down)
    Snapshot.check(driver.frame, Self.name("sign-in-provider-scrolled", size))
  }

  @Test(arguments: roughSizes) func anAccountListThatDoesNotFitSaysWhatIsLeftOut(size: Size) {
    var driver = Driver(accounts: Self.manyAccounts, size: size, configuration: Self.demo)
    driver.select("user-3")
    #expect(driver.frame.textLines()[0].contains("14 accounts"))
    Snapshot.check(driver.frame, Self.name("list-scrolled", size))
  }

  @Test(arguments: roughSizes) func helpScrolledSaysWhatIsLeftOut(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("?"), .down, .down)
    Snapshot.check(driver.frame, Self.name("help-scrolled", size))
  }

  @Test(arguments: roughSizes) func signOutSaysThisProvidersFacts(size: Size) {
    var driver = Driver(size: size)
    driver.select("bob")
    driver.press(.character("d"))
    Snapshot.check(driver.frame, Self.name("sign-out-facts", size))
  }

  @Test(arguments: roughSizes) func signOutFromTheDetailsShowsItsResult(size: Size) {
    var driver = Driver(size: size)
    driver.select("bob")
    driver.press(.enter, .character("d"))
    guard case .signOut(let id, _)? = driver.press(.character("y")).first else { return }
    driver.finish(id, Self.signedOutWithAProviderSession)
    Snapshot.check(driver.frame, Self.name("sign-out-result-from-details", size))
  }
}
