import App
import Foundation
import Terminal
import Testing

@testable import AuthCore

/// The sign-in screens through the reducer, with a clock the tests move.
@Suite struct SignInReducerTests {
  @Test func aBrowserCountdownReachingZeroShowsNoAnswerAndRetryStartsAFreshAttempt() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    driver.send(.signInProgress(id, driver.browserSnapshot(seconds: 300)))
    #expect(driver.text.contains("5:00 left"))

    #expect(driver.advance(299).isEmpty)
    #expect(driver.text.contains("0:01 left"))
    #expect(!driver.text.contains("no answer"))

    let ended = driver.advance(1)
    #expect(ended == [.cancel(id)])
    // The ended attempt's countdown, address and approve line are gone: one message says what
    // ended it, then the retry key.
    #expect(!driver.text.contains("left"))
    #expect(!driver.text.contains("127.0.0.1:41234"))
    #expect(!driver.text.contains("Approve there"))
    #expect(
      ScreenSnapshotTests.joined(driver).contains(
        "✗ No answer from Work SSO in 5m 00s (the sign-in may have been declined)."))
    #expect(
      ScreenSnapshotTests.joined(driver).contains(
        "Press r to try again with a fresh attempt, Esc to go back."))
    #expect(driver.frame.textLines().last?.hasPrefix(" r retry") == true)
    // It stays still: a minute later the screen has not moved.
    let frame = driver.text
    driver.advance(60)
    #expect(driver.text == frame)

    let retried = driver.passWriteCheck(driver.press(.character("r")))
    guard case .startSignIn(let fresh, "work", .pkce, nil) = retried.first, retried.count == 1
    else {
      Issue.record("r did not start a new attempt: \(retried)")
      return
    }
    #expect(fresh != id)
    // The old attempt's answer, arriving late, is dropped.
    driver.finish(id, .signedIn(.success(SignedInSummary(Fixtures.alice))))
    #expect(driver.state.context == .signIn)
    #expect(driver.state.accounts.map(\.name) == AppState.sorted(Fixtures.accounts).map(\.name))
  }

  @Test func anExpiredDeviceCodeSaysSo() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .device)
    driver.send(.signInProgress(id, driver.codeSnapshot(seconds: 10)))
    #expect(driver.advance(10) == [.cancel(id)])
    #expect(driver.text.contains("✗ The code expired before it was approved."))
    #expect(!driver.text.contains("WDJB"))
  }

  @Test func deviceSlowDownIsReflectedInTheNextPollTime() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .device)
    driver.send(.signInProgress(id, driver.codeSnapshot(interval: 5)))
    #expect(driver.text.contains("next check in 5 s (every 5 s)"))
    driver.advance(3)
    #expect(driver.text.contains("next check in 2 s (every 5 s)"))
    driver.advance(2)
    // The provider answered slow_down: AuthCore adds 5 s to the interval.
    var slower = driver.codeSnapshot(interval: 10)
    slower.deadline = driver.state.attemptDeadline
    driver.send(.signInProgress(id, slower))
    #expect(driver.text.contains("next check in 10 s (every 10 s)"))
    driver.advance(4)
    #expect(driver.text.contains("next check in 6 s (every 10 s)"))
  }

  /// Esc at every step: no effect that could store anything, and a late success changes
  /// nothing.
  @Test(arguments: CancelStep.allCases) func cancellingAtAnyStepStoresNothing(step: CancelStep) {
    var driver = Driver()
    var attempt: RequestID?
    switch step {
    case .providerChoice:
      driver.press(.character("a"))
    case .flowChoice:
      driver.press(.character("a"), .end, .up, .enter)
    case .starting, .waitingForBrowser, .pasteField, .waitingForApproval, .finishing:
      attempt = driver.startSignIn("work", step == .waitingForApproval ? .device : .pkce)
      guard let attempt else { return }
      switch step {
      case .waitingForBrowser: driver.send(.signInProgress(attempt, driver.browserSnapshot()))
      case .pasteField:
        driver.send(.signInProgress(attempt, driver.browserSnapshot()))
        driver.press(.character("p"))
        driver.type("http://127.0.0.1:39211/callback?code=half-typed")
      case .waitingForApproval: driver.send(.signInProgress(attempt, driver.codeSnapshot()))
      case .finishing:
        driver.send(.signInProgress(attempt, SignInProgress(flow: .pkce, phase: .exchangingCode)))
      default: break
      }
    }
    let before = driver.effects.count
    // Esc steps back (the paste field closes first, the flow choice returns to the providers)
    // until the list is back.
    var presses = 0
    while driver.state.context != .list && presses < 3 {
      driver.press(.escape)
      presses += 1
    }
    #expect(presses == (step == .pasteField || step == .flowChoice ? 2 : 1))
    let afterCancel = Array(driver.effects.dropFirst(before))
    #expect(!afterCancel.contains { $0.couldStore })
    #expect(afterCancel == (attempt.map { [Effect.cancel($0)] } ?? []))
    #expect(driver.state.context == .list)
    if let attempt {
      driver.finish(attempt, .signedIn(.success(SignedInSummary(Fixtures.alice))))
      #expect(driver.state.accounts == AppState.sorted(Fixtures.accounts))
      #expect(driver.text.contains("sign-in cancelled; nothing was stored"))
    }
  }

  enum CancelStep: String, CaseIterable, Sendable {
    case providerChoice, flowChoice, starting, waitingForBrowser, pasteField, waitingForApproval
    case finishing
  }

  @Test func aSuccessfulSignInAddsAndSelectsTheAccount() throws {
    var driver = Driver()
    driver.press(.character("/"))
    driver.type("dave")
    driver.press(.enter)
    let id = try driver.startedSignIn("simkl", .pin)
    driver.send(.signInProgress(id, driver.codeSnapshot(code: "A7K2Q", complete: false)))
    let erin = AccountSummary(name: Fixtures.name("simkl", "erin"), providerName: "Simkl")
    driver.finish(id, .signedIn(.success(SignedInSummary(erin))))
    #expect(driver.state.context == .list)
    #expect(driver.state.selection == erin.name)
    #expect(driver.state.filter.isEmpty)
    #expect(driver.text.contains("signed in: simkl/erin"))
    #expect(driver.text.contains("› erin"))
  }

  @Test func theBrowserOpensByItselfOnceWhenThereIsOne() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    let opened = driver.send(.signInProgress(id, driver.browserSnapshot()))
    guard case .openSignInPage(_, id, nil) = opened.first else {
      Issue.record("the browser was not opened: \(opened)")
      return
    }
    #expect(driver.send(.signInProgress(id, driver.browserSnapshot())).isEmpty)
    // o opens it again on request.
    let again = driver.press(.character("o"))
    #expect(again.count == 1)
  }

  @Test func theBrowserIsGivenTheAttemptsPageAndOpensAgainWhenTheSignInRestarts() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    var snapshot = driver.browserSnapshot()
    snapshot.browserURL = URL(string: "http://127.0.0.1:39211/sign-in/first")
    let opened = driver.send(.signInProgress(id, snapshot))
    guard case .openSignInPage(_, id, nil) = opened.first else {
      Issue.record("the browser was not given the attempt's page: \(opened)")
      return
    }
    // The screen still shows the authorization URL, for copying elsewhere.
    #expect(driver.text.contains("http://127.0.0.1:41234/oidc/authorize?"))

    snapshot.browserURL = URL(string: "http://127.0.0.1:39211/sign-in/second")
    snapshot.restarts = 1
    snapshot.notice = .restarted
    let reopened = driver.send(.signInProgress(id, snapshot))
    guard case .openSignInPage(_, id, nil) = reopened.first else {
      Issue.record("the browser was not opened again: \(reopened)")
      return
    }
    #expect(driver.text.contains("! The sign-in link was opened twice, possibly by another"))
    #expect(driver.send(.signInProgress(id, snapshot)).isEmpty)
  }

  @Test func theBrowserLauncherSaysWhatHappened() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    guard
      case .openSignInPage(let request, _, _) = driver.send(
        .signInProgress(id, driver.browserSnapshot())
      ).first
    else { return }
    driver.finish(request, .browser(.opened(command: "xdg-open")))
    #expect(driver.text.contains("opened the page with xdg-open"))
    #expect(driver.text.contains("Your browser shows Work SSO's consent page"))
    driver.finish(request, .browser(.unavailable("no browser here (no BROWSER and no display)")))
    #expect(driver.text.contains("Open this address in a browser and approve:"))
    #expect(driver.text.contains("no browser here (no BROWSER and no display)"))
  }

  @Test func withoutABrowserNothingOpensByItself() throws {
    var configuration = Fixtures.configuration
    configuration.browserAvailable = false
    var driver = Driver(configuration: configuration)
    let id = try driver.startedSignIn("work", .device)
    #expect(driver.send(.signInProgress(id, driver.codeSnapshot())).isEmpty)
    #expect(driver.text.contains("http://127.0.0.1:41234/oidc/device"))
  }

  @Test func aPastedRedirectGoesToTheAttemptAndAPasteOnTheFlowScreenOpensTheField() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    driver.send(.signInProgress(id, driver.browserSnapshot()))
    driver.press(.paste("http://127.0.0.1:39211/callback?code=abc&state=xyz"))
    #expect(driver.state.context == .pasteRedirect)
    let submitted = driver.press(.enter)
    guard submitted.count == 1,
      case .submitRedirect(let request, id, let url) = submitted.first,
      url == SecretText("http://127.0.0.1:39211/callback?code=abc&state=xyz")
    else {
      Issue.record("the redirect did not go to the attempt: \(submitted)")
      return
    }
    #expect(!"\(submitted)".contains("code=abc"))
    driver.finish(request, .done(.auth(.malformedRedirect("it has no code or error parameter"))))
    #expect(driver.text.contains("That is not a redirect this sign-in can use"))
  }

  static let quitQuestion =
    "sign-in under way: q again quits and abandons it, Esc cancels only the sign-in"

  @Test(arguments: [SignInFlow.pkce, .device])
  func qDuringASignInAsksFirstAndASecondQQuits(method: SignInFlow) throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", method)
    driver.send(
      .signInProgress(id, method == .pkce ? driver.browserSnapshot() : driver.codeSnapshot()))
    #expect(driver.press(.character("q")).isEmpty)
    #expect(!driver.state.shouldExit)
    #expect(driver.state.attemptOnScreen == id)
    #expect(driver.state.message?.kind == .warning)
    #expect(driver.state.message?.text == Self.quitQuestion)
    #expect(driver.text.contains("sign-in under way: q again quits"))
    // The countdown goes on meanwhile; the question stays until a key.
    driver.advance(30)
    #expect(driver.state.message?.text == Self.quitQuestion)
    #expect(driver.press(.character("q")) == [.cancel(id)])
    #expect(driver.state.shouldExit)
  }

  @Test func anotherKeyAfterQKeepsTheSignInAndTheNextQAsksAgain() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    driver.send(.signInProgress(id, driver.browserSnapshot()))
    driver.press(.character("q"))
    driver.press(.character("j"))
    #expect(driver.state.message == nil)
    #expect(driver.press(.character("q")).isEmpty)
    #expect(!driver.state.shouldExit)
    #expect(driver.state.message?.text == Self.quitQuestion)
    // Esc cancels only the sign-in.
    #expect(driver.press(.escape) == [.cancel(id)])
    #expect(!driver.state.shouldExit)
    #expect(driver.state.message?.text == "sign-in cancelled; nothing was stored")
    #expect(driver.state.topPanel == nil)
    // With no sign-in under way, q quits at once, as before.
    #expect(driver.press(.character("q")).isEmpty)
    #expect(driver.state.shouldExit)
  }

  @Test func theRedirectFieldOfASignInTakesQAsText() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .pkce)
    driver.send(.signInProgress(id, driver.browserSnapshot()))
    driver.press(.character("p"))
    #expect(driver.state.context == .pasteRedirect)
    driver.type("q")
    driver.press(.character("q"))
    #expect(!driver.state.shouldExit)
    #expect(driver.state.message == nil)
    #expect(driver.state.attemptOnScreen == id)
    guard case .signIn(let signIn)? = driver.state.topPanel,
      case .attempt(let attempt) = signIn.step
    else {
      Issue.record("the sign-in screen is gone")
      return
    }
    #expect(attempt.paste?.text == "qq")
  }

  @Test func anUnusableProviderShowsItsProblemInsteadOfStarting() {
    var driver = Driver()
    driver.press(.character("a"), .home, .down)
    #expect(driver.press(.enter).isEmpty)
    #expect(
      driver.text.contains("Muhajir cannot be used: ~/.config/authtui/providers/muhajir.json:3"))
  }

  @Test func aDeclineEndingInAFullStopIsNotEndedTwice() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .device)
    driver.send(.signInProgress(id, driver.codeSnapshot()))
    driver.finish(
      id, .signedIn(.failure(.auth(.accessDenied(description: "The user declined.")))))
    #expect(
      ScreenSnapshotTests.joined(driver).contains(
        "✗ Work SSO declined the sign-in (The user declined)."))
  }

  /// The command line's "sign in with another --label" is the provider choice's label key
  /// here, reached by going back.
  @Test func aLabelTakenByAnotherUserSaysHowToChooseAnotherInTheUI() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .device)
    driver.send(.signInProgress(id, driver.codeSnapshot()))
    driver.finish(id, .signedIn(.failure(.labelTaken("work/bob"))))
    let text = ScreenSnapshotTests.joined(driver)
    #expect(
      text.contains(
        "✗ work/bob belongs to another user of the provider; nothing was stored. Go back with "
          + "Esc and choose another label with l, or sign work/bob out first"), "\(text)")
    #expect(!text.contains("--label"))
  }

  @Test func aFailedAttemptShowsTheProvidersMessage() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .device)
    driver.send(.signInProgress(id, driver.codeSnapshot()))
    driver.finish(
      id, .signedIn(.failure(.auth(.accessDenied(description: "the user declined")))))
    #expect(
      ScreenSnapshotTests.joined(driver).contains(
        "✗ Work SSO declined the sign-in (the user declined)."))
    // Said once: no second "start a new sign-in" beside the retry key.
    #expect(!driver.text.contains("start a new sign-in"))
    #expect(!driver.text.contains("left"))
    #expect(!driver.text.contains("enter the code"))
    #expect(driver.state.topPanelIsRetryable)
  }

  @Test func copyKeysCopyTheCodeAndTheURL() throws {
    var driver = Driver()
    let id = try driver.startedSignIn("work", .device)
    driver.send(.signInProgress(id, driver.codeSnapshot()))
    guard case .copyText(_, "WDJB-MJHT", "the code") = driver.press(.character("c")).first else {
      Issue.record("c did not copy the code")
      return
    }
    guard
      case .copyText(_, "http://127.0.0.1:41234/oidc/device", "the verification URL") =
        driver
        .press(.character("u")).first
    else {
      Issue.record("u did not copy the URL")
      return
    }
  }
}

