import Spelling

/// The one JSON reader: a strict RFC 8259 parser that reports errors by line and column, for
/// configuration files and for everything that arrives over the network or the agent's socket.
///
/// Foundation's parsers report only a character offset and forget where values were, which
/// would leave a user with "the data is not in the correct format" for a missing comma on
/// line 12. This one keeps the position of every value and key.
public struct JSONParser {
  /// What the reader accepts and keeps, by where the text comes from.
  enum Mode {
    /// A file a person wrote (provider files, `config.json`): every value's position is kept
    /// for messages, and a member name given twice is an error (which one would count?).
    case configuration
    /// An answer from a provider or a line from the agent: UTF-8 bytes, no positions kept (no
    /// one reads a provider's answer by line), and a repeated member name keeps its last
    /// value: what RFC 7519 §4 and RFC 7515 §4 require of a JWT reader that does not refuse
    /// the token, and what JavaScript's `JSON.parse` does.
    case wire

    var maximumDepth: Int {
      switch self {
      case .configuration: return JSONParser.maximumDepth
      case .wire: return JSONParser.wireMaximumDepth
      }
    }
  }

  private let scalars: [Unicode.Scalar]
  private let mode: Mode
  private var index = 0
  private var line = 1
  private var column = 1
  /// How deep arrays and objects may nest in a configuration file: far more than any needs,
  /// and few enough that the recursive descent cannot run out of stack.
  public static let maximumDepth = 64
  /// How deep they may nest in what comes over the wire: Foundation's decoder's limit, which
  /// read these answers before.
  public static let wireMaximumDepth = 512

  /// Parses a whole configuration document; anything but white space after the top-level
  /// value is an error.
  public static func parse(_ text: String) throws(JSONParseError) -> JSONDocument {
    let (value, positions) = try parse(Array(text.unicodeScalars), mode: .configuration)
    return JSONDocument(root: value, positions: positions)
  }

  /// Parses JSON that came over the network or a socket: UTF-8 (RFC 8259 §8.1; a leading byte
  /// order mark is skipped, as the RFC allows), nested at most `wireMaximumDepth` deep; a
  /// member name given twice keeps its last value.
  public static func parseWire(_ bytes: some Sequence<UInt8>) throws(JSONParseError) -> JSONValue {
    var scalars = try decodeUTF8(bytes)
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    return try parse(scalars, mode: .wire).0
  }

  private static func parse(_ scalars: [Unicode.Scalar], mode: Mode) throws(JSONParseError) -> (
    JSONValue, JSONPositions
  ) {
    var parser = JSONParser(scalars: scalars, mode: mode)
    parser.skipWhitespace()
    let parsed = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    guard parser.index == parser.scalars.count else {
      throw parser.error("unexpected text after the end of the JSON value")
    }
    return parsed
  }

