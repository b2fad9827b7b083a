import Accounts
import AuthCore
import Foundation
import Terminal
import Testing

@testable import App

/// The sign-out dialog: what it says of this provider, and the result it shows however the
/// sign-out was started and whichever news comes first.
@Suite struct SignOutReducerTests {
  /// bob's sign-out confirmed from `bob`'s details (or the list): the effect's request.
  static func signOutOfBob(_ driver: inout Driver, fromDetails: Bool) -> RequestID? {
    driver.select("bob")
    if fromDetails { driver.press(.enter) }
    driver.press(.character("d"))
    guard case .signOut(let id, _)? = driver.press(.character("y")).first else {
      Issue.record("y did not sign out")
      return nil
    }
    return id
  }

  static let revoked = SignOutReport(revocation: .revoked)

  @Test(arguments: [false, true])
  func theResultDialogShowsWhetherTheSignOutStartedInTheListOrTheDetails(fromDetails: Bool) {
    var driver = Driver()
    guard let id = Self.signOutOfBob(&driver, fromDetails: fromDetails) else { return }
    driver.finish(id, .signedOut(.success(Self.revoked)))
    guard case .dialog(.signOut(let dialog))? = driver.state.topPanel else {
      Issue.record("no result dialog: \(driver.state.panels)")
      return
    }
    #expect(dialog.step == .done(.success(Self.revoked)))
    #expect(driver.text.contains("The tokens were revoked at Work SSO."))
    // The details of the account that is gone are not under it.
    #expect(driver.state.panels.count == 1)
    driver.press(.enter)
    #expect(driver.state.panels.isEmpty)
  }

  /// The list read again without the account (the vault watch) may come before the
  /// sign-out's answer: the dialog stays for it.
  @Test func theListWithoutTheAccountBeforeTheAnswerKeepsTheDialog() {
    var driver = Driver()
    guard let id = Self.signOutOfBob(&driver, fromDetails: true) else { return }
    let remaining = Fixtures.accounts.filter { $0.name != Fixtures.bob.name }
    driver.send(
      .response(
        .vaultWatched(RequestID(9_999), .accounts(.success(AccountList(accounts: remaining))))))
    guard case .dialog(.signOut)? = driver.state.topPanel else {
      Issue.record("the dialog closed with the details: \(driver.state.panels)")
      return
    }
    driver.finish(id, .signedOut(.success(Self.revoked)))
    #expect(driver.text.contains("Signed out of work/bob."))
  }

  @Test func theDialogSaysThisProviderRevokesAndHasNoSignOutPage() {
    var driver = Driver()
    driver.select("bob")
    let effects = driver.press(.character("d"))
    #expect(effects.isEmpty)
    let text = ScreenSnapshotTests.joined(driver)
    #expect(text.contains("Work SSO offers token revocation: authtui asks it to revoke"))
    #expect(text.contains("Work SSO has no sign-out page"))
    #expect(!text.contains("if it offers revocation"))
  }

  /// A provider whose file leaves its endpoints to discovery: the dialog reads its discovery
  /// document, then says what it found.
  @Test func aDiscoveredProvidersFactsAreLearnedBeforeTheyAreSaid() {
    var work = Fixtures.work
    work.canRevoke = nil
    work.hasSignOutPage = nil
    let providers = Fixtures.providers.map { $0.id == "work" ? work : $0 }
    var driver = Driver(providers: providers)
    driver.select("bob")
    guard case .learnSignOutFacts(let id, "work")? = driver.press(.character("d")).first else {
      Issue.record("the facts were not asked for: \(driver.effects)")
      return
    }
    #expect(driver.text.contains("Reading Work SSO's discovery document"))
    driver.finish(id, .signOutFacts(.success(SignOutFacts(canRevoke: false, hasSignOutPage: true))))
    let text = ScreenSnapshotTests.joined(driver)
    #expect(text.contains("Work SSO cannot revoke tokens from here"))
    #expect(text.contains("Work SSO has a sign-out page: once signed out, o opens it"))

    var failing = Driver(providers: providers)
    failing.select("bob")
    guard case .learnSignOutFacts(let again, _)? = failing.press(.character("d")).first else {
      Issue.record("the facts were not asked for")
      return
    }
    failing.finish(again, .signOutFacts(.failure(.auth(.serverError(status: 503)))))
    #expect(ScreenSnapshotTests.joined(failing).contains("discovery document could not be read"))
    // The question stands: y signs out.
    guard case .signOut? = failing.press(.character("y")).first else {
      Issue.record("y did not sign out")
      return
    }
  }
}
