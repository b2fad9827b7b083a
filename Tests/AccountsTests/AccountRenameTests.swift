import Accounts
import AuthCore
import Foundation
import Sandbox
import Testing
import Vault

/// Names people recognise: a label that is only the provider's opaque `sub`, and renaming.
@Suite struct AccountRenameTests {
  /// A harness whose `oidc` profile names accounts only by a numeric `sub`.
  func subjectOnly() async throws -> AccountsHarness {
    let harness = try await AccountsHarness.start()
    var settings = await harness.sandbox.settings(for: .oidc)
    settings.subjectOnlyClaims = true
    await harness.sandbox.setSettings(settings, for: .oidc)
    return harness
  }

  @Test func saysWhenTheLabelIsOnlyTheOpaqueSubject() async throws {
    let harness = try await subjectOnly()
    defer { Task { await harness.stop() } }
    let opaque = try await harness.signedIn(as: "alice")
    #expect(opaque.labelIsSubject)
    #expect(opaque.record.label.allSatisfy { $0.isNumber })
    #expect(opaque.record.subject == opaque.record.label)
    // A label asked for is the user's own.
    let named = try await harness.signedIn(as: "bob", label: "bob")
    #expect(!named.labelIsSubject)
    // A provider that gives a name is not asked about.
    var settings = await harness.sandbox.settings(for: .oidc)
    settings.subjectOnlyClaims = false
    await harness.sandbox.setSettings(settings, for: .oidc)
    let carol = try await harness.signedIn(as: "carol")
    #expect(!carol.labelIsSubject)
    #expect(carol.record.label == "carol")
  }

  @Test func renamesAnAccountKeepingItsTokensAndDefaultMark() async throws {
    let harness = try await subjectOnly()
    defer { Task { await harness.stop() } }
    let opaque = try await harness.signIn(as: "alice")
    _ = try await harness.book.makeDefault(named: opaque.name)
    let change = try await harness.book.rename(named: opaque.name, to: "work")
    #expect(change == RenameChange(previous: try opaque.accountName, account: "sandbox/work"))
    #expect(try await harness.book.listing().accounts.map(\.name) == ["sandbox/work"])
    #expect(try await harness.book.defaultAccountName(provider: "sandbox") == "sandbox/work")
    let token = try await harness.book.accessToken(
      named: "sandbox/work", minimumValidity: 60, startedAt: Date())
    #expect(token == opaque.tokens.accessToken)
    // Nothing to do the second time.
    #expect(try await harness.book.rename(named: "sandbox/work", to: "work").unchanged)
  }

  @Test func refusesALabelThatBreaksTheRulesOrIsTaken() async throws {
    let harness = try await AccountsHarness.start()
    defer { Task { await harness.stop() } }
    _ = try await harness.signIn(as: "alice")
    _ = try await harness.signIn(as: "bob")
    await #expect(throws: AccountsError.invalidLabel("a/b", problem: .slash)) {
      try await harness.book.rename(named: "sandbox/alice", to: "a/b")
    }
    await #expect(
      throws: AccountsError.vault(.duplicateAccount(providerID: "sandbox", label: "bob"))
    ) {
      try await harness.book.rename(named: "sandbox/alice", to: "bob")
    }
    let missing = await #expect(throws: AccountsError.self) {
      try await harness.book.rename(named: "sandbox/carol", to: "c")
    }
    #expect(missing?.code == "no_such_account")
  }

  @Test func signingInAgainWithoutALabelReachesTheRenamedAccount() async throws {
    let harness = try await subjectOnly()
    defer { Task { await harness.stop() } }
    let opaque = try await harness.signIn(as: "alice")
    _ = try await harness.book.rename(named: opaque.name, to: "work")
    let again = try await harness.signedIn(as: "alice")
    #expect(again.record.id == opaque.id)
    #expect(again.record.name == "sandbox/work")
    #expect(!again.labelIsSubject)
    #expect(try await harness.book.listing().accounts.map(\.name) == ["sandbox/work"])
  }
}