extension AppState {
  /// The deadline of the attempt on screen.
  var attemptDeadline: Date? {
    guard case .signIn(let signIn) = topPanel, case .attempt(let attempt) = signIn.step else {
      return nil
    }
    return attempt.progress?.deadline
  }

  /// The sign-in on screen while it runs.
  var attemptOnScreen: RequestID? {
    guard case .signIn(let signIn) = topPanel, case .attempt(let attempt) = signIn.step,
      attempt.isRunning
    else { return nil }
    return attempt.id
  }

  /// True when the sign-in on screen has ended and can be retried.
  var topPanelIsRetryable: Bool {
    guard case .signIn(let signIn) = topPanel, case .attempt(let attempt) = signIn.step else {
      return false
    }
    return !attempt.isRunning
  }
}

/// Signing in to an account's provider again, and the label a sign-in stores its account under.
@Suite struct SignInAgainReducerTests {
  @Test func signInAgainKeepsTheAccountsLabelAndIsTheFirstHintWhenItIsNeeded() throws {
    var driver = Driver()
    driver.select("carol")
    #expect(driver.frame.textLines().last?.hasPrefix(" s sign in again") == true)
    let started = driver.press(.character("s"))
    // Work SSO has two flows: the choice comes first, with the label already set.
    #expect(started.isEmpty)
    #expect(driver.state.context == .flowChoice)
    #expect(driver.text.contains("Label: carol"))
    let attempt = driver.passWriteCheck(driver.press(.enter))
    guard case .startSignIn(_, "work", .pkce, "carol") = attempt.first else {
      Issue.record("Enter did not sign in again as carol: \(attempt)")
      return
    }
  }