  /// The scalars of UTF-8 `bytes`; a byte sequence that is not UTF-8 is an error at its place.
  private static func decodeUTF8(_ bytes: some Sequence<UInt8>) throws(JSONParseError)
    -> [Unicode.Scalar]
  {
    var scalars: [Unicode.Scalar] = []
    var position = SourcePosition(line: 1, column: 1)
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        scalars.append(scalar)
        position =
          scalar == "\n"
          ? SourcePosition(line: position.line + 1, column: 1)
          : SourcePosition(line: position.line, column: position.column + 1)
      case .emptyInput:
        return scalars
      case .error:
        throw JSONParseError(message: "the text is not valid UTF-8", position: position)
      }
    }
  }

  private init(scalars: [Unicode.Scalar], mode: Mode) {
    self.scalars = scalars
    self.mode = mode
  }

  private var position: SourcePosition { SourcePosition(line: line, column: column) }

  private func error(_ message: String) -> JSONParseError {
    JSONParseError(message: message, position: position)
  }

  private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  private mutating func advance() {
    guard let scalar = current else { return }
    index += 1
    if scalar == "\n" {
      line += 1
      column = 1
    } else {
      column += 1
    }
  }

  private mutating func skipWhitespace() {
    while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    {
      advance()
    }
  }

  /// Consumes `scalar`, or fails saying `what` was expected (built only then: a member name is
  /// quoted for the message, which is too slow to do for every member read).
  private mutating func expect(_ scalar: Unicode.Scalar, _ what: @autoclosure () -> String)
    throws(JSONParseError)
  {
    guard current == scalar else {
      throw error(
        "expected \(what())"
          + (current.map { ", found \(Self.shown($0))" } ?? " before the end of the file"))
    }
    advance()
  }

  private mutating func parseValue(depth: Int) throws(JSONParseError) -> (
    JSONValue, JSONPositions
  ) {
    var positions = JSONPositions(start: position)
    guard let scalar = current else { throw error("expected a value before the end of the file") }
    if scalar == "{" || scalar == "[" {
      guard depth < mode.maximumDepth else {
        let advice = mode == .configuration ? "; a configuration file needs only a few levels" : ""
        throw error("arrays and objects are nested more than \(mode.maximumDepth) deep" + advice)
      }
    }
    switch scalar {
    case "{": return (try parseObject(depth: depth, positions: &positions), positions)
    case "[": return (try parseArray(depth: depth, positions: &positions), positions)
    case "\"": return (.string(try parseString()), positions)
    case "t":
      try parseLiteral("true")
      return (.bool(true), positions)
    case "f":
      try parseLiteral("false")
      return (.bool(false), positions)
    case "n":
      try parseLiteral("null")
      return (.null, positions)
    case "-", "0"..."9": return (.number(try parseNumber()), positions)
    case "'": throw error("strings take double quotes (\"), not single quotes")
    case "/": throw error("JSON has no comments; remove the comment")
    default: throw error("unexpected \(Self.shown(scalar)) where a value should be")
    }
  }

  /// A character from the file for a message: quoted, and escaped when it is invisible.
  private static func shown(_ scalar: Unicode.Scalar) -> String {
    MessageQuoting.quoted(String(Character(scalar)), quote: "'")
  }

  private mutating func parseLiteral(_ word: String) throws(JSONParseError) {
    for expected in word.unicodeScalars {
      guard current == expected else { throw error("expected '\(word)'") }
      advance()
    }
  }

  private mutating func parseObject(depth: Int, positions: inout JSONPositions)
    throws(JSONParseError) -> JSONValue
  {
    advance()  // {
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if current == "}" {
      advance()
      return .object(members)
    }
    while true {
      skipWhitespace()
      let keyStart = position
      guard current == "\"" else {
        if current == "}" { throw error("trailing comma before '}'; remove the last comma") }
        throw error("expected a member name in double quotes")
      }
      let key = try parseString()
      let repeated = members[key] != nil
      if repeated && mode == .configuration {
        throw JSONParseError(
          message: "the name \(MessageQuoting.quoted(key)) appears twice in this object",
          position: keyStart)
      }
      skipWhitespace()
      try expect(":", "':' after the member name \(MessageQuoting.quoted(key))")
      skipWhitespace()
      let (value, valuePositions) = try parseValue(depth: depth + 1)
      members[key] = value
      if mode == .configuration { positions.members[key] = valuePositions }
      skipWhitespace()
      if current == "," {
        advance()
        continue
      }
      if current == "}" {
        advance()
        return .object(members)
      }
      throw error(
        "expected ',' or '}' after the value of \(MessageQuoting.quoted(key)) (a missing comma?)")
    }
  }

  private mutating func parseArray(depth: Int, positions: inout JSONPositions)
    throws(JSONParseError) -> JSONValue
  {
    advance()  // [
    var elements: [JSONValue] = []
    skipWhitespace()
    if current == "]" {
      advance()
      return .array(elements)
    }
    while true {
      skipWhitespace()
      if current == "]" { throw error("trailing comma before ']'; remove the last comma") }
      let (element, elementPositions) = try parseValue(depth: depth + 1)
      elements.append(element)
      if mode == .configuration { positions.elements.append(elementPositions) }
      skipWhitespace()
      if current == "," {
        advance()
        continue
      }
      if current == "]" {
        advance()
        return .array(elements)
      }
      throw error("expected ',' or ']' in the array (a missing comma?)")
    }
  }

  private mutating func parseString() throws(JSONParseError) -> String {
    advance()  // opening quote
    var result = String.UnicodeScalarView()
    while true {
      guard let scalar = current else {
        throw error("a string is not closed; add the closing '\"'")
      }
      if scalar == "\"" {
        advance()
        return String(result)
      }
      if scalar.value < 0x20 {
        throw error("a string contains a raw control character (a line break?); write it as \\n")
      }
      if scalar == "\\" {
        advance()
        guard let escaped = current else { throw error("a string ends inside an escape") }
        switch escaped {
        case "\"", "\\", "/": result.append(escaped)
        case "b": result.append("\u{08}")
        case "f": result.append("\u{0C}")
        case "n": result.append("\n")
        case "r": result.append("\r")
        case "t": result.append("\t")
        case "u":
          advance()
          result.append(try parseUnicodeEscape())
          continue
        default: throw error("'\\\(escaped)' is not a JSON escape")
        }
        advance()
        continue
      }
      result.append(scalar)
      advance()
    }
  }

  /// Reads `XXXX` after `\u` (the cursor is on the first hex digit), joining surrogate pairs.
  private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
    let first = try parseHex4()
    if (0xD800..<0xDC00).contains(first) {
      guard current == "\\" else { throw error("a \\u escape holds half a surrogate pair") }
      advance()
      guard current == "u" else { throw error("a \\u escape holds half a surrogate pair") }
      advance()
      let second = try parseHex4()
      guard (0xDC00..<0xE000).contains(second),
        let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
      else { throw error("a \\u escape holds an invalid surrogate pair") }
      return scalar
    }
    guard let scalar = Unicode.Scalar(first) else {
      throw error("a \\u escape holds a lone low surrogate")
    }
    return scalar
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let scalar = current, let digit = UInt32(String(scalar), radix: 16) else {
        throw error("\\u must be followed by four hex digits")
      }
      value = value << 4 | digit
      advance()
    }
    return value
  }

  private mutating func parseNumber() throws(JSONParseError) -> Double {
    var text = ""
    func take(_ parser: inout JSONParser) {
      if let scalar = parser.current {
        text.unicodeScalars.append(scalar)
        parser.advance()
      }
    }
    if current == "-" { take(&self) }
    guard let first = current, ("0"..."9").contains(first) else {
      throw error("a number needs a digit after '-'")
    }
    if first == "0" {
      take(&self)
      if let next = current, ("0"..."9").contains(next) {
        throw error("numbers cannot start with 0 (write 8765, not 08765)")
      }
    }
    while let scalar = current, ("0"..."9").contains(scalar) { take(&self) }
    if current == "." {
      take(&self)
      guard let digit = current, ("0"..."9").contains(digit) else {
        throw error("a number needs digits after '.'")
      }
      while let scalar = current, ("0"..."9").contains(scalar) { take(&self) }
    }
    if current == "e" || current == "E" {
      take(&self)
      if current == "+" || current == "-" { take(&self) }
      guard let digit = current, ("0"..."9").contains(digit) else {
        throw error("a number needs digits in its exponent")
      }
      while let scalar = current, ("0"..."9").contains(scalar) { take(&self) }
    }
    guard let number = Double(text), number.isFinite else {
      throw error("'\(text)' is out of range")
    }
    return number
  }
}

/// Why a JSON document could not be read, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, phrased so the fix is clear.
  public let message: String
  /// Where the parser noticed it.
  public let position: SourcePosition

  public var description: String { "\(position): \(message)" }
}
