import App
import Foundation
import Providers
import Terminal
import Testing

@testable import AuthCore

/// A provider without a client id, set up from the sign-in's provider choice.
@Suite struct ProviderSetupReducerTests {
  /// The UI with no account and no preset configured, at the provider choice on `provider`.
  static func choosing(_ provider: ProviderID) -> Driver {
    var driver = Driver(accounts: [], providers: Fixtures.unconfiguredProviders)
    driver.press(.character("a"), .home)
    let index = Fixtures.unconfiguredProviders.firstIndex { $0.id == provider } ?? 0
    for _ in 0..<index { driver.press(.down) }
    return driver
  }

  /// The catalog after `provider`'s setup was saved: the provider usable, as the reloaded
  /// catalog says.
  static func saved(_ provider: ProviderID) -> [ProviderSummary] {
    Fixtures.unconfiguredProviders.map { summary in
      guard summary.id == provider else { return summary }
      var ready = summary
      ready.isUsable = true
      ready.problems = []
      ready.setup = nil
      ready.fixedRedirectPort = summary.setup?.redirectPort.map(Int.init)
      return ready
    }
  }

  @Test func choosingAProviderWithoutAClientIDOpensItsSetupFormInsteadOfRefusing() {
    var driver = Self.choosing("simkl")
    #expect(driver.text.contains("Simkl                ✗ no client id yet: Enter sets one up"))
    #expect(driver.press(.enter).isEmpty)
    #expect(driver.state.context == .providerSetup)
    #expect(driver.state.message == nil)
    let text = driver.text
    #expect(text.contains("Simkl needs a client id of your own"))
    #expect(text.contains("1. Register an application at https://simkl.com/settings/developer/"))
    #expect(text.contains("create an app there with the redirect URI"))
    #expect(text.contains("Redirect port  8765"))
    #expect(text.contains("~/.config/authtui/providers/simkl.json"))
    // Esc goes back to the choice, on the same provider.
    driver.press(.escape)
    #expect(driver.state.context == .providerChoice)
    #expect(driver.state.topPanel == .signIn(SignInState(step: .chooseProvider(selected: 2))))
  }

  @Test func keysTypeIntoTheFocusedFieldAndTabMovesBetweenThem() {
    var driver = Self.choosing("simkl")
    driver.press(.enter)
    driver.type("q?app")
    driver.press(.tab, .backspace)
    driver.type("9")
    guard case .dialog(.providerSetup(let form)) = driver.state.topPanel else {
      Issue.record("no form: \(String(describing: driver.state.topPanel))")
      return
    }
    #expect(form.clientID.text == "q?app")
    #expect(form.redirectPort?.text == "8769")
    #expect(form.focus == .redirectPort)
    driver.press(.backtab)
    driver.press(.control("u"))
    guard case .dialog(.providerSetup(let cleared)) = driver.state.topPanel else { return }
    #expect(cleared.clientID.isEmpty)
    #expect(!driver.state.shouldExit)
  }

