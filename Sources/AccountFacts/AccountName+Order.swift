extension AccountName {
  /// How accounts are ordered wherever they are listed (the UI, `authtui list`, suggestions):
  /// by provider id, then by label, each in natural order, so `user2` comes before `user10` and
  /// `Alice` beside `alice`.
  public static func < (left: AccountName, right: AccountName) -> Bool {
    left.orderKey < right.orderKey
  }

  /// The name's place in the order of `<`, computed once: a list sorting many accounts keeps
  /// the keys instead of splitting both names at every comparison.
  public var orderKey: OrderKey { OrderKey(self) }

  /// An account name's place in the order of `AccountName.<`.
  ///
  /// An all-ASCII name (nearly every name) is kept as one string of bytes whose byte order is
  /// that order (`asciiBytes`), so that sorting thousands of names compares bytes rather than
  /// parts; other names keep their parts (`NaturalOrderKey`).
  public struct OrderKey: Comparable, Sendable {
    let name: (provider: String, label: String)
    /// `orderBytes(provider:label:)` of an all-ASCII name; nil for any other.
    let asciiBytes: [UInt8]?
    /// The natural keys of a name that is not all ASCII; nil for an ASCII one (made when one is
    /// compared with a name that is not).
    let parts: (provider: NaturalOrderKey, label: NaturalOrderKey)?

    init(_ name: AccountName) {
      self.name = (name.provider.rawValue, name.label)
      asciiBytes = Self.orderBytes(provider: name.provider.rawValue, label: name.label)
      parts =
        asciiBytes == nil
        ? (NaturalOrderKey(name.provider.rawValue), NaturalOrderKey(name.label)) : nil
    }

    public static func < (left: OrderKey, right: OrderKey) -> Bool {
      if let leftBytes = left.asciiBytes, let rightBytes = right.asciiBytes {
        return leftBytes.lexicographicallyPrecedes(rightBytes)
      }
      let leftParts = left.naturalKeys
      let rightParts = right.naturalKeys
      if leftParts.provider != rightParts.provider {
        return leftParts.provider < rightParts.provider
      }
      if leftParts.label != rightParts.label { return leftParts.label < rightParts.label }
      // Names equal but for case or leading zeros still have one order.
      return left.name < right.name
    }

    public static func == (left: OrderKey, right: OrderKey) -> Bool {
      left.name == right.name
    }

    private var naturalKeys: (provider: NaturalOrderKey, label: NaturalOrderKey) {
      parts ?? (NaturalOrderKey(name.provider), NaturalOrderKey(name.label))
    }

    /// For an all-ASCII name, bytes that sort as the name does: the provider's natural parts,
    /// the label's, then the name itself (the tie-break of names equal but for case or
    /// leading zeros). A text part is 2, its lowercased bytes each plus one, and 0; a number
    /// part is 1, the count of its digits (four bytes, most significant first) and its digits
    /// without leading zeros; 0 ends a name's parts. So, at any place where two keys first
    /// differ, the bytes compare as `NaturalOrderKey.Part`s do: the end of the parts before
    /// any part, a number before a text, a shorter run before a longer one that begins alike.
    /// Nil when the name is not all ASCII.
    static func orderBytes(provider: String, label: String) -> [UInt8]? {
      var provider = provider
      var label = label
      return provider.withUTF8 { providerBytes in
        label.withUTF8 { labelBytes in
          guard providerBytes.allSatisfy({ $0 < 0x80 }), labelBytes.allSatisfy({ $0 < 0x80 })
          else { return nil }
          var key: [UInt8] = []
          key.reserveCapacity(2 * (providerBytes.count + labelBytes.count) + 24)
          appendNaturalParts(providerBytes, to: &key)
          appendNaturalParts(labelBytes, to: &key)
          for byte in providerBytes { key.append(byte + 1) }
          key.append(0)
          for byte in labelBytes { key.append(byte + 1) }
          return key
        }
      }
    }

    private static func appendNaturalParts(
      _ bytes: UnsafeBufferPointer<UInt8>, to key: inout [UInt8]
    ) {
      let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
      var start = 0
      while start < bytes.count {
        let inNumber = isDigit(bytes[start])
        var end = start + 1
        while end < bytes.count, isDigit(bytes[end]) == inNumber { end += 1 }
        if inNumber {
          var first = start
          while first < end, bytes[first] == UInt8(ascii: "0") { first += 1 }
          let count = UInt32(end - first)
          key.append(1)
          key.append(UInt8(count >> 24))
          key.append(UInt8(count >> 16 & 0xFF))
          key.append(UInt8(count >> 8 & 0xFF))
          key.append(UInt8(count & 0xFF))
          for index in first..<end { key.append(bytes[index]) }
        } else {
          key.append(2)
          for index in start..<end {
            let byte = bytes[index]
            key.append(
              ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte) + 1)
          }
          key.append(0)
        }
        start = end
      }
      key.append(0)
    }
  }
}

