import Accounts
import App
import AuthCore
import Foundation
import Spelling
import Terminal
import Testing
import Vault

/// The account list, details, sign-out and export through the reducer.
@Suite struct ListReducerTests {
  @Test func theListIsGroupedByProviderAndTheArrowsMoveTheSelection() {
    var driver = Driver()
    #expect(
      driver.state.visibleAccounts.map(\.name.label) == [
        "dave", "alice", "日本語のアカウント", "bob", "carol", "🔑 ops-team",
      ])
    #expect(driver.state.selection?.label == "dave")
    driver.press(.down, .character("j"))
    #expect(driver.state.selection?.label == "日本語のアカウント")
    driver.press(.character("k"))
    #expect(driver.state.selection?.label == "alice")
    driver.press(.end)
    #expect(driver.state.selection?.label == "🔑 ops-team")
    driver.press(.down)
    #expect(driver.state.selection?.label == "🔑 ops-team")
  }

  @Test func damagedAccountsReachTheStateBesideTheReadableOnes() {
    var driver = Driver()
    let damaged = DamagedAccount(
      id: AccountID(7), damage: .cellRejected(column: "tokens"), providerID: "work",
      label: "frank")
    driver.send(
      .finished(
        .loadAccounts(RequestID(99)),
        .accounts(.success(AccountList(accounts: Fixtures.accounts, damaged: [damaged])))))
    #expect(driver.state.damagedAccounts == [damaged])
    #expect(driver.state.accounts.count == Fixtures.accounts.count)
  }

  @Test func wideLabelsKeepTheStatusColumnAligned() {
    let driver = Driver()
    let frame = driver.frame
    let statusColumn = frame.textLines()[1].distance(of: "STATUS")
    var badges = 0
    for row in 2..<frame.size.rows - 2 {
      let cell = frame[row, statusColumn]
      if cell.grapheme == "●" || cell.grapheme == "⠋" { badges += 1 }
    }
    #expect(badges == Fixtures.accounts.count)
  }

  @Test func theExpiryCountdownIsLive() {
    var driver = Driver()
    // A provider that never answers the background refresh: the countdown runs on.
    driver.answersUpkeep = false
    #expect(driver.text.contains("in 4m 05s"))
    driver.advance(65)
    #expect(driver.text.contains("in 3m 00s"))
    driver.advance(180)
    #expect(driver.text.contains("0s ago"))
    #expect(driver.state.account(Fixtures.bob.name)?.status(at: driver.now) == .expired)
  }

  @Test func theFilterNarrowsTheListAsYouTypeAndEscClearsIt() {
    var driver = Driver()
    driver.press(.character("/"))
    #expect(driver.state.context == .filter)
    driver.type("wor")
    #expect(driver.state.visibleAccounts.map(\.name.provider) == ["work", "work", "work"])
    driver.type("k/")
    #expect(driver.state.visibleAccounts.isEmpty)
    driver.press(.backspace)
    #expect(driver.state.visibleAccounts.count == 3)
    // q types into the filter; it does not quit.
    driver.type("q")
    #expect(!driver.state.shouldExit)
    driver.press(.backspace, .enter)
    #expect(driver.state.context == .list)
    #expect(driver.state.filter.text == "work")
    driver.press(.escape)
    #expect(driver.state.filter.isEmpty)
    #expect(driver.state.visibleAccounts.count == Fixtures.accounts.count)
  }

  /// A filter longer than the row shows its end, where the typing is, with the cursor after
  /// it; it was cut at the right edge, the end and the cursor out of sight.
  @Test func aLongFilterShowsItsEnd() {
    var driver = Driver()
    driver.press(.character("/"))
    driver.type(String(repeating: "a", count: 100) + "END")
    let frame = driver.frame
    let row = frame.size.rows - 2
    #expect(frame.textLines()[row].hasSuffix("aaaEND"), "\(frame.textLines()[row])")
    #expect(frame.cursor == Point(row: row, column: frame.size.columns - 1))
  }

  @Test func aFilterMatchesLabelsCaseInsensitivelyAndHighlightsThem() {
    var driver = Driver()
    driver.press(.character("/"))
    driver.type("BO")
    #expect(driver.state.visibleAccounts.map(\.name.label) == ["bob"])
    let frame = driver.frame
    let row = frame.textLines().firstIndex { $0.contains("› bob") } ?? 0
    // On the selected row the match keeps the row's highlight under it.
    #expect(frame[row, 3].role == "list.selected.match")
    #expect(frame[row, 4].role == "list.selected.match")
    #expect(frame[row, 5].role == "list.selected")
  }

  @Test func theSelectedRowsHighlightRunsUnbrokenAcrossTheBadge() {
    var driver = Driver()
    driver.select("carol")
    let frame = driver.frame
    let row = frame.textLines().firstIndex { $0.contains("› carol") } ?? 0
    let roles = (0..<frame.size.columns).map { frame[row, $0].role }
    #expect(roles.allSatisfy { $0 == "list.selected" || $0 == "list.selected.badge" }, "\(roles)")
    #expect(roles.contains("list.selected.badge"))
    // Other rows keep their badge colours.
    let bob = frame.textLines().firstIndex { $0.contains(" bob ") } ?? 0
    #expect(frame[bob, frame.textLines()[bob].distance(of: "●")].role == "badge.expiring")
  }

  @Test func aRefreshShowsASpinnerWhileEveryKeyStillResponds() {
    var driver = Driver()
    driver.select("bob")
    let effects = driver.press(.character("r"))
    guard case .refresh(let id, Fixtures.bob.name) = effects.first, effects.count == 1 else {
      Issue.record("r did not refresh bob: \(effects)")
      return
    }
    #expect(driver.text.contains("⠋ refreshing work/bob"))
    // A second r while it runs does not start another refresh.
    #expect(driver.press(.character("r")).isEmpty)
    driver.press(.down)
    #expect(driver.state.selection?.label == "carol")
    driver.press(.character("?"))
    #expect(driver.state.context == .help)
    driver.press(.escape)
    var refreshed = Fixtures.bob
    refreshed.expiresAt = driver.now.addingTimeInterval(3600)
    driver.finish(id, .account(.success(refreshed)))
    #expect(driver.state.busy.isEmpty)
    #expect(driver.text.contains("refreshed work/bob"))
    #expect(driver.text.contains("in 1h 00m"))
  }

  @Test func aRejectedRefreshMarksTheAccountSignInNeeded() {
    var driver = Driver()
    driver.select("bob")
    guard case .refresh(let id, _) = driver.press(.character("r")).first else { return }
    driver.finish(
      id,
      .account(.failure(.signInNeeded("work/bob", reason: .refreshRejected))))
    #expect(driver.state.account(Fixtures.bob.name)?.status(at: driver.now) == .signInNeeded)
    #expect(driver.text.contains("work/bob: the provider refused work/bob's refresh token"))
  }

  @Test func anAccountWithoutARefreshTokenSaysSoInsteadOfRefreshing() {
    var driver = Driver()
    driver.select("alice")
    #expect(driver.press(.character("r")).isEmpty)
    #expect(driver.text.contains("simkl/alice has no refresh token: sign in again with s"))
  }

  /// The key named is the one that signs this account in again (`s`), not the one that adds
  /// another (`a`), in the list and in the details alike.
  @Test func copyOrExportWithoutATokenNamesTheSignInAgainKey() {
    var driver = Driver()
    driver.select("carol")
    #expect(driver.press(.character("c")).isEmpty)
    #expect(driver.text.contains("work/carol has no token to copy: sign in again with s"))
    driver.press(.enter)
    #expect(driver.press(.character("e")).isEmpty)
    #expect(driver.text.contains("work/carol has no token to export: sign in again with s"))
  }

  @Test func copyAsksTheEnvironmentAndReportsWhenTheClipboardClears() {
    var driver = Driver()
    guard let id = driver.copyBobsToken() else { return }
    driver.finish(id, .copied(.success(CopyReport(what: "the token of work/bob", clearsAfter: 45))))
    #expect(
      driver.state.message?.text
        == "sent the token of work/bob to the terminal (OSC 52); the clipboard is cleared in 45 s")
    #expect(driver.state.message?.kind == .success)
    #expect(driver.text.contains("sent the token of work/bob to the terminal (OSC 52);"))
  }

  @Test func copyAndExportRefuseADPoPBoundTokenWithTheCommandLinesReason() {
    var driver = Driver(accounts: Fixtures.accounts + [Fixtures.dana])
    driver.select("dana")
    #expect(driver.press(.character("c")).isEmpty)
    let copying = AccountsError.dpopBound("work/dana", refusing: "copying")
    #expect(driver.state.message?.text == copying.message)
    #expect(driver.state.message?.kind == .error)
    #expect(copying.message.contains("`authtui token work/dana --header --for METHOD URL`"))
    #expect(driver.text.contains("work/dana's token is DPoP-bound"))
    #expect(driver.state.busy.isEmpty)

    // No export dialog either: there is nothing it could write.
    #expect(driver.press(.character("e")).isEmpty)
    #expect(driver.state.context == .list)
    #expect(
      driver.state.message?.text
        == AccountsError.dpopBound("work/dana", refusing: "exporting").message)
    driver.press(.enter)
    #expect(driver.press(.character("c")).isEmpty)
    #expect(driver.state.message?.text == copying.message)
  }

  @Test func theEnvironmentsRefusalOfABoundTokenIsShownLikeTheListsOwn() {
    // The list still had it as a Bearer account (signed in again elsewhere since): the
    // environment reads the vault's record and refuses with the same reason.
    var driver = Driver()
    guard let id = driver.copyBobsToken() else { return }
    let refusal = AccountsError.dpopBound("work/bob", refusing: "copying")
    driver.finish(id, .copied(.failure(refusal)))
    #expect(driver.state.message?.text == refusal.message)
    #expect(driver.state.message?.kind == .error)
  }

  @Test func detailsNeverShowATokenAndActOnTheirAccount() {
    var driver = Driver()
    driver.select("bob")
    driver.press(.enter)
    #expect(driver.state.context == .details)
    #expect(driver.text.contains("openid profile offline_access"))
    guard case .refresh(_, Fixtures.bob.name) = driver.press(.character("r")).first else {
      Issue.record("r on the details did not refresh bob")
      return
    }
    driver.press(.escape)
    #expect(driver.state.context == .list)
  }

  @Test func signingOutAsksFirstThenRemovesTheAccount() {
    var driver = Driver()
    driver.select("alice")
    driver.press(.character("d"))
    #expect(driver.text.contains("Simkl cannot revoke tokens"))
    #expect(driver.press(.character("n")).isEmpty)
    #expect(driver.state.context == .list)
    driver.press(.character("d"))
    let effects = driver.press(.enter)
    guard case .signOut(let id, Fixtures.alice.name) = effects.first else {
      Issue.record("Enter did not sign out: \(effects)")
      return
    }
    driver.finish(id, .signedOut(.success(SignOutReport(revocation: .unsupported))))
    #expect(driver.state.account(Fixtures.alice.name) == nil)
    #expect(driver.state.selection?.label == "日本語のアカウント")
    #expect(driver.text.contains("signed out of simkl/alice; the provider cannot revoke tokens"))
    driver.press(.enter)
    #expect(driver.state.context == .list)
  }

  @Test func aFailedRevocationIsReportedAndTheAccountIsStillGone() {
    var driver = Driver()
    driver.select("bob")
    driver.press(.character("d"))
    #expect(driver.text.contains("Work SSO offers token revocation: authtui asks it to revoke"))
    guard case .signOut(let id, _) = driver.press(.character("y")).first else { return }
    driver.press(.escape)
    driver.finish(
      id,
      .signedOut(
        .success(
          SignOutReport(revocation: .failed(.transport(.failed("HTTP 500 from Work SSO")))))))
    #expect(driver.state.account(Fixtures.bob.name) == nil)
    #expect(driver.text.contains("signed out of work/bob here, but revocation failed: HTTP 500"))
  }

  @Test func exportOffersDefaultsAndChecksTheVariableName() {
    var driver = Driver()
    driver.select("alice")
    driver.press(.character("e"))
    guard case .dialog(.export(let form)) = driver.state.topPanel else {
      Issue.record("e did not open the export dialog")
      return
    }
    #expect(form.path.text == "~/.config/authtui/env/simkl-alice.env")
    #expect(form.variable.text == "SIMKL_TOKEN")
    driver.press(.tab, .tab, .control("u"))
    driver.type("9LIVES")
    #expect(driver.press(.enter).isEmpty)
    #expect(driver.text.contains("\"9LIVES\" is not a shell variable name"))
    driver.press(.control("u"))
    driver.type("LD_PRELOAD")
    #expect(driver.press(.enter).isEmpty)
    #expect(
      driver.text.contains("LD_PRELOAD cannot hold the token: the dynamic loader or the C"),
      "\(driver.text)")
    driver.press(.control("u"))
    driver.type("MY_SIMKL")
    let effects = driver.press(.enter)
    #expect(effects.count == 1)
    guard
      case .exportEnvFile(
        _, Fixtures.alice.name, "~/.config/authtui/env/simkl-alice.env", "MY_SIMKL") = effects.first
    else {
      Issue.record("Enter did not export: \(effects)")
      return
    }
  }

  /// A file that cannot be written (a FIFO, a folder) is said in the dialog, which stays open
  /// with the path typed, to be corrected; it closed, and the path had to be typed again.
  @Test func anEnvFileThatCannotBeWrittenIsSaidInTheDialogWhichKeepsThePath() throws {
    var driver = Driver()
    driver.select("alice")
    driver.press(.character("e"), .tab, .control("u"))
    driver.type("/tmp/x/fifo.env")
    guard case .exportEnvFile(let id, _, _, _) = driver.press(.enter).first else {
      Issue.record("Enter did not export")
      return
    }
    #expect(driver.state.context == .export)
    let refusal = AccountsError.envFile(
      path: "/tmp/x/fifo.env", reason: "it is a FIFO (named pipe), not a regular file")
    driver.finish(id, .exported(.failure(refusal)))
    guard case .dialog(.export(let form)) = driver.state.topPanel else {
      Issue.record("the export dialog closed")
      return
    }
    #expect(form.path.text == "/tmp/x/fifo.env")
    #expect(form.problem == refusal.message)
    #expect(form.focus == .path)
    #expect(driver.text.contains("it is a FIFO (named pipe)"))
    // Corrected, it is written and the dialog closes.
    driver.press(.control("u"))
    driver.type("/tmp/x/simkl.env")
    guard case .exportEnvFile(let again, _, _, _) = driver.press(.enter).first else {
      Issue.record("Enter did not export again")
      return
    }
    let report = ExportReport(
      account: Fixtures.alice.name, path: "/tmp/x/simkl.env", variable: "SIMKL_TOKEN")
    driver.finish(again, .exported(.success(report)))
    #expect(driver.state.topPanel == nil)
    #expect(driver.text.contains("wrote SIMKL_TOKEN for simkl/alice to /tmp/x/simkl.env"))
  }

  @Test func exportingToTheClipboardCopiesTheToken() {
    var driver = Driver()
    driver.select("dave")
    driver.press(.character("e"))
    #expect(driver.state.context == .export)
    driver.press(.character(" "))
    guard case .copyToken(_, Fixtures.dave.name) = driver.press(.enter).first else {
      Issue.record("the clipboard export did not copy")
      return
    }
  }

  @Test func theOnlyAccountOfAProviderGetsTheProvidersFileName() {
    let form = ExportForm(
      account: Fixtures.dave.name, configDirectory: "~/.config/authtui", onlyAccountOfProvider: true
    )
    #expect(form.path.text == "~/.config/authtui/env/hivesigner.env")
    let defaults: [(ProviderID, String)] = [
      ("my-idp", "MY_IDP_TOKEN"), ("42go", "_42GO_TOKEN"), ("ld", "_LD_TOKEN"),
      ("lc-x", "_LC_X_TOKEN"),
    ]
    for (provider, variable) in defaults {
      let other = ExportForm(
        account: Fixtures.name(provider, "x"),
        configDirectory: "~/.config/authtui", onlyAccountOfProvider: true)
      #expect(other.variable.text == variable)
    }
  }

  @Test func quittingWaitsBrieflyForVaultWritesAndCancelsSignIns() throws {
    var driver = Driver()
    driver.select("bob")
    guard case .refresh(let id, _) = driver.press(.character("r")).first else { return }
    driver.press(.character("q"))
    #expect(!driver.state.shouldExit)
    #expect(driver.text.contains("finishing 1 vault write(s) before quitting…"))
    driver.finish(id, .account(.success(Fixtures.bob)))
    #expect(driver.state.shouldExit)

    var waiting = Driver()
    waiting.select("bob")
    waiting.press(.character("r"))
    waiting.press(.character("q"))
    waiting.advance(3)
    #expect(waiting.state.shouldExit)

    // A sign-in under way asks first (SignInReducerTests), then is cancelled.
    var signingIn = Driver()
    let started = signingIn.startSignIn("work", .pkce)
    let id2 = try #require(started)
    #expect(signingIn.press(.character("q")).isEmpty)
    #expect(signingIn.press(.character("q")) == [.cancel(id2)])
    #expect(signingIn.state.shouldExit)
  }

  @Test func aTerminationEndsTheUIThroughTheReducer() {
    var driver = Driver()
    #expect(!driver.state.shouldExit)
    #expect(driver.send(.terminate).isEmpty)
    #expect(driver.state.shouldExit)
  }

  @Test func aRefreshAskedTwiceRunsOnceWhateverItsSpinnerSays() throws {
    var driver = Driver()
    driver.select("bob")
    guard case .refresh = driver.press(.character("r")).first else {
      Issue.record("no refresh was asked for")
      return
    }
    let index = try #require(driver.state.busy.firstIndex { $0.kind == .refresh })
    // The spinner's words are for the eye: the work in flight is known by its kind.
    driver.state.busy[index].label = "working on work/bob"
    #expect(driver.press(.character("r")).isEmpty)
    #expect(driver.text.contains("work/bob is being refreshed already"))
  }

  @Test func messagesGoAwayByThemselves() {
    var driver = Driver()
    driver.select("alice")
    driver.press(.character("r"))
    #expect(driver.state.message != nil)
    driver.advance(5)
    #expect(driver.state.message != nil)
    driver.advance(1)
    #expect(driver.state.message == nil)
  }

  @Test func theSelectionStaysOnScreenInALongList() {
    let many = (0..<100).map {
      AccountSummary(
        name: Fixtures.name("work", "user\($0 < 10 ? "0" : "")\($0)"), providerName: "Work SSO")
    }
    var driver = Driver(accounts: many, size: Size(rows: 16, columns: 60))
    driver.press(.pageDown, .pageDown)
    #expect(driver.state.selection?.label == "user24")
    #expect(driver.text.contains("› user24"))
    driver.press(.end)
    #expect(driver.text.contains("› user99"))
    driver.press(.home)
    #expect(driver.text.contains("Work SSO"))
    #expect(driver.text.contains("› user00"))
  }

  @Test func labelsSortNaturallyAsAuthtuiListPrintsThem() {
    let accounts = ["user10", "user2", "User1", "alice", "user1"].map { label in
      AccountSummary(name: Fixtures.name("work", label), providerName: "Work SSO")
    }
    let driver = Driver(accounts: accounts + [Fixtures.alice])
    #expect(
      driver.state.accounts.map(\.name.description) == [
        "simkl/alice", "work/alice", "work/User1", "work/user1", "work/user2", "work/user10",
      ])
    let rows = driver.frame.textLines()
    let user2 = rows.firstIndex { $0.contains(" user2 ") }
    let user10 = rows.firstIndex { $0.contains(" user10 ") }
    #expect(user2 != nil && user10 != nil && user2 ?? 0 < user10 ?? 0)
  }

  @Test func theGroupHeadingStaysOnTopWhenTheListIsScrolledIntoIt() {
    let accounts = (0..<40).map { index in
      AccountSummary(
        name: Fixtures.name("work", "user\(index)"), providerName: "Work SSO",
        expiresAt: Fixtures.now.addingTimeInterval(3600))
    }
    var driver = Driver(accounts: [Fixtures.dave] + accounts, size: Size(rows: 16, columns: 60))
    driver.press(.end)
    #expect(driver.state.selection?.label == "user39")
    let rows = driver.frame.textLines()
    #expect(rows[2].hasPrefix(" Work SSO  work · 40 accounts"), "\(rows[2])")
    #expect(rows.contains { $0.contains("› user39") })
    #expect(!driver.text.contains("Hivesigner"))
    // Moving up to the account under the heading scrolls it back into view.
    for _ in 0..<12 { driver.press(.up) }
    let label = driver.state.selection?.label ?? ""
    #expect(driver.text.contains("› \(label) "))
    #expect(driver.frame.textLines()[2].hasPrefix(" Work SSO"))
  }
}

extension String {
  /// The display column where `text` starts (0 when absent).
  func distance(of text: String) -> Int {
    guard let range = range(of: text) else { return 0 }
    return DisplayWidth.of(self[..<range.lowerBound])
  }
}
