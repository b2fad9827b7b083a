import Accounts
import App
import Foundation
import Terminal
import Testing
import Vault

@testable import AuthCore

/// Renaming an account from the list or its details, and naming an account a sign-in stored
/// under the provider's opaque identifier for the user.
@Suite struct RenameReducerTests {
  static func renameForm(_ driver: Driver) -> RenameForm? {
    guard case .dialog(.rename(let form)) = driver.state.topPanel else { return nil }
    return form
  }

  /// The list as the vault holds it after `name` became `label`.
  static func list(renaming name: AccountName, to label: String, in accounts: [AccountSummary])
    -> AccountList
  {
    AccountList(
      accounts: accounts.map { account in
        guard account.name == name else { return account }
        var renamed = account
        renamed.name = AccountName(provider: name.provider, label: label)
        return renamed
      })
  }

  @Test func theRenameKeyOpensTheDialogWithTheLabelPrefilled() throws {
    var driver = Driver()
    driver.select("bob")
    #expect(driver.state.keys.keys(for: .rename, in: .list) == [.character("l")])
    #expect(driver.press(.character("l")).isEmpty)
    #expect(driver.state.context == .rename)
    let form = try #require(Self.renameForm(driver))
    #expect(form.account == Fixtures.bob.name)
    #expect(form.label.text == "bob")
    #expect(form.signedIn == nil)
    #expect(driver.text.contains("Rename work/bob"))
  }

  @Test func aLabelBreakingTheRuleIsRefusedInTheDialogBeforeAnythingIsStored() throws {
    var driver = Driver()
    driver.select("bob")
    driver.press(.character("l"), .control("u"))
    driver.type("#7")
    #expect(driver.press(.enter).isEmpty)
    let form = try #require(Self.renameForm(driver))
    #expect(form.problem == AccountsError.invalidLabel("#7", problem: .leadingHash).message)
    #expect(form.label.text == "#7")
    // Typing clears the complaint.
    driver.press(.backspace, .backspace)
    #expect(Self.renameForm(driver)?.problem == nil)
  }

  /// An empty label is refused in the dialog's own words: the command line's offer of "none
  /// at all" (the provider's name) is what Esc does here.
  @Test func anEmptyLabelIsRefusedSayingEscKeepsTheLabel() throws {
    var driver = Driver()
    driver.select("bob")
    driver.press(.character("l"), .control("u"))
    #expect(driver.press(.enter).isEmpty)
    let form = try #require(Self.renameForm(driver))
    #expect(form.problem == "a label cannot be empty; type one, or Esc keeps bob")
  }

  /// A refusal too long for four lines (a label of 70 characters, and one of 64 it suggests)
  /// is shown whole.
  @Test func aLongRefusalIsShownWhole() throws {
    var driver = Driver()
    driver.select("bob")
    driver.press(.character("l"), .control("u"))
    driver.type(String(repeating: "x", count: 70) + "END")
    driver.press(.enter)
    let problem = try #require(Self.renameForm(driver)?.problem)
    #expect(problem.hasSuffix("\""), "\(problem)")
    // The suggestion, the last thing said, is on the screen to its closing quote.
    let suggestion = try #require(driver.text.range(of: "such as"), "\(driver.text)")
    #expect(driver.text[suggestion.upperBound...].contains("xxxxx\""), "\(driver.text)")
  }

  @Test func enterStoresTheLabelThroughTheVaultAndTheListFollows() throws {
    var driver = Driver()
    driver.select("bob")
    driver.press(.character("l"), .control("u"))
    driver.type("robert")
    let effects = driver.press(.enter)
    guard case .rename(let id, Fixtures.bob.name, label: "robert")? = effects.first else {
      Issue.record("Enter did not rename: \(effects)")
      return
    }
    #expect(driver.state.isBusy(Fixtures.bob.name))
    driver.finish(
      id,
      .accounts(
        .success(Self.list(renaming: Fixtures.bob.name, to: "robert", in: Fixtures.accounts))))
    let renamed = Fixtures.name("work", "robert")
    #expect(driver.state.topPanel == nil)
    #expect(driver.state.selection == renamed)
    #expect(driver.state.account(Fixtures.bob.name) == nil)
    #expect(driver.state.message?.text == "renamed work/bob to work/robert")
    #expect(driver.text.contains("› robert"))
  }

  @Test func theSameLabelClosesTheDialogWithNothingStored() {
    var driver = Driver()
    driver.select("bob")
    driver.press(.character("l"))
    #expect(driver.press(.enter).isEmpty)
    #expect(driver.state.topPanel == nil)
  }

