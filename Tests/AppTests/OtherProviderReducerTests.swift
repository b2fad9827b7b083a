import Accounts
import App
import Foundation
import Providers
import Terminal
import Testing

@testable import AuthCore

/// "Other provider…": a provider of one's own from its issuer URL, discovered in the
/// background, registered and saved as `providers add` does, then signed in to.
@Suite struct OtherProviderReducerTests {
  /// The UI at the "Other provider…" form, opened from the end of the provider list.
  static func form(configuration: AppConfiguration = Fixtures.configuration) -> Driver {
    var driver = Driver(configuration: configuration)
    driver.press(.character("a"), .end)
    #expect(driver.text.contains("› Other provider…      any server, from its issuer URL"))
    #expect(driver.press(.enter).isEmpty)
    return driver
  }

  /// The form with the sandbox's issuer typed and discovered as `summary`.
  static func discovered(_ summary: IssuerSummary, clientID: String? = nil) -> Driver {
    var driver = form()
    driver.type(IssuerFixtures.issuer)
    if let clientID {
      driver.press(.tab)
      driver.type(clientID)
    }
    guard case .discoverIssuer(let id, IssuerFixtures.issuer)? = driver.press(.enter).first else {
      Issue.record("Enter did not discover the issuer")
      return driver
    }
    driver.finish(id, .issuerDiscovered(.success(summary)))
    return driver
  }

  /// The form's state.
  static func issuerForm(_ driver: Driver) -> IssuerForm? {
    guard case .dialog(.otherProvider(let form)) = driver.state.topPanel else { return nil }
    return form
  }

  @Test func theProviderListEndsWithOtherProviderWhichOpensTheIssuerForm() {
    var driver = Self.form()
    #expect(driver.state.context == .otherProvider)
    #expect(driver.text.contains("Issuer URL    https://id.example.com"))
    #expect(driver.text.contains("Enter discovers what the server offers; nothing is saved yet."))
    // Esc goes back to the provider list, on "Other provider…".
    driver.press(.escape)
    #expect(driver.state.context == .providerChoice)
    #expect(driver.text.contains("› Other provider…"))
  }