  @Test func aProviderWithOneFlowSignsInAgainAtOnce() {
    var driver = Driver()
    driver.select("dave")
    let started = driver.passWriteCheck(driver.press(.character("s")))
    guard case .startSignIn(_, "hivesigner", .pkce, "dave") = started.first else {
      Issue.record("s did not sign in to Hivesigner again as dave: \(started)")
      return
    }
    #expect(driver.state.context == .signIn)
  }

  @Test func theLabelFieldSetsTheLabelAndEscLeavesItAsItWas() {
    var driver = Driver()
    driver.press(.character("a"))
    #expect(driver.text.contains("Label: your name at the provider (l to change)"))
    driver.press(.character("l"))
    #expect(driver.state.context == .labelField)
    // Keys type into the field, even those that move the list elsewhere.
    driver.type("jk work")
    driver.press(.enter)
    #expect(driver.state.context == .providerChoice)
    #expect(driver.text.contains("Label: jk work (l to change)"))
    driver.press(.character("l"))
    driver.press(.control("u"))
    driver.type("other")
    driver.press(.escape)
    #expect(driver.text.contains("Label: jk work"))
    // Emptied, it goes back to the provider's name.
    driver.press(.character("l"))
    driver.press(.control("u"), .enter)
    #expect(driver.text.contains("Label: your name at the provider"))
    // The label rule of every sign-in, said in place: the field stays open.
    driver.press(.character("l"))
    driver.type("work/alt")
    driver.press(.enter)
    #expect(driver.state.context == .labelField)
    #expect(driver.text.contains("the label \"work/alt\" holds /"))
    driver.press(.control("u"))
    driver.type("team")
    driver.press(.enter)
    let started = driver.passWriteCheck(driver.press(.home, .enter))
    guard case .startSignIn(_, "hivesigner", .pkce, "team") = started.first else {
      Issue.record("the sign-in did not take the label: \(started)")
      return
    }
  }
}

