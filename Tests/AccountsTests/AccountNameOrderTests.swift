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

/// An all-ASCII name's order key is a string of bytes (`OrderKey.orderBytes`): its byte order
/// must be the order of the parts, for every kind of name.
@Suite struct ASCIIOrderKeyTests {
  /// The parts' order, as names that are not all ASCII are compared.
  static func partsOrder(_ left: AccountName, _ right: AccountName) -> Bool {
    let (leftProvider, rightProvider) = (
      NaturalOrderKey(left.provider.rawValue), NaturalOrderKey(right.provider.rawValue)
    )
    if leftProvider != rightProvider { return leftProvider < rightProvider }
    let (leftLabel, rightLabel) = (NaturalOrderKey(left.label), NaturalOrderKey(right.label))
    if leftLabel != rightLabel { return leftLabel < rightLabel }
    return (left.provider.rawValue, left.label) < (right.provider.rawValue, right.label)
  }

  @Test func theBytesSortAsThePartsDo() throws {
    // Few letters, so that names often share a start; digits with zeros, case, and the bytes
    // at both ends of ASCII.
    let alphabet = Array("aAbB0019-_.\u{0}\u{1}\u{7F} ")
    var generator = SplitMix64(seed: 29)
    let providers: [ProviderID] = try ["a", "a1", "a01", "a10", "b", "a-b"].map {
      try ProviderID($0)
    }
    let names = (0..<400).map { _ in
      let length = Int(generator.next() % 7)
      let label = String(
        (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
      return AccountName(
        provider: providers[Int(generator.next() % UInt64(providers.count))], label: label)
    }
    var compared = 0
    for left in names {
      for right in names.prefix(60) {
        #expect(
          (left.orderKey < right.orderKey) == Self.partsOrder(left, right), "\(left) \(right)")
        compared += 1
      }
    }
    #expect(compared == 24_000)
    #expect(OrderKeyProbe.isASCII(AccountName(provider: "a", label: "x\u{7F}")))
    #expect(!OrderKeyProbe.isASCII(AccountName(provider: "a", label: "日本")))
  }

  @Test func anASCIINameAndAnotherCompareByTheirParts() {
    let names = AccountNameOrderTests.names(["x", "日本", "x2", "é", "E", "10"])
    for left in names {
      for right in names {
        #expect((left.orderKey < right.orderKey) == Self.partsOrder(left, right))
      }
    }
  }
}

/// Whether a name's key took the byte form.
enum OrderKeyProbe {
  static func isASCII(_ name: AccountName) -> Bool { name.orderKey.asciiBytes != nil }
}

/// A small seeded generator (SplitMix64), so that the names are the same in every run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
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