  @Test func anEmptyIssuerIsRefusedInTheFormAndNothingIsAsked() {
    var driver = Self.form()
    #expect(driver.press(.enter).isEmpty)
    #expect(
      Self.issuerForm(driver)?.problem
        == "type the server's issuer URL, such as https://id.example.com/realms/work")
    #expect(driver.text.contains("✗ type the server's issuer URL"))
  }

  /// `http://alice:S3cretPW@…` would send HTTP Basic credentials with every discovery
  /// request and the busy line would repeat the password: refused in the form, unsent, the
  /// password not shown.
  @Test func anIssuerWithAUserAndPasswordIsRefusedInTheFormWithoutShowingThePassword() {
    var driver = Self.form()
    driver.type("https://alice:S3cretPW@id.example.com/realm")
    #expect(driver.press(.enter).isEmpty)
    #expect(driver.state.busy.isEmpty)
    #expect(
      Self.issuerForm(driver)?.problem
        == "the issuer URL names a user and password in the URL, which an issuer URL never "
        + "holds (they would be sent to the server): remove `alice:…@`")
    #expect(Self.issuerForm(driver)?.focus == .issuer)
    #expect(driver.text.contains("✗ the issuer URL names a user and password"))
    #expect(!driver.text.contains("Discovering"))
  }

  @Test func aDiscoveryDocumentsAddressIsRefusedNamingItsIssuer() {
    var driver = Self.form()
    driver.type("https://id.example.com/realms/work/.well-known/openid-configuration")
    #expect(driver.press(.enter).isEmpty)
    #expect(
      Self.issuerForm(driver)?.problem
        == "https://id.example.com/realms/work/.well-known/openid-configuration is the address "
        + "of a discovery document, not an issuer: give the issuer it belongs to, "
        + "https://id.example.com/realms/work")
    #expect(Self.issuerForm(driver)?.focus == .issuer)
  }

  @Test func enterDiscoversInTheBackgroundAndEscCancelsItKeepingWhatWasTyped() throws {
    var driver = Self.form()
    driver.type(IssuerFixtures.issuer)
    driver.press(.tab)
    driver.type("my-client")
    let effects = driver.press(.enter)
    guard case .discoverIssuer(let id, IssuerFixtures.issuer)? = effects.first else {
      Issue.record("Enter did not discover: \(effects)")
      return
    }
    #expect(!driver.state.busy.isEmpty)
    #expect(driver.text.contains("Discovering \(IssuerFixtures.issuer)…"))
    // Typing and a second Enter do nothing while it runs.
    driver.type("x")
    #expect(driver.press(.enter).isEmpty)
    // The request in flight is abandoned, not only its answer.
    #expect(driver.press(.escape) == [.cancel(id)])
    let form = try #require(Self.issuerForm(driver))
    #expect(form.pending == nil)
    #expect(form.issuer.text == IssuerFixtures.issuer)
    #expect(form.clientID.text == "my-client")
    #expect(driver.state.busy.isEmpty)
    #expect(driver.text.contains("✗ discovery stopped; Enter tries again"))
    // Its late answer is dropped.
    driver.finish(id, .issuerDiscovered(.success(try IssuerFixtures.summary())))
    #expect(Self.issuerForm(driver)?.discovery == nil)
  }

  @Test func whatWasFoundShowsWithTheIDPrefilledFromTheIssuer() throws {
    let driver = Self.discovered(try IssuerFixtures.summary())
    let form = try #require(Self.issuerForm(driver))
    #expect(form.providerID.text == "dynamic")
    #expect(form.focus == .providerID)
    #expect(form.registers)
    let text = driver.text
    #expect(text.contains("registration     offered (RFC 7591)"))
    #expect(text.contains("✓ authtui can register itself there, as a public client (RFC 7591)."))
    #expect(text.contains("Provider id   dynamic"))
    #expect(
      text.contains("Enter registers authtui, saves ~/.config/authtui/providers/dynamic.json and"))
  }

  @Test func theIDIsCheckedByTheRuleAndAgainstTheProvidersThere() throws {
    var driver = Self.discovered(try IssuerFixtures.summary())
    driver.press(.control("u"))
    driver.type("Dyn amic")
    #expect(driver.press(.enter).isEmpty)
    #expect(
      Self.issuerForm(driver)?.problem
        == "\"Dyn amic\" is not a valid provider id: use 1 to 64 lowercase letters, digits and "
        + "'-', not starting with '-' (for example \"work-sso\")")
    driver.press(.control("u"))
    driver.type("work")
    #expect(driver.press(.enter).isEmpty)
    #expect(
      Self.issuerForm(driver)?.problem
        == "work is taken (Work SSO); choose another id, such as dynamic")
  }

  @Test func enterRegistersSavesAndGoesOnToTheSignIn() throws {
    var driver = Self.discovered(try IssuerFixtures.summary())
    let effects = driver.press(.enter)
    guard
      case .addProvider(let id, "dynamic", IssuerFixtures.issuer, nil)? = effects.first
    else {
      Issue.record("Enter did not add the provider: \(effects)")
      return
    }
    #expect(driver.text.contains("Registering authtui and saving…"))
    driver.finish(
      id,
      IssuerFixtures.saved(
        registeredClientID: "dyn-7f3a", providers: Fixtures.providers + [IssuerFixtures.added]))
    #expect(driver.state.provider("dynamic") != nil)
    #expect(
      driver.state.message?.text
        == "registered authtui as the client dyn-7f3a; saved ~/.config/authtui/providers/dynamic.json"
    )
    // Two flows: the flow choice of the new provider.
    guard case .signIn(let signIn)? = driver.state.topPanel,
      case .chooseMethod(let provider, 0) = signIn.step
    else {
      Issue.record("not at the flow choice: \(String(describing: driver.state.topPanel))")
      return
    }
    #expect(provider.id == "dynamic")
  }

  @Test func aRefusedRegistrationIsOneLineWithTheFixAndAClientIDThenSavesWithout() throws {
    var driver = Self.discovered(try IssuerFixtures.summary())
    guard case .addProvider(let id, _, _, _)? = driver.press(.enter).first else {
      Issue.record("Enter did not add the provider")
      return
    }
    let refused = ProviderAdditionError.registration(
      .registrationFailed(.initialAccessTokenRequired(status: 401)))
    driver.finish(id, .providerAdded(.failure(refused)))
    let form = try #require(Self.issuerForm(driver))
    #expect(form.pending == nil)
    #expect(form.focus == .clientID)
    #expect(form.providerID.text == "dynamic")
    #expect(
      form.problem
        == "The server's registration endpoint wants an initial access token (HTTP 401), which "
        + "authtui does not have; register a public (native) client with the server's "
        + "administrator and give authtui its client id. Type it as the client id above, and "
        + "Enter saves it.")
    driver.type("admin-client")
    #expect(!Self.issuerForm(driver)!.registers)
    guard
      case .addProvider(_, "dynamic", IssuerFixtures.issuer, "admin-client")? = driver.press(
        .enter
      ).first
    else {
      Issue.record("Enter did not save with the client id")
      return
    }
  }

  @Test func aDiscoveryFailureIsOneLineWithTheFixAndTheFormKeepsWhatWasTyped() throws {
    var driver = Self.form()
    driver.type("http://127.0.0.1:9/nothing")
    guard case .discoverIssuer(let id, _)? = driver.press(.enter).first else { return }
    let failure = ProviderAdditionError.discovery(
      .transport(.cannotConnect(host: "127.0.0.1")), issuer: "http://127.0.0.1:9/nothing")
    driver.finish(id, .issuerDiscovered(.failure(failure)))
    let form = try #require(Self.issuerForm(driver))
    #expect(form.issuer.text == "http://127.0.0.1:9/nothing")
    #expect(form.focus == .issuer)
    #expect(form.problem == failure.description)
    #expect(driver.text.contains("✗ http://127.0.0.1:9/nothing could not be discovered:"))
  }

  @Test func editingTheIssuerForgetsWhatWasFound() throws {
    var driver = Self.discovered(try IssuerFixtures.summary())
    driver.press(.tab)
    #expect(Self.issuerForm(driver)?.focus == .issuer)
    driver.type("/")
    let form = try #require(Self.issuerForm(driver))
    #expect(form.discovery == nil)
    #expect(form.providerID.isEmpty)
    #expect(form.fields == [.issuer, .clientID])
    guard case .discoverIssuer(_, let issuer)? = driver.press(.enter).first else {
      Issue.record("Enter did not discover again")
      return
    }
    #expect(issuer == IssuerFixtures.issuer + "/")
  }

  @Test func aServerWithoutRegistrationIsSavedAndItsSetupFormAsksForTheClientID() throws {
    var driver = Self.discovered(try IssuerFixtures.summary(registration: false))
    #expect(driver.text.contains("✗ It lets no application register itself"))
    #expect(driver.text.contains("Enter saves ~/.config/authtui/providers/dynamic.json."))
    guard case .addProvider(let id, "dynamic", _, nil)? = driver.press(.enter).first else {
      Issue.record("Enter did not save")
      return
    }
    var saved = IssuerFixtures.added
    saved.isUsable = false
    saved.setup = ProviderSetup(
      registrationNote: "ask the administrator of \(IssuerFixtures.issuer) for a public client",
      file: IssuerFixtures.file,
      guide: RegistrationGuide(
        applicationType: "public (native) client, no client secret",
        redirectURI: "http://127.0.0.1/callback", anyPort: true))
    driver.finish(id, IssuerFixtures.saved(providers: Fixtures.providers + [saved]))
    #expect(driver.state.context == .providerSetup)
    #expect(driver.text.contains("dynamic needs a client id of your own"))
  }

  @Test func theDemoOffersItsSandboxServer() {
    var configuration = Fixtures.configuration
    configuration.issuerSuggestion = IssuerFixtures.issuer
    var driver = Driver(configuration: configuration)
    driver.press(.character("a"), .end)
    #expect(driver.text.contains("In the demo, try \(IssuerFixtures.issuer): nothing to register."))
    driver.press(.enter)
    #expect(Self.issuerForm(driver)?.issuer.text == IssuerFixtures.issuer)
    guard case .discoverIssuer(_, IssuerFixtures.issuer)? = driver.press(.enter).first else {
      Issue.record("Enter did not discover the suggested issuer")
      return
    }
  }

  @Test func anEmptyConfigurationStillOpensTheProviderListWithOtherProvider() {
    var driver = Driver(accounts: [], providers: [])
    driver.press(.character("a"))
    #expect(driver.state.context == .providerChoice)
    #expect(driver.text.contains("› Other provider…"))
    driver.press(.enter)
    #expect(driver.state.context == .otherProvider)
  }
}
