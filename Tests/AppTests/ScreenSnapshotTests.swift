import Accounts
import App
import Foundation
import Terminal
import Testing

@testable import AuthCore

/// Golden screens of every screen at 80×24 and 60×16: text, role map and cursor
/// (`Tests/AppTests/Snapshots`; `RECORD_SNAPSHOTS=1` rewrites them).
@Suite struct ScreenSnapshotTests {
  static let sizes = [Size(rows: 24, columns: 80), Size(rows: 16, columns: 60)]

  static func name(_ screen: String, _ size: Size) -> String {
    "\(screen)-\(size.columns)x\(size.rows)"
  }

  @Test(arguments: sizes) func starting(size: Size) {
    let driver = Driver(size: size, unlocked: false)
    Snapshot.check(driver.frame, Self.name("starting", size))
  }

  @Test(arguments: sizes) func unlockWithTheTypedPassphraseMasked(size: Size) {
    var driver = Driver(size: size, unlocked: false)
    driver.send(.finished(.start, .vault(.locked(problem: nil))))
    driver.type("hunter2")
    #expect(!driver.text.contains("hunter2"))
    Snapshot.check(driver.frame, Self.name("unlock", size))
  }

  @Test(arguments: sizes) func unlockAfterAWrongPassphrase(size: Size) {
    var driver = Driver(size: size, unlocked: false)
    driver.send(.finished(.start, .vault(.locked(problem: nil))))
    driver.type("wrong")
    let effects = driver.press(.enter)
    guard case .unlock(let id, _) = effects.first else {
      Issue.record("Enter did not unlock: \(effects)")
      return
    }
    driver.finish(
      id,
      .unlocked(
        problem:
          "wrong passphrase for the vault; type it again (Caps Lock?) or set AUTHTUI_PASSPHRASE"))
    Snapshot.check(driver.frame, Self.name("unlock-wrong-passphrase", size))
  }

  @Test(arguments: sizes) func newVault(size: Size) {
    var driver = Driver(size: size, unlocked: false)
    driver.send(.finished(.start, .vault(.missing)))
    driver.type("correct horse")
    driver.press(.tab)
    driver.type("correct")
    Snapshot.check(driver.frame, Self.name("new-vault", size))
  }

  @Test(arguments: sizes) func unusableVault(size: Size) {
    var driver = Driver(size: size, unlocked: false)
    driver.send(
      .finished(
        .start,
        .vault(
          .unusable(
            "the vault ~/.local/share/authtui/vault.db is readable by others; run "
              + "`chmod 600 ~/.local/share/authtui/vault.db` and start again"))))
    Snapshot.check(driver.frame, Self.name("vault-unusable", size))
  }

  @Test(arguments: sizes) func accountListWithWideLabelsAligned(size: Size) {
    check("list", size, selecting: "🔑 ops-team", pressing: .character("r"))
  }

  /// A terminal wide enough hints every key of the list, the two that only the help screen
  /// lists at 80 columns (`*` default, `P` passphrase) included.
  @Test func aWideTerminalHintsEveryKeyOfTheList() {
    let size = Size(rows: 24, columns: 160)
    var driver = Driver(size: size)
    driver.select("🔑 ops-team")
    let hints = driver.frame.textLines()[size.rows - 1]
    #expect(hints.contains("* default") && hints.contains("P passphrase"), "\(hints)")
    Snapshot.check(driver.frame, Self.name("list-wide", size))
  }

  @Test(arguments: sizes) func theDefaultAccountIsMarkedAfterItsLabel(size: Size) {
    let accounts = Fixtures.accounts.map { account in
      var marked = account
      marked.isDefault = account.name.label == "bob" || account.name.label == "alice"
      return marked
    }
    var driver = Driver(accounts: accounts, size: size)
    driver.select("bob")
    Snapshot.check(driver.frame, Self.name("list-default", size))
  }

