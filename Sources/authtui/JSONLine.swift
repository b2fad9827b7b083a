import Foundation

/// One JSON object on one line, members in the order given: the event lines of
/// `login --json`, which scripts read one at a time, and the rows of `list --json` in the order
/// DESIGN.md lists their members (Foundation's encoder does not keep an order on Linux).
struct JSONLine {
  /// A member's value.
  enum Value {
    case string(String)
    case number(Int)
    case bool(Bool)
    case strings([String])
    case null
  }

  private var members: [(String, Value)] = []

  init(_ members: [(String, Value)]) {
    self.members = members
  }

  var text: String {
    "{" + members.map { "\(Self.quoted($0.0)):\(Self.encode($0.1))" }.joined(separator: ",") + "}"
  }

  private static func encode(_ value: Value) -> String {
    switch value {
    case .string(let text): return quoted(text)
    case .number(let number): return String(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .strings(let texts): return "[" + texts.map(quoted).joined(separator: ",") + "]"
    case .null: return "null"
    }
  }

  /// `text` as a JSON string literal (RFC 8259 §7).
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          result += String(format: "\\u%04x", scalar.value)
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
