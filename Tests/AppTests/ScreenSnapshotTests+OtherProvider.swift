import Accounts
import App
import Foundation
import Providers
import Terminal
import Testing

@testable import AuthCore

/// Golden screens of "Other provider…" (the issuer form, what discovery found with and without
/// registration, a failure), the rename dialog and the label prompt after a sign-in, and the
/// passphrase dialog.
extension ScreenSnapshotTests {
  @Test(arguments: sizes) func issuerFormWithAnIssuerTyped(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("a"), .end, .enter)
    driver.type("https://id.example.com/realms/work")
    Snapshot.check(driver.frame, Self.name("other-provider", size))
  }

  @Test(arguments: sizes) func issuerFormWhileDiscovering(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("a"), .end, .enter)
    driver.type("https://id.example.com/realms/work")
    driver.press(.enter)
    Snapshot.check(driver.frame, Self.name("other-provider-discovering", size))
  }

  private func discovered(_ summary: IssuerSummary, size: Size) -> Driver {
    var driver = Driver(size: size)
    driver.press(.character("a"), .end, .enter)
    driver.type(IssuerFixtures.issuer)
    guard case .discoverIssuer(let id, _)? = driver.press(.enter).first else { return driver }
    driver.finish(id, .issuerDiscovered(.success(summary)))
    return driver
  }

  /// The issuer form after Enter, its registration refused by the server with `code` and
  /// `description`.
  private func refused(size: Size, code: String, description: String) throws -> Driver {
    var driver = discovered(try IssuerFixtures.summary(), size: size)
    guard case .addProvider(let id, _, _, _)? = driver.press(.enter).first else { return driver }
    driver.finish(
      id,
      .providerAdded(
        .failure(
          .registration(
            .registrationFailed(.refused(code: code, description: description))))))
    return driver
  }

  @Test(arguments: sizes) func issuerFoundWithRegistration(size: Size) throws {
    let driver = discovered(try IssuerFixtures.summary(), size: size)
    #expect(driver.text.contains("✓ authtui can register itself there"))
    Snapshot.check(driver.frame, Self.name("other-provider-found", size))
  }

  @Test(arguments: sizes) func issuerFoundWithoutRegistration(size: Size) throws {
    let driver = discovered(try IssuerFixtures.summary(registration: false), size: size)
    #expect(driver.text.contains("✗ It lets no application register itself"))
    Snapshot.check(driver.frame, Self.name("other-provider-found-no-registration", size))
  }

  @Test(arguments: sizes + [AppView.minimumSize])
  func issuerFormWithARefusedRegistration(size: Size) throws {
    let driver = try refused(
      size: size, code: "invalid_client_metadata", description: "vendor_tenant missing")
    #expect(driver.text.contains("✗ The server refused authtui's registration"))
    // No "✓ authtui can register itself" beside the refusal, nor a placeholder that says so.
    #expect(!driver.text.contains("can register itself"), "\(driver.text)")
    #expect(!driver.text.contains("authtui registers itself"), "\(driver.text)")
    Snapshot.check(driver.frame, Self.name("other-provider-error", size))
  }

  @Test func issuerFormWithALongRefusalShowsItWholeOnTheSmallestScreen() throws {
    let size = AppView.minimumSize
    let driver = try refused(
      size: size, code: "invalid_software_statement",
      description: "a software statement is required")
    #expect(driver.text.contains("Enter"), "\(driver.text)")
    #expect(driver.text.contains("saves it."), "\(driver.text)")
    Snapshot.check(driver.frame, Self.name("other-provider-long-refusal", size))
  }

  @Test(arguments: sizes + [AppView.minimumSize]) func renameDialog(size: Size) {
    var driver = Driver(size: size)
    driver.select("bob")
    driver.press(.character("l"))
    driver.press(.control("u"))
    driver.type("robert")
    Snapshot.check(driver.frame, Self.name("rename", size))
  }

  @Test(arguments: sizes) func passphraseDialog(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("P"))
    driver.type("old secret")
    driver.press(.enter)
    driver.type("new")
    Snapshot.check(driver.frame, Self.name("passphrase", size))
  }

  @Test(arguments: sizes + [AppView.minimumSize])
  func passphraseDialogRefusingTheCurrentOne(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("P"))
    for text in ["wrong", "new", "new"] {
      driver.type(text)
      driver.press(.enter)
    }
    if let id = driver.state.busy.last?.id {
      driver.finish(id, .passphraseChanged(.failure(.wrongCurrent)))
    }
    Snapshot.check(driver.frame, Self.name("passphrase-refused", size))
  }

  @Test(arguments: sizes + [AppView.minimumSize]) func renameDialogRefusingALabel(size: Size) {
    var driver = Driver(size: size)
    driver.select("bob")
    driver.press(.character("l"))
    driver.type("/home")
    driver.press(.enter)
    Snapshot.check(driver.frame, Self.name("rename-refused", size))
  }

  @Test(arguments: sizes) func labelPromptAfterASignInNamedOnlyByItsSubject(size: Size) {
    var driver = Driver(size: size)
    guard let id = driver.startSignIn("work", .pkce) else { return }
    let account = AccountSummary(
      name: Fixtures.name("work", "1029384756"), providerName: "Work SSO",
      expiresAt: driver.now.addingTimeInterval(3600), refreshable: true)
    driver.finish(id, .signedIn(.success(SignedInSummary(account, labelIsSubject: true))))
    Snapshot.check(driver.frame, Self.name("label-prompt", size))
  }
}