/// Text split into runs of digits, compared by their value (`2` before `10`, `007` beside
/// `7`), and runs of anything else, compared without regard to case.
struct NaturalOrderKey: Comparable, Sendable {
  enum Part: Comparable, Sendable {
    /// A run of ASCII digits without its leading zeros: the longer number is the larger.
    case number(length: Int, digits: String)
    /// A run of other characters, lowercased.
    case text(String)
  }

  let parts: [Part]

  init(_ text: String) {
    parts = Self.asciiParts(text) ?? Self.characterParts(text)
  }

  /// The parts of any text, character by character.
  static func characterParts(_ text: String) -> [Part] {
    var parts: [Part] = []
    var run = ""
    var inNumber = false
    func flush() {
      guard !run.isEmpty else { return }
      if inNumber {
        let digits = String(run.drop { $0 == "0" })
        parts.append(.number(length: digits.count, digits: digits))
      } else {
        parts.append(.text(run.lowercased()))
      }
      run = ""
    }
    for character in text {
      let isDigit = character.isASCII && character.isWholeNumber
      if isDigit != inNumber {
        flush()
        inNumber = isDigit
      }
      run.append(character)
    }
    flush()
    return parts
  }

  /// The parts of ASCII text (most names), split by bytes: the same parts as the characters
  /// give, where a byte is a character, a digit is 0-9, and lowercasing is A-Z to a-z. Nil for
  /// any other text.
  static func asciiParts(_ text: String) -> [Part]? {
    let bytes = Array(text.utf8)
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
    let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    var parts: [Part] = []
    var start = 0
    while start < bytes.count {
      let inNumber = isDigit(bytes[start])
      var end = start + 1
      while end < bytes.count, isDigit(bytes[end]) == inNumber { end += 1 }
      let run = bytes[start..<end]
      if inNumber {
        let digits = run.drop { $0 == UInt8(ascii: "0") }
        parts.append(.number(length: digits.count, digits: String(decoding: digits, as: UTF8.self)))
      } else {
        let lowered = run.map {
          (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0
        }
        parts.append(.text(String(decoding: lowered, as: UTF8.self)))
      }
      start = end
    }
    return parts
  }

  static func < (left: NaturalOrderKey, right: NaturalOrderKey) -> Bool {
    for (leftPart, rightPart) in zip(left.parts, right.parts) where leftPart != rightPart {
      return leftPart < rightPart
    }
    return left.parts.count < right.parts.count
  }
}

extension Array where Element == AccountSummary {
  /// The accounts in `AccountName`'s order, as the UI and `authtui list` show them: each name's
  /// key is made once, and positions are sorted rather than the summaries themselves, which
  /// are large to move (for 10,000 accounts this is several times faster).
  public func sortedByName() -> [AccountSummary] {
    sortedByName(keys: map(\.name.orderKey))
  }

  /// `sortedByName()` by keys already made, `keys[i]` the order key of `self[i]`'s name (made
  /// over the cores, say).
  public func sortedByName(keys: [AccountName.OrderKey]) -> [AccountSummary] {
    precondition(keys.count == count, "one order key an account")
    return keys.indices.sorted { keys[$0] < keys[$1] }.map { self[$0] }
  }
}
