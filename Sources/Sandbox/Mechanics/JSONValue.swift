/// A JSON value built in code and written with its object members in the order given, so an
/// answer reads like the provider document it imitates (`access_token` first, and so on).
enum JSONValue: Sendable {
  case string(String)
  case int(Int)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// An object with only the members whose value is present.
  static func object(dropping members: [(String, JSONValue?)]) -> JSONValue {
    .object(members.compactMap { name, value in value.map { (name, $0) } })
  }

  /// The compact JSON text (RFC 8259), no insignificant whitespace.
  var text: String {
    var output = ""
    write(to: &output)
    return output
  }

  private func write(to output: inout String) {
    switch self {
    case .string(let value):
      Self.writeString(value, to: &output)
    case .int(let value):
      output += String(value)
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

  /// Escapes what RFC 8259 §7 requires: the quote, the backslash and control characters.
  static func writeString(_ value: String, to output: inout String) {
    output += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default:
        output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  init(stringLiteral value: String) { self = .string(value) }
  init(integerLiteral value: Int) { self = .int(value) }
  init(booleanLiteral value: Bool) { self = .bool(value) }
  init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}
