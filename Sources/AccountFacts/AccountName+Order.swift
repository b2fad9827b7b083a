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
  public struct OrderKey: Comparable, Sendable {
    let provider: NaturalOrderKey
    let label: NaturalOrderKey
    let name: (provider: String, label: String)

    init(_ name: AccountName) {
      provider = NaturalOrderKey(name.provider.rawValue)
      label = NaturalOrderKey(name.label)
      self.name = (name.provider.rawValue, name.label)
    }

    public static func < (left: OrderKey, right: OrderKey) -> Bool {
      if left.provider != right.provider { return left.provider < right.provider }
      if left.label != right.label { return left.label < right.label }
      // Names equal but for case or leading zeros still have one order.
      return left.name < right.name
    }

    public static func == (left: OrderKey, right: OrderKey) -> Bool {
      left.name == right.name
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
