import Foundation
import TestSupport
import Testing
import Vault

/// Accounts in, accounts out, and nothing readable on disk.
@Suite struct AccountStorageTests {
  @Test func storesAndReadsBackEveryFieldOfAnAccount() async throws {
    let fixture = try VaultFixture()
    let vault = try await Vault.create(
      at: fixture.location, passphrase: fixture.passphrase,
      parameters: VaultFixture.cheapParameters())
    let new = VaultFixture.account(1)
    let inserted = try await vault.insert(new)
    #expect(inserted.version == 1)
    #expect(inserted.providerID == new.providerID)
    #expect(inserted.label == new.label)
    #expect(inserted.subject == new.subject)
    #expect(inserted.identity == new.identity)
    #expect(inserted.tokens == new.tokens)
    #expect(inserted.needsSignIn == false)
    #expect(inserted.name == "simkl/alice-1")

    await vault.close()
    let reopened = try await fixture.unlocked()
    #expect(try await reopened.account(inserted.id) == inserted)
    #expect(try await reopened.account(providerID: "simkl", label: "alice-1") == inserted)
    #expect(try await reopened.account(providerID: "simkl", label: "alice-2") == nil)
    #expect(try await reopened.account(providerID: "trakt", label: "alice-1") == nil)
  }

  @Test func aLabelThatBeginsWithAByteOrderMarkReadsBackWhole() async throws {
    // authtui let such a label through until the label rules refused format characters; its
    // name read back without the mark no longer matched the name index, and the account was
    // reported damaged for ever.
    let fixture = try VaultFixture()
    let marked = NewAccount(
      providerID: "sandbox", label: "\u{FEFF}zed",
      tokens: TokenSet(accessToken: "access", tokenType: "Bearer", obtainedAt: Date()))
    let records = try await fixture.createClosedVault(with: [marked])
    let vault = try await fixture.unlocked()
    let listing = try await vault.listAccounts()
    #expect(listing.damaged.isEmpty)
    #expect(listing.accounts.map(\.label) == ["\u{FEFF}zed"])
    #expect(try await vault.account(records[0].id).label == "\u{FEFF}zed")
    await vault.close()
  }

  @Test func absentTokensAndEmptyFieldsSurviveTheRoundTrip() async throws {
    let fixture = try VaultFixture()
    let when = Date(timeIntervalSince1970: 1_700_000_000.25)
    let bare = NewAccount(
      providerID: "hivesigner", label: "émile 🦊",
      tokens: TokenSet(accessToken: "only-access", tokenType: nil, obtainedAt: when))
    let records = try await fixture.createClosedVault(with: [bare])
    let vault = try await fixture.unlocked()
    let read = try await vault.account(records[0].id)
    #expect(read.subject == nil)
    #expect(read.identity == [:])
    #expect(read.tokens == bare.tokens)
    #expect(read.tokens.refreshToken == nil && read.tokens.expiresAt == nil)
  }

