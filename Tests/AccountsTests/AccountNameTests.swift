import Testing
import Vault

@testable import Accounts

@Suite struct AccountNameTests {
  @Test func readsProviderLabelPairsBareProvidersAndRowIDs() throws {
    #expect(
      try AccountReference(parsing: "simkl/alice").target
        == .name(AccountName(provider: "simkl", label: "alice")))
    #expect(
      try AccountReference(parsing: "work/a/b c").target
        == .name(AccountName(provider: "work", label: "a/b c")))
    #expect(try AccountReference(parsing: "simkl").target == .provider("simkl"))
    #expect(try AccountReference(parsing: "#12").target == .rowID(AccountID(12)))
    #expect(try AccountReference(parsing: "#012").text == "#012")
  }

  /// A row written by something other than authtui may hold a provider text that is no id: its
  /// name text still reaches it, to be removed.
  @Test func keepsTextWhoseProviderIsNoIDForTheRowThatStoresIt() throws {
    #expect(
      try AccountReference(parsing: "Not An Id/bob").target
        == .storedText(provider: "Not An Id", label: "bob"))
    #expect(
      try AccountReference(parsing: "Not An Id").target
        == .storedText(provider: "Not An Id", label: nil))
    #expect(try AccountReference(parsing: "Not An Id/bob").providerID == nil)
  }

  /// A label that starts with a combining mark (which AccountLabel allows, and a provider may
  /// give) is still named: the slash before it is found as a byte, not as a `Character`.
  @Test func findsTheSlashBeforeALabelStartingWithACombiningMark() throws {
    let name = AccountName(provider: "simkl", label: "\u{349}x")
    #expect(AccountName("simkl/\u{349}x") == name)
    #expect(AccountName(name.description) == name)
    #expect(try AccountReference(parsing: "simkl/\u{349}x").target == .name(name))
  }

  /// The names offered for one that names no account: its provider's accounts, and every
  /// account with its label, the slash found as a byte there too.
  @Test func suggestsTheProvidersAccountsAndTheSameLabelElsewhere() {
    let names = ["simkl/alice", "simkl/bob", "work/\u{349}x", "github/carol"]
    #expect(
      AccountBook.closeNames(to: "simkl/\u{349}x", among: names)
        == ["simkl/alice", "simkl/bob", "work/\u{349}x"])
    #expect(AccountBook.closeNames(to: "github", among: names) == ["github/carol"])
  }

  @Test(arguments: ["", "/alice", "simkl/"])
  func refusesNamesWithAnEmptyPart(text: String) {
    #expect(throws: AccountsError.malformedAccountName(text)) {
      try AccountReference(parsing: text)
    }
  }
}