  @Test func badInputIsSaidInTheFormAndNothingIsWritten() {
    var driver = Self.choosing("simkl")
    driver.press(.enter)
    #expect(driver.press(.enter).isEmpty)
    #expect(
      driver.text.contains(
        "✗ the client id is empty: give the one the provider gave your application"))
    driver.type("has space")
    #expect(!driver.text.contains("✗"))
    #expect(driver.press(.enter).isEmpty)
    #expect(driver.text.contains("✗ a client id has no spaces or control characters"))
    driver.press(.control("u"))
    driver.type("app")
    driver.press(.tab, .control("u"))
    driver.type("70000")
    #expect(driver.press(.enter).isEmpty)
    #expect(driver.text.contains("✗ \"70000\" is not a port from 1024 to 65535"))
    guard case .dialog(.providerSetup(let form)) = driver.state.topPanel else { return }
    #expect(form.focus == .redirectPort)
    #expect(driver.effects.isEmpty)
  }

  @Test func savingWritesTheFileThenGoesOnToTheFlowChoiceOfTheProvider() {
    var driver = Self.choosing("simkl")
    driver.press(.enter)
    driver.type(" my-app ")
    let effects = driver.press(.enter)
    guard case .saveProviderSetup(let id, "simkl", "my-app", 8765, nil)? = effects.first,
      effects.count == 1
    else {
      Issue.record("Enter did not save: \(effects)")
      return
    }
    #expect(driver.text.contains("Saving…"))
    // A second Enter while it is saved saves nothing more.
    #expect(driver.press(.enter).isEmpty)
    #expect(driver.finish(id, .providerSaved(.success(Self.saved("simkl")))).isEmpty)
    #expect(driver.state.providers == Self.saved("simkl"))
    #expect(
      driver.state.topPanel
        == .signIn(SignInState(step: .chooseMethod(provider: Self.saved("simkl")[2], selected: 0))))
    #expect(
      driver.state.message?.text
        == "saved the client id of Simkl to ~/.config/authtui/providers/simkl.json")
  }

  @Test func aProviderWithOneFlowStartsTheSignInRightAfterTheSave() {
    var driver = Self.choosing("hivesigner")
    driver.press(.enter)
    #expect(!driver.text.contains("Redirect port"))
    driver.type("my-hive-app")
    guard
      case .saveProviderSetup(let id, "hivesigner", "my-hive-app", nil, nil)? = driver.press(.enter)
        .first
    else {
      Issue.record("Enter did not save")
      return
    }
    let next = driver.passWriteCheck(
      driver.finish(id, .providerSaved(.success(Self.saved("hivesigner")))))
    guard case .startSignIn(_, "hivesigner", .pkce, nil)? = next.first else {
      Issue.record("no sign-in after the save: \(next)")
      return
    }
    #expect(driver.state.context == .signIn)
  }

  @Test func aFileThatCannotBeWrittenIsSaidInTheFormWhichStays() {
    var driver = Self.choosing("simkl")
    driver.press(.enter)
    driver.type("app")
    guard case .saveProviderSetup(let id, _, _, _, _)? = driver.press(.enter).first else { return }
    let failure = ProviderSetupError.file(
      path: "~/.config/authtui/providers/simkl.json",
      reason: "it is a symbolic link; authtui writes only a regular file there: replace it with "
        + "one (or remove it), then try again")
    driver.finish(id, .providerSaved(.failure(failure)))
    #expect(driver.state.context == .providerSetup)
    #expect(driver.text.contains("✗ ~/.config/authtui/providers/simkl.json: it is a symbolic link"))
    #expect(driver.state.providers == Fixtures.unconfiguredProviders)
    // Fixed, it can be saved again.
    #expect(driver.press(.enter).count == 1)
  }

  @Test func leavingTheFormWhileItIsSavedKeepsTheUserWhereTheyWent() {
    var driver = Self.choosing("hivesigner")
    driver.press(.enter)
    driver.type("app")
    guard case .saveProviderSetup(let id, _, _, _, _)? = driver.press(.enter).first else { return }
    driver.press(.escape)
    #expect(driver.finish(id, .providerSaved(.success(Self.saved("hivesigner")))).isEmpty)
    #expect(driver.state.context == .providerChoice)
    #expect(driver.state.providers[0].isUsable)
    #expect(driver.text.contains("Hivesigner           Browser"))
  }

  @Test func aProviderWithAnotherProblemStillSaysSo() {
    var driver = Self.choosing("hivesigner")
    driver.press(.enter)
    driver.type("app")
    guard case .saveProviderSetup(let id, _, _, _, _)? = driver.press(.enter).first else { return }
    var list = Fixtures.unconfiguredProviders
    list[0].setup = nil
    list[0].problems = [
      "~/.config/authtui/providers/hivesigner.json: flows: the \"pkce\" flow needs authorization_endpoint and token_endpoint"
    ]
    #expect(driver.finish(id, .providerSaved(.success(list))).isEmpty)
    #expect(driver.state.context == .providerChoice)
    #expect(
      driver.state.message?.text.hasPrefix(
        "saved ~/.config/authtui/providers/hivesigner.json, but Hivesigner cannot be used yet: ")
        == true)
  }

  /// Google wants its Desktop app's client secret too: the form asks for it, shows it as dots
  /// and hands it to the save as a `ClientSecret`, never as text.
  @Test func googlesFormAsksForTheClientSecretTooAndNeverShowsIt() {
    var driver = Driver(accounts: [], providers: [Fixtures.googleToSetUp])
    driver.press(.character("a"), .home, .enter)
    #expect(driver.state.context == .providerSetup)
    #expect(driver.text.contains("Google needs a client id and secret of your own"))
    #expect(driver.text.contains("whose client secret Google still wants"))
    driver.type("123.apps.googleusercontent.com")
    // Without the secret, Enter says so and moves to its field.
    driver.press(.enter)
    #expect(driver.text.contains("the client secret is empty: give the one shown with"))
    guard case .dialog(.providerSetup(let form)) = driver.state.topPanel else {
      Issue.record("no form")
      return
    }
    #expect(form.focus == .clientSecret)
    driver.type("GOCSPX-abc")
    #expect(!driver.text.contains("GOCSPX"))
    #expect(driver.text.contains("Client secret  ••••••••••"))
    guard
      case .saveProviderSetup(
        _, "google", "123.apps.googleusercontent.com", nil, let secret?)? = driver.press(.enter)
        .first
    else {
      Issue.record("no save: \(driver.effects)")
      return
    }
    #expect(secret == ClientSecret("GOCSPX-abc"))
  }

  @Test func aGoogleFileWithAClientIDButNoSecretStartsAtTheSecret() {
    var google = Fixtures.googleToSetUp
    google.setup?.clientID = "123.apps.googleusercontent.com"
    var driver = Driver(accounts: [], providers: [google])
    driver.press(.character("a"), .home)
    #expect(driver.text.contains("✗ no client secret yet: Enter sets one up"))
    driver.press(.enter)
    guard case .dialog(.providerSetup(let form)) = driver.state.topPanel else {
      Issue.record("no form")
      return
    }
    #expect(form.focus == .clientSecret)
    #expect(form.clientID.text == "123.apps.googleusercontent.com")
    #expect(driver.text.contains("no client secret yet"))
  }
}