  @Test func anExpiryStoredBeyondTenYearsReadsBackAsTenYears() async throws {
    // What an older version stored for a provider's `expires_in` of 1e300 (or 9.3e18): a date
    // no whole number of seconds holds. It reads back as ten years after the tokens came.
    let fixture = try VaultFixture()
    let obtained = Date(timeIntervalSince1970: 1_800_000_000)
    let tenYears = obtained.addingTimeInterval(315_360_000)
    var accounts: [NewAccount] = []
    for (index, seconds) in [1e300, 9.3e18, Double.infinity, Double.nan].enumerated() {
      var tokens = TokenSet(
        accessToken: "at", refreshToken: "rt", obtainedAt: obtained,
        refreshValidity: DateInterval(start: obtained, duration: 60))
      tokens.expiresAt = Date(timeIntervalSince1970: seconds)
      accounts.append(NewAccount(providerID: "hivesigner", label: "bob-\(index)", tokens: tokens))
    }
    try await fixture.createClosedVault(with: accounts)
    let read = try await fixture.unlocked().listAccounts().accounts
    #expect(read.count == 4)
    // Compared as numbers: describing a date of 1e300 seconds would stop the test process.
    for account in read {
      let seconds = account.tokens.expiresAt?.timeIntervalSince1970
      #expect(seconds == tenYears.timeIntervalSince1970, "\(account.name): \(seconds ?? 0)")
      #expect(account.tokens.expiryWasCut)
      #expect(
        account.tokens.refreshValidity?.end.timeIntervalSince1970
          == obtained.timeIntervalSince1970 + 60)
    }
    // A plausible expiry is left as it is.
    let fine = TokenSet(
      accessToken: "at", expiresAt: obtained.addingTimeInterval(3600), obtainedAt: obtained)
    #expect(fine.expiresAt == obtained.addingTimeInterval(3600))
    #expect(!fine.expiryWasCut)
  }

  @Test func listsAccountsOrderedByProviderThenLabel() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [
      VaultFixture.account(2), VaultFixture.account(1, provider: "muhajir"),
      VaultFixture.account(1),
    ])
    let listing = try await fixture.unlocked().listAccounts()
    #expect(listing.accounts.map(\.name) == ["muhajir/alice-1", "simkl/alice-1", "simkl/alice-2"])
    #expect(listing.damaged.isEmpty)
  }

  @Test func refusesASecondAccountWithTheSameProviderAndLabel() async throws {
    let fixture = try VaultFixture()
    try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let vault = try await fixture.unlocked()
    let duplicate = VaultError.duplicateAccount(providerID: "simkl", label: "alice-1")
    await #expect(throws: duplicate) { try await vault.insert(VaultFixture.account(1)) }
    #expect(duplicate.description.contains("choose another label"))
    // The same label under another provider is a different account.
    _ = try await vault.insert(VaultFixture.account(1, provider: "muhajir"))
    // A batch with one duplicate inserts nothing.
    await #expect(throws: duplicate) {
      try await vault.insert(contentsOf: [VaultFixture.account(7), VaultFixture.account(1)])
    }
    #expect(try await vault.account(providerID: "simkl", label: "alice-7") == nil)
    await #expect(throws: VaultError.invalidAccountName) {
      try await vault.insert(NewAccount(providerID: "simkl", label: "", tokens: .none(at: Date())))
    }
  }

  @Test func aNewSignInMayReplaceTheIdentityFieldsWithTheTokens() async throws {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let vault = try await fixture.unlocked()
    let fresh = TokenSet(accessToken: "at-new", refreshToken: "rt-new", obtainedAt: Date())
    let fields = ["email": "alice@example.com", "token_origin": "https://id.example.com"]
    let updated = try await vault.updateTokens(of: records[0].id, to: fresh, identity: fields)
    #expect(updated.identity == fields)
    #expect(updated.tokens == fresh)
    await vault.close()
    let reopened = try await fixture.unlocked()
    #expect(try await reopened.account(records[0].id).identity == fields)
    await reopened.close()
  }

  @Test func updatesTokensRenamesAndBumpsTheVersion() async throws {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(with: [
      VaultFixture.account(1), VaultFixture.account(2),
    ])
    let vault = try await fixture.unlocked()
    let fresh = TokenSet(
      accessToken: "at-new", refreshToken: "rt-new", scopes: ["a"], obtainedAt: Date())
    let updated = try await vault.updateTokens(of: records[0].id, to: fresh)
    #expect(updated.tokens == fresh)
    #expect(updated.version == 2)
    #expect(updated.label == "alice-1")

    let renamed = try await vault.rename(records[0].id, to: "work")
    #expect(renamed.version == 3)
    #expect(renamed.tokens == fresh)
    #expect(try await vault.account(providerID: "simkl", label: "work") == renamed)
    #expect(try await vault.account(providerID: "simkl", label: "alice-1") == nil)
    await #expect(throws: VaultError.duplicateAccount(providerID: "simkl", label: "alice-2")) {
      try await vault.rename(records[0].id, to: "alice-2")
    }
    #expect(try await vault.account(records[1].id) == records[1])
  }

  @Test func markingSignInNeededClearsTheTokensAndKeepsTheAccount() async throws {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(with: [VaultFixture.account(1)])
    let vault = try await fixture.unlocked()
    let when = Date(timeIntervalSince1970: 1_800_000_000)
    let marked = try await vault.markSignInNeeded(records[0].id, at: when)
    #expect(marked.needsSignIn)
    #expect(marked.tokens == TokenSet.none(at: when))
    #expect(marked.label == "alice-1")
    #expect(try await vault.account(records[0].id) == marked)
    // A new sign-in fills it again.
    let again = try await vault.updateTokens(of: records[0].id, to: VaultFixture.account(1).tokens)
    #expect(again.needsSignIn == false)
  }

  @Test func deletesAnAccountAndNeverReusesItsID() async throws {
    let fixture = try VaultFixture()
    let records = try await fixture.createClosedVault(with: [
      VaultFixture.account(1), VaultFixture.account(2),
    ])
    let vault = try await fixture.unlocked()
    try await vault.delete(records[1].id)
    await #expect(throws: VaultError.accountNotFound(records[1].id)) {
      try await vault.account(records[1].id)
    }
    await #expect(throws: VaultError.accountNotFound(records[1].id)) {
      try await vault.delete(records[1].id)
    }
    let added = try await vault.insert(VaultFixture.account(3))
    #expect(added.id > records[1].id)
    #expect(try await vault.status().accountCount == 2)
  }

  @Test func theFileHoldsNoLabelProviderScopeOrToken() async throws {
    let fixture = try VaultFixture()
    let accounts = [VaultFixture.account(1), VaultFixture.account(2, provider: "hivesigner")]
    let vault = try await Vault.create(
      at: fixture.location, passphrase: fixture.passphrase,
      parameters: VaultFixture.cheapParameters())
    let records = try await vault.insert(contentsOf: accounts)
    _ = try await vault.rename(records[0].id, to: "renamed-label-zq")
    _ = try await vault.updateTokens(of: records[1].id, to: VaultFixture.account(9).tokens)

    var secrets = ["renamed-label-zq", "hivesigner", "simkl", "Bearer"]
    for account in accounts + [VaultFixture.account(9)] {
      secrets += [account.label, account.subject ?? "", account.tokens.accessToken ?? ""]
      secrets += [account.tokens.refreshToken ?? "", account.tokens.idToken ?? ""]
      secrets += account.tokens.scopes + Array(account.identity.values)
    }
    // While open (pages in the WAL) and after close (checkpointed into the main file).
    for files in [try fixture.snapshot(), await closed(vault, fixture)] {
      #expect(files.keys.contains("vault.db"))
      for (name, data) in files {
        for secret in secrets {
          #expect(!data.contains(secret), "\(name) contains \(secret)")
        }
      }
    }
  }

  private func closed(_ vault: Vault, _ fixture: VaultFixture) async -> [String: Data] {
    await vault.close()
    return (try? fixture.snapshot()) ?? [:]
  }

  @Test func descriptionsNeverShowATokenOrThePassphrase() async throws {
    let account = VaultFixture.account(1)
    let texts = [
      "\(account.tokens)", String(reflecting: account.tokens), "\(account)",
      "\(Passphrase("hunter2-zq"))", String(reflecting: Passphrase("hunter2-zq")),
    ]
    var dumped = ""
    dump(account, to: &dumped)
    for text in texts + [dumped] {
      #expect(!text.contains("secret"), "\(text)")
      #expect(!text.contains("eyJid"), "\(text)")
      #expect(!text.contains("hunter2"), "\(text)")
    }
    #expect("\(account.tokens)".contains("refresh: present"))
  }
}