  @Test func aLabelTakenIsSaidInTheDialogWhichKeepsWhatWasTyped() throws {
    var driver = Driver()
    driver.select("bob")
    driver.press(.character("l"), .control("u"))
    driver.type("carol")
    guard case .rename(let id, _, _)? = driver.press(.enter).first else { return }
    let taken = AccountsError.vault(.duplicateAccount(providerID: "work", label: "carol"))
    driver.finish(id, .accounts(.failure(taken)))
    let form = try #require(Self.renameForm(driver))
    #expect(form.pending == nil)
    #expect(form.problem == taken.message)
    #expect(form.label.text == "carol")
    #expect(driver.state.account(Fixtures.bob.name) != nil)
  }

  @Test func renamingFromTheDetailsKeepsTheDetailsOnTheAccount() {
    var driver = Driver()
    driver.select("bob")
    driver.press(.enter, .character("l"), .control("u"))
    driver.type("robert")
    guard case .rename(let id, _, _)? = driver.press(.enter).first else { return }
    driver.finish(
      id,
      .accounts(
        .success(Self.list(renaming: Fixtures.bob.name, to: "robert", in: Fixtures.accounts))))
    #expect(driver.state.topPanel == .details(Fixtures.name("work", "robert")))
    #expect(driver.state.context == .details)
  }

  @Test func aRenameByAnotherProcessShowsInTheList() {
    var driver = Driver()
    driver.answersUpkeep = false
    let watch = driver.advance(1).first { if case .watchVault = $0 { true } else { false } }
    guard let watch else {
      Issue.record("no look at the vault")
      return
    }
    driver.send(
      .finished(
        watch,
        .accounts(
          .success(Self.list(renaming: Fixtures.bob.name, to: "robert", in: Fixtures.accounts)))))
    #expect(driver.text.contains("robert"))
    #expect(!driver.text.contains("  bob "))
  }

  // MARK: A label that is only the provider's opaque identifier

  static let opaque = AccountSummary(
    name: Fixtures.name("work", "1029384756"), providerName: "Work SSO",
    expiresAt: Fixtures.now.addingTimeInterval(3600), refreshable: true)

  /// A sign-in to Work SSO that stored `opaque` with its label made of the `sub`.
  static func signedInBySubject() -> Driver {
    var driver = Driver()
    guard let id = driver.startSignIn("work", .pkce) else { return driver }
    driver.finish(id, .signedIn(.success(SignedInSummary(opaque, labelIsSubject: true))))
    return driver
  }

  @Test func aSignInNamedOnlyByItsSubjectAsksForALabelBeforeTheListShowsIt() throws {
    var driver = Self.signedInBySubject()
    let form = try #require(Self.renameForm(driver))
    #expect(form.signedIn == Self.opaque)
    #expect(form.label.text == "1029384756")
    #expect(driver.state.account(Self.opaque.name) == nil)
    #expect(driver.text.contains("Work SSO names you only by an opaque number"))
    driver.press(.control("u"))
    driver.type("work-laptop")
    guard case .rename(let id, Self.opaque.name, label: "work-laptop")? = driver.press(.enter).first
    else {
      Issue.record("Enter did not name the account")
      return
    }
    var stored = Self.opaque
    stored.name = Fixtures.name("work", "work-laptop")
    driver.finish(id, .accounts(.success(AccountList(accounts: Fixtures.accounts + [stored]))))
    #expect(driver.state.topPanel == nil)
    #expect(driver.state.selection == stored.name)
    #expect(driver.state.message?.text == "signed in: work/work-laptop")
    #expect(!driver.text.contains("1029384756"))
  }

  @Test func escAtTheLabelPromptKeepsTheLabelAndShowsTheAccount() {
    var driver = Self.signedInBySubject()
    #expect(driver.press(.escape).isEmpty)
    #expect(driver.state.topPanel == nil)
    #expect(driver.state.selection == Self.opaque.name)
    #expect(driver.state.message?.text == "signed in: work/1029384756; l renames it later")
  }

  @Test func aSignInAgainToAnAccountAlreadyListedDoesNotAsk() {
    var driver = Driver(accounts: Fixtures.accounts + [Self.opaque])
    guard let id = driver.startSignIn("work", .pkce) else { return }
    driver.finish(id, .signedIn(.success(SignedInSummary(Self.opaque, labelIsSubject: true))))
    #expect(driver.state.topPanel == nil)
    #expect(driver.state.message?.text == "signed in: work/1029384756")
  }
}
