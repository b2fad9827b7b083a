import Accounts
import Testing

@Suite struct AccountNameTests {
  @Test func readsProviderLabelPairsBareProvidersAndRowIDs() throws {
    #expect(
      try AccountReference(parsing: "simkl/alice") == .full(provider: "simkl", label: "alice"))
    #expect(try AccountReference(parsing: "work/a/b c") == .full(provider: "work", label: "a/b c"))
    #expect(try AccountReference(parsing: "simkl") == .provider("simkl"))
    #expect(try AccountReference(parsing: "#12") == .rowID(12))
  }

  @Test(arguments: ["", "/alice", "simkl/"])
  func refusesNamesWithAnEmptyPart(text: String) {
    #expect(throws: AccountsError.malformedAccountName(text)) {
      try AccountReference(parsing: text)
    }
  }
}
