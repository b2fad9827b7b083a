import AuthCore
import TestSupport
import Testing

@testable import AccountFacts

/// The one order of account names, shared by the UI and `authtui list`.
@Suite struct AccountNameOrderTests {
  static func names(_ labels: [String], provider: ProviderID = "work") -> [AccountName] {
    labels.map { AccountName(provider: provider, label: $0) }
  }

  @Test func numbersInLabelsCompareByValue() {
    let sorted = Self.names(["user10", "user2", "user1", "user02", "user"]).sorted()
    #expect(sorted.map(\.label) == ["user", "user1", "user02", "user2", "user10"])
  }

  @Test func caseDoesNotSeparateLabelsButStillGivesOneOrder() {
    let sorted = Self.names(["bob", "Alice", "alice", "Bob"]).sorted()
    #expect(sorted.map(\.label) == ["Alice", "alice", "Bob", "bob"])
    #expect(AccountName(provider: "w", label: "Alice") < AccountName(provider: "w", label: "alice"))
    #expect(
      !(AccountName(provider: "w", label: "alice") < AccountName(provider: "w", label: "Alice")))
  }

  @Test func theProviderComesFirstAndIsNaturalToo() {
    let sorted = [
      AccountName(provider: "work10", label: "a"), AccountName(provider: "work2", label: "z"),
      AccountName(provider: "simkl", label: "zed"),
    ].sorted()
    #expect(sorted.map(\.description) == ["simkl/zed", "work2/z", "work10/a"])
  }

  @Test func digitsInsideWordsAndLongNumbersKeepTheirOrder() {
    let sorted = Self.names([
      "a9b", "a10b", "a10a", "日本2", "日本10", "99999999999999999999", "100000000000000000000",
    ]).sorted()
    #expect(
      sorted.map(\.label) == [
        "99999999999999999999", "100000000000000000000", "a9b", "a10a", "a10b", "日本2", "日本10",
      ])
  }

  @Test func theOrderKeyAgreesWithTheComparison() {
    let names = Self.names(["x3", "X3", "x03", "x10", "x2"])
    for left in names {
      for right in names {
        #expect((left < right) == (left.orderKey < right.orderKey))
        #expect(!(left < right && right < left))
      }
    }
  }
}

/// ASCII names are split by bytes (`NaturalOrderKey.asciiParts`, for speed), into exactly the
/// parts the character-by-character split gives.
@Suite struct NaturalOrderKeyTests {
  @Test func asciiIsSplitAsCharactersSplitIt() {
    let texts = [
      "", "0", "00", "007", "user-10", "User01x", "A0b", "Z9z", "a-b_C.d", "x\r\ny", "tab\t9",
      "100000000000000000000", "ALL CAPS 42", "~!@#$%^&*()", "0a0", "9", "\u{7F}1",
    ]
    for text in texts {
      #expect(NaturalOrderKey.asciiParts(text) == NaturalOrderKey.characterParts(text), "\(text)")
    }
    #expect(NaturalOrderKey.asciiParts("日本2") == nil)
  }
}
