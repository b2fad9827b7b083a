import Accounts
import AuthCore
import Foundation
import Sandbox
import TestSupport
import Testing
import Vault

/// The label rules: what a person may type, what a provider's name becomes, and what the
/// sign-in refuses before anything reaches the network.
@Suite struct AccountLabelTests {
  @Test(arguments: [
    "alice", "work laptop", "alice@example.com", "user2", "n7", "a#b", "日本語", "👩‍💻",
    "e\u{301}", String(repeating: "x", count: 64),
  ])
  func acceptsLabelsThatReadBackAsThemselves(label: String) throws {
    #expect(AccountLabel.problem(with: label) == nil)
    try AccountLabel.check(label)
  }

  @Test(arguments: [
    ("", AccountLabel.Problem.empty), ("   ", .empty), ("#7", .leadingHash),
    ("#work", .leadingHash), ("work/alt", .slash), ("/", .slash),
    ("a\u{7}b", .invisibleCharacter("\u{7}")),
    ("a\nb", .invisibleCharacter("\n")), ("\u{1B}[31mred", .invisibleCharacter("\u{1B}")),
    ("evil\u{202E}txt", .invisibleCharacter("\u{202E}")),
    ("a\u{2028}b", .invisibleCharacter("\u{2028}")), (" alice", .surroundingSpace),
    // Format characters: a byte order mark (the vault once read a label's back without it),
    // a zero-width space, a soft hyphen.
    ("\u{FEFF}zed", .invisibleCharacter("\u{FEFF}")),
    ("a\u{200B}b", .invisibleCharacter("\u{200B}")),
    ("a\u{AD}b", .invisibleCharacter("\u{AD}")),
    ("alice ", .surroundingSpace), ("alice\u{A0}", .surroundingSpace),
    (String(repeating: "x", count: 65), .tooLong),
    ("a" + String(repeating: "\u{301}", count: 300), .tooLong),
  ])
  func refusesEachBrokenRuleWithItsReason(label: String, problem: AccountLabel.Problem) {
    #expect(AccountLabel.problem(with: label) == problem)
    #expect(throws: AccountsError.invalidLabel(label, problem: problem)) {
      try AccountLabel.check(label)
    }
  }

  @Test func saysWhyAndWhatToTypeInstead() {
    func message(_ label: String) -> String {
      do {
        try AccountLabel.check(label)
        return "accepted"
      } catch {
        return error.message
      }
    }
    #expect(
      message("")
        == "an account label cannot be empty; give one such as work, or none at all to take "
        + "the provider's name for you")
    #expect(
      message("#7")
        == "the label \"#7\" starts with #, which names an account by its number in the "
        + "vault (`#7`, as `authtui list` names a damaged one); choose a label without the #, "
        + "such as \"7\"")
    #expect(
      message("work/alt")
        == "the label \"work/alt\" holds /, which separates the provider from the label in "
        + "PROVIDER/LABEL; choose a label without it, such as \"work-alt\"")
    #expect(
      message(" alice")
        == "the label \" alice\" starts or ends with a space, which nobody sees when typing it "
        + "back; leave the space out, such as \"alice\"")
    // The control character is written out, never sent to the terminal.
    #expect(
      message("\u{1B}[2Jwork")
        == "the label \"\\u{1B}[2Jwork\" holds U+1B, a character that does not show; leave it "
        + "out, such as \"[2Jwork\"")
    #expect(message(String(repeating: "x", count: 65)).contains("at most 64 characters"))
    #expect(message("#").hasSuffix("choose a label without the #, such as work"))
    #expect(AccountsError.invalidLabel("#", problem: .leadingHash).code == "invalid_label")
  }

  @Test(arguments: [
    ("alice", "alice"), ("team/alice", "team-alice"), ("#7", "7"), ("##7", "7"),
    ("# bob / x ", "bob - x"), ("a\u{202E}b\u{7}c", "abc"), ("a#b", "a#b"), ("///", "---"),
    (String(repeating: "y", count: 90), String(repeating: "y", count: 64)),
  ])
  func repairsAProvidersNameInsteadOfStoringItBroken(name: String, label: String) throws {
    #expect(AccountLabel.derived(from: name) == label)
    try AccountLabel.check(AccountLabel.derived(from: name))
  }

  @Test(arguments: [nil, "#", "# \u{7}", " "])
  func fallsBackToDefaultWhenNothingOfTheNameIsLeft(name: String?) {
    #expect(AccountLabel.derived(from: name) == "default")
  }

  @Test func aSignInWithABrokenLabelIsRefusedBeforeAnyRequest() async throws {
    let harness = try await AccountsHarness.start()
    for (label, problem) in [
      ("", AccountLabel.Problem.empty), ("#1", .leadingHash), ("sandbox/work", .slash),
      ("tab\there", .invisibleCharacter("\t")),
    ] {
      await #expect(throws: AccountsError.invalidLabel(label, problem: problem)) {
        _ = try await harness.book.beginSignIn(provider: "sandbox", flow: .pkce, label: label)
      }
    }
    await #expect(
      throws: AccountsError.flowNotOffered(
        provider: "sandbox", flow: .pin, offered: [.pkce, .device])
    ) {
      _ = try await harness.book.beginSignIn(provider: "sandbox", flow: .pin, label: "work")
    }
    #expect(await harness.stat(.requests) == 0)
    #expect(try await harness.book.listing().accounts.isEmpty)
    await harness.stop()
  }

  @Test func accountsStoredUnderOldLabelsStillListSignInAgainAndAreRemovable() async throws {
    let harness = try await AccountsHarness.start()
    let slashed = try await harness.store(provider: "sandbox", label: "work/alt")
    let hashed = try await harness.store(provider: "sandbox", label: "#7")
    #expect(
      try await harness.book.listing().accounts.map(\.name).sorted() == [
        "sandbox/#7", "sandbox/work/alt",
      ])
    #expect(try await harness.book.account(named: "sandbox/work/alt").id == slashed.id)
    #expect(try await harness.book.account(named: "#\(hashed.id.rawValue)").id == hashed.id)

    // Signing in again keeps the name the account already has.
    let again = try await harness.signIn(as: "alice", label: "work/alt")
    #expect(again.id == slashed.id && again.label == "work/alt")
    #expect(again.tokens.accessToken != "stored-work/alt")

    let stored = try await harness.book.storedAccount(named: "#\(hashed.id.rawValue)")
    _ = try await harness.book.signOut(stored, localOnly: true)
    #expect(try await harness.book.listing().accounts.map(\.name) == ["sandbox/work/alt"])
    await harness.stop()
  }
}