  /// A Google account of a "Testing" app on the sixth day of its 7-day refresh token: the
  /// list says by when to sign in again, and the details say until when it refreshes.
  @Test(arguments: sizes) func aRefreshTokenEndingSoonSaysWhenToSignInAgain(size: Size) {
    let google = AccountSummary(
      name: Fixtures.name("google", "me@example.com"), providerName: "Google",
      expiresAt: Fixtures.now.addingTimeInterval(3000),
      obtainedAt: Fixtures.now.addingTimeInterval(-599), scopes: ["openid", "email"],
      refreshable: true, identity: "me@example.com",
      refreshValidity: DateInterval(
        start: Fixtures.now.addingTimeInterval(-6 * 86_400), duration: 7 * 86_400))
    var driver = Driver(accounts: Fixtures.accounts + [google], size: size)
    driver.select("me@example.com")
    Snapshot.check(driver.frame, Self.name("list-refresh-ending", size))
    driver.press(.enter)
    Snapshot.check(driver.frame, Self.name("details-refresh-ending", size))
  }

  @Test(arguments: sizes) func emptyAccountList(size: Size) {
    let driver = Driver(accounts: [], size: size)
    Snapshot.check(driver.frame, Self.name("list-empty", size))
  }

  @Test(arguments: sizes) func filterBeingTyped(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("/"))
    driver.type("o")
    Snapshot.check(driver.frame, Self.name("list-filter", size))
  }

  @Test(arguments: sizes) func filterWithoutMatches(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("/"))
    driver.type("zz")
    driver.press(.enter)
    Snapshot.check(driver.frame, Self.name("list-filter-no-match", size))
  }

  /// The screen after selecting the account labelled `label` in the list and pressing `keys`.
  private func check(
    _ screen: String, _ size: Size, selecting label: String, pressing keys: KeyEvent...
  ) {
    var driver = Driver(size: size)
    driver.select(label)
    for key in keys { driver.press(key) }
    Snapshot.check(driver.frame, Self.name(screen, size))
  }

  @Test(arguments: sizes) func accountDetails(size: Size) {
    check("details", size, selecting: "bob", pressing: .enter)
  }

  /// A DPoP-bound account: the details say so and show its key's thumbprint (beside its label
  /// when it fits, else below it), and the copy key refuses the token with the command
  /// line's reason.
  @Test(arguments: sizes) func detailsOfADPoPBoundAccountShowItsKeysThumbprint(size: Size) {
    var driver = Driver(accounts: Fixtures.accounts + [Fixtures.dana], size: size)
    driver.select("dana")
    driver.press(.enter)
    Snapshot.check(driver.frame, Self.name("details-dpop", size))
    #expect(driver.press(.character("c")).isEmpty)
    Snapshot.check(driver.frame, Self.name("details-dpop-copy-refused", size))
  }

  @Test(arguments: sizes) func providerChoiceWithAnUnusableProvider(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("a"), .down)
    Snapshot.check(driver.frame, Self.name("sign-in-provider", size))
  }

  @Test(arguments: sizes) func flowChoice(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("a"), .end, .up, .enter)
    Snapshot.check(driver.frame, Self.name("sign-in-flow", size))
  }

  /// A browser sign-in at `provider` whose countdown of `seconds` has run for `elapsed`.
  private func checkBrowserSignIn(
    _ provider: ProviderID, seconds: TimeInterval, elapsed: TimeInterval, _ screen: String,
    _ size: Size
  ) {
    var driver = Driver(size: size)
    guard let id = driver.startSignIn(provider, .pkce) else { return }
    driver.send(.signInProgress(id, driver.browserSnapshot(seconds: seconds)))
    driver.advance(elapsed)
    Snapshot.check(driver.frame, Self.name(screen, size))
  }

  @Test(arguments: sizes) func browserSignInWaiting(size: Size) {
    checkBrowserSignIn("work", seconds: 300, elapsed: 48, "sign-in-browser", size)
  }

  @Test(arguments: sizes) func browserSignInWithoutABrowserOnAFixedPort(size: Size) {
    var configuration = Fixtures.configuration
    configuration.browserAvailable = false
    var driver = Driver(size: size, configuration: configuration)
    guard let id = driver.startSignIn("simkl", .pkce) else { return }
    driver.send(.signInProgress(id, driver.browserSnapshot(seconds: 300)))
    Snapshot.check(driver.frame, Self.name("sign-in-browser-headless", size))
  }

  @Test(arguments: sizes) func pastingTheRedirectAddress(size: Size) {
    var driver = Driver(size: size)
    guard let id = driver.startSignIn("work", .pkce) else { return }
    driver.send(.signInProgress(id, driver.browserSnapshot()))
    driver.press(.character("p"))
    driver.type("http://127.0.0.1:39211/callback?code=abc")
    Snapshot.check(driver.frame, Self.name("sign-in-paste", size))
  }

  @Test(arguments: sizes) func deviceCodeShownLarge(size: Size) {
    var driver = Driver(size: size)
    guard driver.showDeviceCode(for: 2) != nil else { return }
    Snapshot.check(driver.frame, Self.name("sign-in-device", size))
  }

  /// A terminal with room shows the address as a QR code beside the text; a smaller one (the
  /// other golden screens of the flow) leaves it out.
  @Test(
    arguments: [
      Size(rows: 30, columns: 110), Size(rows: 36, columns: 120), Size(rows: 40, columns: 80),
    ])
  func deviceCodeWithItsAddressAsAQRCode(size: Size) {
    var driver = Driver(size: size)
    guard driver.showDeviceCode(for: 2) != nil else { return }
    Snapshot.check(driver.frame, Self.name("sign-in-device-qr", size))
  }

  @Test(arguments: sizes) func deviceCodeWhileTheProviderIsUnreachable(size: Size) {
    var driver = Driver(size: size)
    guard let id = driver.startSignIn("work", .device) else { return }
    var snapshot = driver.codeSnapshot()
    snapshot.pollTrouble = .httpStatus(500)
    snapshot.nextPollAt = driver.now.addingTimeInterval(20)
    driver.send(.signInProgress(id, snapshot))
    driver.advance(2)
    Snapshot.check(driver.frame, Self.name("sign-in-device-retrying", size))
  }

  @Test(arguments: sizes) func simklPINShownLarge(size: Size) {
    var driver = Driver(size: size)
    guard let id = driver.startSignIn("simkl", .pin) else { return }
    driver.send(
      .signInProgress(id, driver.codeSnapshot(code: "A7K2Q", seconds: 900, complete: false)))
    driver.advance(25)
    Snapshot.check(driver.frame, Self.name("sign-in-pin", size))
  }

  @Test(arguments: sizes) func silentDenialEndsWithNoAnswerAndRetry(size: Size) {
    checkBrowserSignIn("simkl", seconds: 60, elapsed: 60, "sign-in-no-answer", size)
  }

  @Test(arguments: sizes) func signInPreparing(size: Size) {
    var driver = Driver(size: size)
    driver.startSignIn("work", .device)
    Snapshot.check(driver.frame, Self.name("sign-in-preparing", size))
  }

  @Test(arguments: sizes) func detailsOfAnAccountThatNeedsASignIn(size: Size) {
    check("details-sign-in-needed", size, selecting: "carol", pressing: .enter)
  }

  @Test(arguments: sizes) func signInFinishing(size: Size) {
    var driver = Driver(size: size)
    guard let id = driver.startSignIn("work", .pkce) else { return }
    driver.send(.signInProgress(id, SignInProgress(flow: .pkce, phase: .exchangingCode)))
    Snapshot.check(driver.frame, Self.name("sign-in-finishing", size))
  }

  @Test(arguments: sizes + [AppView.minimumSize])
  func signOutOfAProviderThatCannotRevoke(size: Size) {
    check("sign-out-confirm", size, selecting: "alice", pressing: .character("d"))
  }

  @Test(arguments: sizes) func signOutInProgress(size: Size) {
    check("sign-out-working", size, selecting: "bob", pressing: .character("d"), .character("y"))
  }

  @Test(arguments: sizes) func signOutDoneWithAProviderSession(size: Size) {
    var driver = Driver(size: size)
    driver.select("bob")
    driver.press(.character("d"))
    guard case .signOut(let id, _) = driver.press(.character("y")).first else { return }
    driver.finish(id, Self.signedOutWithAProviderSession)
    Snapshot.check(driver.frame, Self.name("sign-out-done", size))
  }

  /// The status line's sentence wraps at 50 columns: the dialog is laid out above it, whole.
  @Test(arguments: sizes + [AppView.minimumSize])
  func signOutDoneAtAProviderThatCannotRevoke(size: Size) {
    var driver = Driver(size: size)
    driver.select("alice")
    driver.press(.character("d"))
    guard case .signOut(let id, _) = driver.press(.enter).first else {
      Issue.record("Enter did not sign out of simkl/alice")
      return
    }
    driver.finish(id, .signedOut(.success(SignOutReport(revocation: .unsupported))))
    Snapshot.check(driver.frame, Self.name("sign-out-done-no-revocation", size))
  }

  @Test(arguments: sizes + [AppView.minimumSize])
  func exportToAnEnvFileWithABadVariableName(size: Size) {
    var driver = Driver(size: size)
    driver.select("bob")
    driver.press(.character("e"), .tab, .tab, .control("u"))
    driver.type("2FA TOKEN")
    driver.press(.enter)
    Snapshot.check(driver.frame, Self.name("export-env-file", size))
  }

  @Test(arguments: sizes) func exportToTheClipboard(size: Size) {
    check("export-clipboard", size, selecting: "alice", pressing: .character("e"), .right)
  }

  @Test(arguments: sizes) func helpFromTheList(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("?"))
    Snapshot.check(driver.frame, Self.name("help", size))
  }

  @Test(arguments: sizes) func configurationProblemsAtStart(size: Size) {
    let keys = KeyBindings(
      overrides: ["refresh": ["ctrl-c"], "refersh": ["x"]], file: "~/.config/authtui/config.json",
      lines: ["refresh": 3, "refersh": 4])
    let driver = Driver(size: size, keys: keys)
    Snapshot.check(driver.frame, Self.name("notices", size))
  }

  /// A sign-out's answer: tokens revoked, and the provider's session still to end in the browser.
  static var signedOutWithAProviderSession: Answer {
    .signedOut(
      .success(
        SignOutReport(
          revocation: .revoked,
          endSessionURL: URL(string: "http://127.0.0.1:41234/oidc/end_session"))))
  }

  /// The sizes a message must be whole at: the two above and a roomy one.
  static let messageSizes = sizes + [Size(rows: 30, columns: 100)]

  /// The screen's text with each row trimmed and the rows joined by spaces: a wrapped message
  /// reads as one sentence again.
  static func joined(_ driver: Driver) -> String {
    driver.frame.textLines().map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
  }

  @Test(arguments: messageSizes) func aRefusedRefreshShowsItsWholeMessageWithTheFix(size: Size) {
    var driver = Driver(size: size)
    driver.select("bob")
    guard case .refresh(let id, _) = driver.press(.character("r")).first else {
      Issue.record("r did not refresh bob")
      return
    }
    driver.finish(
      id,
      .account(.failure(.signInNeeded("work/bob", reason: .refreshRejected))))
    #expect(
      Self.joined(driver).contains(
        "work/bob: the provider refused work/bob's refresh token (it was revoked or has "
          + "expired); its tokens were cleared: press s to sign in again"))
    Snapshot.check(driver.frame, Self.name("message-wrapped", size))
  }

  @Test(arguments: messageSizes + [AppView.minimumSize])
  func unlockShowsALongProblemWhole(size: Size) {
    var driver = Driver(size: size, unlocked: false)
    let problem =
      "the passphrase typed does not open the vault /home/someone/.local/share/authtui/vault.db "
      + "(nothing was changed); try again with the passphrase set by `authtui vault init` or "
      + "the last `authtui vault passwd`"
    driver.send(.finished(.start, .vault(.locked(problem: problem))))
    #expect(Self.joined(driver).contains(problem))
    Snapshot.check(driver.frame, Self.name("unlock-long-problem", size))
  }

  @Test func helpAtTheSmallestSizeKeepsItsScrollPositionOffTheText() {
    let size = AppView.minimumSize
    var driver = Driver(size: size)
    driver.press(.character("?"))
    let rows = driver.frame.textLines()
    // What is left out and the position have the row above the hints to themselves.
    let position = rows[size.rows - 3].trimmingCharacters(in: .whitespaces)
    #expect(position.wholeMatch(of: /↓ [0-9]+ more +[0-9]+\/[0-9]+/) != nil, "\(position)")
    Snapshot.check(driver.frame, Self.name("help", size))
  }

  @Test func theTooSmallNoticeOnTheUnlockScreenNamesEsc() {
    let size = Size(rows: 10, columns: 40)
    var driver = Driver(size: size, unlocked: false)
    driver.send(.finished(.start, .vault(.locked(problem: nil))))
    driver.type("hunter2")
    #expect(Self.joined(driver).contains("press Esc to quit."))
    Snapshot.check(driver.frame, Self.name("too-small-unlock", size))
  }

  @Test(arguments: [Size(rows: 10, columns: 40), Size(rows: 20, columns: 49)])
  func aTerminalTooSmallSaysSo(size: Size) {
    let driver = Driver(size: size)
    #expect(driver.text.contains("Terminal too small (\(size.columns)×\(size.rows))."))
    Snapshot.check(driver.frame, Self.name("too-small", size))
  }
}

