import Spelling

/// JSON that authtui writes, built in code and written with object members in the order given:
/// the sandbox's answers read like the provider documents they imitate (`access_token` first),
/// and `login --json` events and `list --json` rows keep the order DESIGN.md gives them
/// (Foundation's encoder keeps no order on Linux). JSON that is read is `JSONValue`, by
/// `JSONParser`.
public enum OrderedJSON: Sendable, Equatable {
  case string(String)
  case int(Int)
  /// A number that may have a fraction (a time in seconds since 1970); written in the shortest
  /// form that reads back exactly, and as `null` when it is not finite (JSON has no NaN).
  case double(Double)
  case bool(Bool)
  case null
  case array([OrderedJSON])
  case object([(String, OrderedJSON)])

  public static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool { lhs.text == rhs.text }

  /// An object with only the members whose value is present.
  public static func object(dropping members: [(String, OrderedJSON?)]) -> OrderedJSON {
    .object(members.compactMap { name, value in value.map { (name, $0) } })
  }

  /// The same value with the members of every object sorted by name (by Unicode scalars), for
  /// objects whose members have no order of their own: bodies and files that must come out the
  /// same every time.
  public var sortedByName: OrderedJSON {
    switch self {
    case .array(let values):
      return .array(values.map(\.sortedByName))
    case .object(let members):
      return .object(
        members.sorted { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) }
          .map { ($0.0, $0.1.sortedByName) })
    default:
      return self
    }
  }

  /// The compact JSON text (RFC 8259), no insignificant whitespace.
  public var text: String {
    var output = ""
    write(to: &output)
    return output
  }

  /// The text laid out for a person, as Foundation's `.prettyPrinted` lays it out (its files
  /// were written that way): a member or element per line, two spaces per level, `"name" : value`,
  /// and an empty array or object opened and closed on lines of their own.
  public var prettyText: String {
    var output = ""
    writePretty(to: &output, indent: "")
    return output
  }

  private func writePretty(to output: inout String, indent: String) {
    let inner = indent + "  "
    switch self {
    case .array(let values):
      output += "[\n"
      for (index, value) in values.enumerated() {
        if index > 0 { output += ",\n" }
        output += inner
        value.writePretty(to: &output, indent: inner)
      }
      output += "\n" + indent + "]"
    case .object(let members):
      output += "{\n"
      for (index, member) in members.enumerated() {
        if index > 0 { output += ",\n" }
        output += inner
        Self.writeString(member.0, to: &output)
        output += " : "
        member.1.writePretty(to: &output, indent: inner)
      }
      output += "\n" + indent + "}"
    default:
      write(to: &output)
    }
  }

  private func write(to output: inout String) {
    switch self {
    case .string(let value):
      Self.writeString(value, to: &output)
    case .int(let value):
      output += String(value)
    case .double(let value):
      output += value.isFinite ? String(value) : "null"
    case .bool(let value):
      output += value ? "true" : "false"
    case .null:
      output += "null"
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.write(to: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { output += "," }
        Self.writeString(member.0, to: &output)
        output += ":"
        member.1.write(to: &output)
      }
      output += "}"
    }
  }

  /// Escapes what RFC 8259 §7 requires (the quote, the backslash and the C0 controls), and
  /// every other character a terminal acts on or that reorders text (`TerminalText.isUnsafe`:
  /// DEL, the C1 controls, the direction controls), as `\u202e`: the same string to a JSON
  /// reader, and `--json` output shown on a terminal cannot send it escape sequences.
  ///
  /// The text between two escapes is appended as one run, not scalar by scalar: four times
  /// faster for a token, and every answer of the agent and every `--json` line is mostly that.
  public static func writeString(_ value: String, to output: inout String) {
    output += "\""
    let scalars = value.unicodeScalars
    var run = scalars.startIndex
    var index = run
    while index != scalars.endIndex {
      let next = scalars.index(after: index)
      if let escaped = escape(scalars[index]) {
        output += Substring(scalars[run..<index])
        output += escaped
        run = next
      }
      index = next
    }
    output += Substring(scalars[run..<index])
    output += "\""
  }

  /// How `scalar` is written inside a JSON string, nil when as it is.
  private static func escape(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "\"": return "\\\""
    case "\\": return "\\\\"
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case let control where TerminalText.isUnsafe(control):
      let hex = String(control.value, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: return nil
    }
  }
}

extension OrderedJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: OrderedJSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, OrderedJSON)...) { self = .object(elements) }
}