/// `authtui demo` with no browser: what its approver answers is chosen on the sign-in screens.
@Suite struct DemoAnswerReducerTests {
  static func demo() -> Driver {
    var configuration = Fixtures.configuration
    configuration.demoApprover = "demo-user"
    return Driver(configuration: configuration)
  }

  /// The `openBrowser` effect of the browser attempt that `driver` starts at Work SSO.
  static func opened(_ driver: inout Driver) throws -> Effect? {
    let id = try driver.startedSignIn("work", .pkce)
    return driver.send(.signInProgress(id, driver.browserSnapshot())).first
  }

  @Test func mChoosesApproveDenyOrIgnoreAndThePageIsAnsweredSo() throws {
    var approving = Self.demo()
    approving.press(.character("a"))
    #expect(approving.text.contains("Demo: its approver approves as demo-user (m to change)"))
    guard case .openSignInPage(_, _, .approve(as: nil))? = try Self.opened(&approving) else {
      Issue.record("the page was not approved as the approver's name")
      return
    }

    // The choice stays with the sign-in screens (a second `a` there does nothing).
    var denying = Self.demo()
    denying.press(.character("a"), .character("m"))
    #expect(denying.text.contains("Demo: its approver declines"))
    guard case .openSignInPage(_, _, .deny)? = try Self.opened(&denying) else {
      Issue.record("the page was not declined")
      return
    }
    var ignoring = Self.demo()
    ignoring.press(.character("a"), .character("m"), .character("m"))
    #expect(ignoring.text.contains("ignores the page (a silent denial)"))
    guard case .openSignInPage(_, _, .ignore)? = try Self.opened(&ignoring) else {
      Issue.record("the page was not ignored")
      return
    }
    // A third m comes back to approving.
    var again = Self.demo()
    again.press(.character("a"), .character("m"), .character("m"), .character("m"))
    #expect(again.text.contains("approves as demo-user"))
  }