extension ScreenSnapshotTests {
  /// The setup form of Simkl (no client id yet), opened from the provider choice.
  @Test(arguments: sizes) func providerChoiceWithAProviderToSetUp(size: Size) {
    var driver = Driver(accounts: [], providers: Fixtures.unconfiguredProviders, size: size)
    driver.press(.character("a"), .home, .down, .down)
    #expect(driver.text.contains("redirect URI: http://127.0.0.1:8765/callback"))
    Snapshot.check(driver.frame, Self.name("sign-in-provider-to-set-up", size))
  }

  private func setupForm(_ size: Size) -> Driver {
    var driver = Driver(accounts: [], providers: Fixtures.unconfiguredProviders, size: size)
    driver.press(.character("a"), .home, .down, .down, .enter)
    return driver
  }

  @Test(arguments: sizes) func providerSetupFormWithAClientIDTyped(size: Size) {
    var driver = setupForm(size)
    driver.type("my-simkl-app")
    #expect(driver.text.contains("https://simkl.com/settings/developer/"))
    Snapshot.check(driver.frame, Self.name("provider-setup", size))
  }

  @Test(arguments: sizes) func providerSetupFormWithABadPort(size: Size) {
    var driver = setupForm(size)
    driver.type("my-simkl-app")
    driver.press(.tab, .control("u"))
    driver.type("80")
    driver.press(.enter)
    Snapshot.check(driver.frame, Self.name("provider-setup-bad-port", size))
  }

  /// Google's form: the client id typed, the secret as dots.
  @Test(arguments: sizes) func googlesSetupFormAsksForTheSecret(size: Size) {
    var driver = Driver(accounts: [], providers: [Fixtures.googleToSetUp], size: size)
    driver.press(.character("a"), .home, .enter)
    driver.type("123.apps.googleusercontent.com")
    driver.press(.tab)
    driver.type("GOCSPX-abc")
    Snapshot.check(driver.frame, Self.name("provider-setup-google", size))
  }
}
