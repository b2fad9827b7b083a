import Accounts
import AuthCore
import Foundation
import Sandbox
import TestSupport
import Testing
import Vault

@Suite struct AccountBookTests {
  @Test func storesASignedInAccountUnderTheNameTheProviderGives() async throws {
    let harness = try await AccountsHarness.start()
    let account = try await harness.signIn(as: "alice")
    #expect(account.name == "sandbox/alice")
    #expect(account.subject == "alice")
    #expect(account.tokens.refreshToken != nil)
    #expect(account.tokens.idToken != nil)
    #expect(account.tokens.scopes.contains("openid"))
    let listed = try await harness.book.listing().accounts
    #expect(listed.map(\.name) == ["sandbox/alice"])
    await harness.stop()
  }

  @Test func storesNothingWhenTheSignInIsDeclined() async throws {
    let harness = try await AccountsHarness.start()
    await #expect(throws: AccountsError.self) {
      _ = try await harness.signIn(as: "bob", action: .deny)
    }
    #expect(try await harness.book.listing().accounts.isEmpty)
    await harness.stop()
  }

  @Test func storesNothingWhenTheSignInIsCancelled() async throws {
    let harness = try await AccountsHarness.start()
    let session = try await harness.book.beginSignIn(provider: "sandbox", flow: .pkce)
    session.cancel()
    await #expect(throws: AccountsError.auth(.cancelled)) { _ = try await session.finish() }
    #expect(try await harness.book.listing().accounts.isEmpty)
    await harness.stop()
  }

  @Test func refusesToPutAnotherUsersTokensUnderAnExistingLabel() async throws {
    let harness = try await AccountsHarness.start()
    _ = try await harness.signIn(as: "alice", label: "work")
    await #expect(throws: AccountsError.labelTaken("sandbox/work")) {
      _ = try await harness.signIn(as: "mallory", label: "work")
    }
    let again = try await harness.signIn(as: "alice", label: "work")
    #expect(again.subject == "alice")
    await harness.stop()
  }

  @Test func handsOutAStoredTokenWithoutRefreshingWhileItIsValid() async throws {
    let harness = try await AccountsHarness.start()
    let account = try await harness.signIn()
    let token = try await harness.book.accessToken(
      for: account.id, minimumValidity: 60, startedAt: Date())
    #expect(token == account.tokens.accessToken)
    #expect(await harness.stat(.refreshes) == 0)
    await harness.stop()
  }

  @Test func refreshesOnceAndStoresTheRotatedRefreshToken() async throws {
    let harness = try await AccountsHarness.start()
    await harness.setAccessTokenLifetime(30)
    let account = try await harness.signIn()
    // 30 s left is less than the 60 asked for: one refresh, whose token (also 30 s) is returned.
    let token = try await harness.book.accessToken(
      for: account.id, minimumValidity: 60, startedAt: Date())
    #expect(token != account.tokens.accessToken)
    #expect(await harness.stat(.refreshes) == 1)
    let stored = try await harness.vault.account(account.id)
    #expect(stored.tokens.accessToken == token)
    #expect(stored.tokens.refreshToken != account.tokens.refreshToken)
    #expect(stored.tokens.idToken == account.tokens.idToken)
    await harness.stop()
  }

  @Test func refreshAheadWaitsForTheScheduleAndAnotherProcessUsesTheRefreshItFinds() async throws {
    let harness = try await AccountsHarness.start()
    await harness.setAccessTokenLifetime(40)
    let account = try await harness.signIn()
    let obtained = account.tokens.obtainedAt
    // A process whose clock reads `offset` seconds after `start`.
    func process(at offset: TimeInterval, after start: Date) -> AccountBook {
      AccountBook(
        vault: harness.vault, catalog: harness.book.catalog, transport: URLSessionTransport(),
        clock: ManualClock(now: start.addingTimeInterval(offset)))
    }
    // A 40-second token is due 10 seconds before it expires.
    let early = try await process(at: 29, after: obtained).refreshAhead(
      account.id, startedAt: Date())
    #expect(early.tokens.accessToken == account.tokens.accessToken)
    #expect(await harness.stat(.refreshes) == 0)

    let first = try await process(at: 31, after: obtained).refreshAhead(
      account.id, startedAt: Date())
    #expect(first.tokens.accessToken != account.tokens.accessToken)
    #expect(first.tokens.refreshToken != account.tokens.refreshToken)
    #expect(await harness.stat(.refreshes) == 1)
    // Another process whose list still shows the old token asks too: the account is read
    // afresh, and the new token is not due yet.
    let second = try await process(at: 29, after: first.tokens.obtainedAt).refreshAhead(
      account.id, startedAt: Date())
    #expect(second.tokens.accessToken == first.tokens.accessToken)
    #expect(await harness.stat(.refreshes) == 1)
    await harness.stop()
  }

  @Test func marksTheAccountWhenTheProviderRefusesTheRefreshToken() async throws {
    let harness = try await AccountsHarness.start()
    let account = try await harness.signIn()
    _ = await harness.sandbox.invalidateRefreshTokens(of: .oidc)
    await #expect(
      throws: AccountsError.signInNeeded("sandbox/alice", reason: .refreshRejected)
    ) {
      _ = try await harness.book.refresh(account.id, startedAt: Date())
    }
    let stored = try await harness.vault.account(account.id)
    #expect(stored.needsSignIn)
    #expect(stored.tokens.accessToken == nil)
    #expect(stored.tokens.refreshToken == nil)
    await harness.stop()
  }

  @Test func leavesTheTokensAloneWhenTheProviderFails() async throws {
    let harness = try await AccountsHarness.start()
    let account = try await harness.signIn()
    await harness.sandbox.inject(
      SandboxFault(pathPrefix: SandboxPaths.OIDC.token, kind: .status500, count: 1))
    await #expect(throws: AccountsError.auth(.serverError(status: 500))) {
      _ = try await harness.book.refresh(account.id, startedAt: Date())
    }
    let stored = try await harness.vault.account(account.id)
    #expect(stored.tokens == account.tokens)
    #expect(!stored.needsSignIn)
    // The lease was given back: the next refresh goes through.
    _ = try await harness.book.refresh(account.id, startedAt: Date())
    await harness.stop()
  }

  @Test func asksForANewSignInWhenATokenWithoutRefreshRunsOut() async throws {
    let harness = try await AccountsHarness.start()
    var settings = await harness.sandbox.settings(for: .hivesigner)
    settings.accessTokenLifetime = 30
    await harness.sandbox.setSettings(settings, for: .hivesigner)
    let account = try await harness.signIn("hivesigner", as: "carol")
    #expect(account.name == "hivesigner/carol")
    #expect(account.tokens.refreshToken == nil)
    await #expect {
      _ = try await harness.book.accessToken(
        for: account.id, minimumValidity: 60, startedAt: Date())
    } throws: { error in
      guard case .signInNeeded(_, .noRefreshToken) = error as? AccountsError else {
        return false
      }
      return "\(error)".contains("authtui login hivesigner --label carol")
    }
    await harness.stop()
  }

  @Test func revokesThenDeletesOnSignOut() async throws {
    let harness = try await AccountsHarness.start()
    let account = try await harness.signIn()
    let report = try await harness.book.signOut(account, localOnly: false)
    #expect(report.revocation == .revoked)
    #expect(report.endSessionURL?.absoluteString.contains("id_token_hint=") == true)
    #expect(await harness.stat(.revocations) == 2)
    #expect(try await harness.book.listing().accounts.isEmpty)
    await harness.stop()
  }

  @Test func deletesLocallyEvenWhenRevocationFails() async throws {
    let harness = try await AccountsHarness.start()
    let account = try await harness.signIn()
    await harness.sandbox.inject(
      SandboxFault(pathPrefix: SandboxPaths.OIDC.revoke, kind: .status500, count: 2))
    let report = try await harness.book.signOut(account, localOnly: false)
    guard case .failed = report.revocation else {
      Issue.record("revocation should have failed, got \(report.revocation)")
      return
    }
    #expect(try await harness.book.listing().accounts.isEmpty)
    await harness.stop()
  }

  @Test func removesADamagedAccountOnlyLocallyAndThenSignsInUnderItsLabelAgain() async throws {
    let harness = try await AccountsHarness.start()
    let alice = try await harness.signIn(as: "alice")
    try await VaultFileEditor.flipBit(
      inCell: "refresh_token", ofAccount: alice.id.rawValue,
      vaultAt: harness.folder.file("data/vault.db"))
    let damaged = DamagedAccount(
      id: alice.id, damage: .cellRejected(column: "refresh_token"), providerID: "sandbox",
      label: "alice")
    for name in ["#\(alice.id.rawValue)", "sandbox/alice", "sandbox"] {
      #expect(try await harness.book.storedAccount(named: name) == .damaged(damaged), "\(name)")
    }
    await #expect(throws: AccountsError.damagedAccount(damaged, requested: "sandbox/alice")) {
      _ = try await harness.signIn(as: "alice")
    }
    await #expect(throws: AccountsError.revocationImpossible(damaged)) {
      _ = try await harness.book.signOut(.damaged(damaged), localOnly: false)
    }
    #expect(try await harness.book.listing().damaged == [damaged])

    let report = try await harness.book.signOut(.damaged(damaged), localOnly: true)
    #expect(report.revocation == .skipped && report.endSessionURL == nil)
    #expect(await harness.stat(.revocations) == 0)
    #expect(try await harness.book.listing() == AccountListing(accounts: [], damaged: []))
    #expect(try await harness.signIn(as: "alice").name == "sandbox/alice")
    await harness.stop()
  }

  @Test func pointsToTheIDWhenOnlyTheIndexFilesADamagedAccountUnderAName() async throws {
    let harness = try await AccountsHarness.start()
    let alice = try await harness.signIn(as: "alice")
    try await VaultFileEditor.flipBit(
      inCell: "label", ofAccount: alice.id.rawValue, vaultAt: harness.folder.file("data/vault.db"))
    let damaged = DamagedAccount(
      id: alice.id, damage: .cellRejected(column: "label"), providerID: "sandbox")
    let unconfirmed = AccountsError.damagedAccount(damaged, requested: "sandbox/alice")
    await #expect(throws: unconfirmed) {
      _ = try await harness.book.storedAccount(named: "sandbox/alice")
    }
    #expect(unconfirmed.message.contains("`authtui logout '#1' --local-only`"))
    // Refused before the browser opens, and nothing is stored beside it.
    await #expect(throws: unconfirmed) {
      _ = try await harness.book.beginSignIn(provider: "sandbox", flow: .pkce, label: "alice")
    }
    #expect(try await harness.book.listing().accounts.isEmpty)
    await harness.stop()
  }

  @Test func tellsOfDamagedAccountsWhoseNameCannotBeReadAtAll() async throws {
    let harness = try await AccountsHarness.start()
    let alice = try await harness.signIn(as: "alice")
    let path = harness.folder.file("data/vault.db")
    for column in ["provider_id", "label"] {
      try await VaultFileEditor.flipBit(inCell: column, ofAccount: alice.id.rawValue, vaultAt: path)
    }
    try await VaultFileEditor.sqlite(path, "UPDATE accounts SET name_index = X'00'")
    // Nothing can tell this row was sandbox/alice: the sign-in goes ahead, and the row is named.
    let again = try await harness.signIn(as: "alice")
    #expect(
      try await harness.book.damagedAccounts(perhapsNamedLike: again.accountName).map(\.id)
        == [alice.id])
    await harness.stop()
  }

  @Test func namesAccountsByProviderAloneOnlyWhenThatIsUnambiguous() async throws {
    let harness = try await AccountsHarness.start()
    _ = try await harness.signIn(as: "alice")
    #expect(try await harness.book.account(named: "sandbox").name == "sandbox/alice")
    _ = try await harness.signIn(as: "bob")
    await #expect(
      throws: AccountsError.ambiguousAccount(
        "sandbox", candidates: ["sandbox/alice", "sandbox/bob"])
    ) {
      _ = try await harness.book.account(named: "sandbox")
    }
    await #expect(
      throws: AccountsError.noSuchAccount(
        "sandbox/alce", suggestions: ["sandbox/alice", "sandbox/bob"])
    ) {
      _ = try await harness.book.account(named: "sandbox/alce")
    }
    await #expect(throws: AccountsError.noSuchProvider("sandbx", suggestions: ["sandbox"])) {
      _ = try await harness.book.beginSignIn(provider: "sandbx")
    }
    await harness.stop()
  }

  /// A name of a known provider that has no account at all gets the sign-in that makes one
  /// (the label kept, quoted for the shell); once the provider has an account, a wrong name
  /// gets the close ones instead, and an unknown provider's name the list.
  @Test func aKnownProviderWithoutAccountsGetsTheSignInThatMakesOne() async throws {
    let harness = try await AccountsHarness.start()
    for (text, label) in [("sandbox", nil), ("sandbox/alice", "alice"), ("sandbox/it's", "it's")] {
      await #expect(
        throws: AccountsError.noAccountYet(text, provider: "sandbox", label: label)
      ) {
        _ = try await harness.book.account(named: text)
      }
    }
    #expect(
      AccountsError.noAccountYet("sandbox/it's", provider: "sandbox", label: "it's").message
        == "no account sandbox/it's: you have no sandbox account yet "
        + #"(`authtui login sandbox --label 'it'\''s'` signs in to one)"#)
    await #expect(throws: AccountsError.noSuchAccount("nosuch/x", suggestions: [])) {
      _ = try await harness.book.account(named: "nosuch/x")
    }
    _ = try await harness.signIn(as: "alice")
    await #expect(
      throws: AccountsError.noSuchAccount("sandbox/bob", suggestions: ["sandbox/alice"])
    ) {
      _ = try await harness.book.account(named: "sandbox/bob")
    }
    await harness.stop()
  }

  /// Typed text that cannot be an id is refused as an unknown provider is, before any lookup:
  /// `login Sandbox` says what `login sandbx` says.
  @Test func refusesTextThatIsNoProviderIDAsAnUnknownProvider() async throws {
    let harness = try await AccountsHarness.start()
    #expect(try harness.book.providerID(named: "sandbox") == "sandbox")
    #expect(throws: AccountsError.noSuchProvider("Sandbox", suggestions: ["sandbox"])) {
      _ = try harness.book.providerID(named: "Sandbox")
    }
    #expect(throws: AccountsError.noSuchProvider("../sandbox", suggestions: [])) {
      _ = try harness.book.providerID(named: "../sandbox")
    }
    await harness.stop()
  }
}