  @Test func theApproverSignsInAsTheLabelSoOneProviderGetsTwoAccounts() throws {
    var driver = Self.demo()
    driver.press(.character("a"), .character("l"))
    driver.type("second")
    driver.press(.enter)
    #expect(driver.text.contains("approves as second"))
    // Work SSO is the last provider, above "Other provider…"; its flow choice, then the
    // browser flow.
    driver.passWriteCheck(driver.press(.end, .up, .enter, .enter))
    let started = try #require(
      driver.effects.last { if case .startSignIn = $0 { true } else { false } })
    guard case .startSignIn(let id, "work", .pkce, "second") = started else {
      Issue.record("the sign-in did not take the label: \(started)")
      return
    }
    let opened = driver.send(.signInProgress(id, driver.browserSnapshot()))
    guard case .openSignInPage(_, _, .approve(as: "second"))? = opened.first else {
      Issue.record("the approver was not told the name: \(opened)")
      return
    }
  }

  @Test func whileTheLabelIsTypedTheDemoLineNamesNoCommand() throws {
    var driver = Self.demo()
    driver.press(.character("a"), .character("l"))
    driver.type("x")
    #expect(!driver.text.contains("demo-answer"))
    #expect(driver.text.contains("Demo: its approver approves as demo-user"))
    driver.press(.enter)
    #expect(driver.text.contains("Demo: its approver approves as x (m to change)"))
  }

  @Test func theFlowScreenSaysWhatTheApproverDoesAndCountsDownToIt() throws {
    var driver = Self.demo()
    let id = try driver.startedSignIn("work", .pkce)
    let opened = driver.send(.signInProgress(id, driver.browserSnapshot()))
    guard case .openSignInPage(let request, _, _)? = opened.first else {
      Issue.record("the page was not opened: \(opened)")
      return
    }
    #expect(!driver.text.contains("Your browser shows"))
    #expect(
      ScreenSnapshotTests.joined(driver).contains(
        "The demo's approver is opening Work SSO's consent page"))
    driver.finish(request, .browser(.handedToDemoApprover(after: 4)))
    #expect(
      ScreenSnapshotTests.joined(driver).contains(
        "The demo's approver has Work SSO's consent page open and approves as demo-user in 4 s."))
    // The status line carries no fixed "in 4 s" that would go stale.
    #expect(driver.state.message?.text.contains("4 s") != true)
    driver.advance(2)
    #expect(ScreenSnapshotTests.joined(driver).contains("approves as demo-user in 2 s."))
    driver.advance(2)
    #expect(
      ScreenSnapshotTests.joined(driver).contains(
        "The demo's approver approved Work SSO's consent page"))
  }

  @Test func aDecliningApproverSaysSoOnTheDeviceScreen() throws {
    var driver = Self.demo()
    // Work SSO (the fourth provider), its second flow, with the approver set to decline.
    driver.press(.character("a"), .character("m"), .home, .down, .down, .down, .enter, .down)
    let started = driver.passWriteCheck(driver.press(.enter))
    guard case .startSignIn(let id, "work", .device, nil)? = started.first else {
      Issue.record("the device sign-in did not start: \(started)")
      return
    }
    let opened = driver.send(.signInProgress(id, driver.codeSnapshot()))
    guard case .openSignInPage(let request, _, .deny)? = opened.first else {
      Issue.record("the page was not opened to decline: \(opened)")
      return
    }
    driver.finish(request, .browser(.handedToDemoApprover(after: 4)))
    #expect(
      ScreenSnapshotTests.joined(driver).contains(
        "The demo's approver has the page open, enters the code and declines in 4 s."))
  }

  @Test func outsideTheDemoMDoesNothingAndThePageCarriesNoAnswer() throws {
    var driver = Driver()
    driver.press(.character("a"), .character("m"))
    #expect(!driver.text.contains("Demo:"))
    driver.press(.escape)
    guard case .openSignInPage(_, _, nil)? = try Self.opened(&driver) else {
      Issue.record("a page outside the demo carried an answer")
      return
    }
  }
}
