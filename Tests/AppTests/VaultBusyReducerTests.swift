import Accounts
import App
import AuthCore
import Foundation
import Terminal
import Testing
import Vault

/// A vault that another process kept busy too long: the sentence names the action it stopped
/// and its account, since the vault's own sentence cannot.
@Suite struct VaultBusyReducerTests {
  static let busy = AccountsError.vault(.busy(path: "/home/u/.local/share/authtui/vault.db"))
  /// The vault's own sentence ("another authtui process kept the vault … busy for too long;
  /// try again …"), which names no action.
  static let reason = busy.message

  @Test func aRenameSaysWhichAccountCouldNotBeRenamedInTheFormAndOnTheStatusLine() throws {
    var driver = Driver()
    driver.select("bob")
    driver.press(.character("l"), .control("u"))
    driver.type("robert")
    guard case .rename(let id, _, _)? = driver.press(.enter).first else {
      Issue.record("Enter did not rename")
      return
    }
    driver.finish(id, .accounts(.failure(Self.busy)))
    guard case .dialog(.rename(let form))? = driver.state.topPanel else {
      Issue.record("the rename dialog closed")
      return
    }
    #expect(form.problem == "could not rename work/bob: " + Self.reason)
    // The form left before the answer: the status line says it.
    driver.press(.enter)
    let again = try #require(driver.state.busy.last?.id)
    driver.press(.escape)
    driver.finish(again, .accounts(.failure(Self.busy)))
    #expect(driver.state.message?.text == "could not rename work/bob: " + Self.reason)
  }

  @Test func aSignOutSaysWhichAccountStaysSignedIn() {
    var driver = Driver()
    driver.select("bob")
    driver.press(.character("d"))
    guard case .signOut(let id, _)? = driver.press(.character("y")).first else {
      Issue.record("y did not sign out")
      return
    }
    driver.finish(id, .signedOut(.failure(Self.busy)))
    #expect(driver.state.message?.text == "could not sign out of work/bob: " + Self.reason)
    #expect(driver.text.contains("could not sign out of work/bob: another authtui process"))
  }

  @Test func aRefreshSaysWhichAccountWasNotRefreshed() {
    var driver = Driver()
    driver.select("bob")
    guard case .refresh(let id, _)? = driver.press(.character("r")).first else {
      Issue.record("r did not refresh")
      return
    }
    driver.finish(id, .account(.failure(Self.busy)))
    #expect(driver.state.message?.text == "could not refresh work/bob: " + Self.reason)
  }

  @Test func aCopySaysWhoseTokenWasNotCopied() {
    var driver = Driver()
    guard let id = driver.copyBobsToken() else { return }
    driver.finish(id, .copied(.failure(Self.busy)))
    #expect(driver.state.message?.text == "could not copy the token of work/bob: " + Self.reason)
  }

  @Test func theDefaultMarkSaysWhichAccountItWasFor() {
    var driver = Driver()
    driver.select("bob")
    guard case .setDefault(let id, _, _)? = driver.press(.character("*")).first else {
      Issue.record("* did not set the default")
      return
    }
    driver.finish(id, .accounts(.failure(Self.busy)))
    #expect(
      driver.state.message?.text
        == "could not make work/bob work's default account: " + Self.reason)
  }

  @Test func anExportSaysWhoseTokenWasNotExported() {
    var driver = Driver()
    driver.select("alice")
    driver.press(.character("e"), .tab, .control("u"))
    driver.type("/tmp/x/simkl.env")
    guard case .exportEnvFile(let id, _, _, _)? = driver.press(.enter).first else {
      Issue.record("Enter did not export")
      return
    }
    driver.finish(id, .exported(.failure(Self.busy)))
    #expect(driver.text.contains("could not export the token of simkl/alice: another authtui"))
  }

  @Test func aRemovalSaysWhichDamagedAccountStays() throws {
    var driver = DamagedReducerTests.driver([DamagedReducerTests.frank])
    driver.press(.character("D"), .character("d"))
    let effect = try #require(driver.press(.character("y")).first)
    driver.send(.finished(effect, .done(Self.busy)))
    #expect(driver.state.message?.text == "could not remove #7 (work/frank): " + Self.reason)
  }

  @Test func aSignInSaysItCouldNotFinish() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    driver.send(.signInProgress(id, driver.browserSnapshot()))
    driver.finish(id, .signedIn(.failure(Self.busy)))
    #expect(driver.text.contains("Could not finish the sign-in to Work SSO: another authtui"))
  }

  @Test func otherFailuresKeepTheirOwnSentence() {
    var driver = Driver()
    driver.select("bob")
    guard case .signOut(let id, _)? = driver.press(.character("d"), .character("y")).first else {
      Issue.record("y did not sign out")
      return
    }
    let other = AccountsError.vault(.storage(path: "/v/vault.db", detail: "disk I/O error"))
    driver.finish(id, .signedOut(.failure(other)))
    #expect(driver.state.message?.text == other.message)
  }
}
