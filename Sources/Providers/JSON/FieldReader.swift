import AuthCore
import Foundation
import JSON
import Spelling

/// Walks one configuration document field by field, collecting problems instead of stopping at
/// the first, each with the line of the field.
struct FieldReader {
  let document: JSONDocument
  let file: String
  private var found: [ProviderProblem] = []
  /// Every path a typed reader looked up, in the order first asked: the fields this reader
  /// knows (`knownFields(under:)`), so a document's field list is the reading code itself.
  private var consulted: [String] = []
  private var consultedSet: Set<String> = []

  init(document: JSONDocument, file: String) {
    self.document = document
    self.file = file
  }

  /// The problems found so far, in file order.
  var problems: [ProviderProblem] {
    found.enumerated().sorted { lhs, rhs in
      let left = lhs.element.position ?? SourcePosition(line: 0, column: 0)
      let right = rhs.element.position ?? SourcePosition(line: 0, column: 0)
      return left == right ? lhs.offset < rhs.offset : left < right
    }.map(\.element)
  }

  static func insecureMessage(_ value: String) -> String {
    "\(MessageQuoting.quoted(value)) is not allowed: endpoints must use https (plain http "
      + "only on 127.0.0.1 or localhost, this machine); change it to https://…"
  }

  // MARK: Typed field readers

  /// How many unknown fields of one object are reported by name; the rest are counted.
  static let unknownFieldsNamed = 5

  /// Reports the members of `members` not in `known`, each once with the closest known name:
  /// the first `unknownFieldsNamed` in file order by name, then how many more there are.
  /// `prefix` is the object's path (`identity.`); `fix` ends each message.
  mutating func reportUnknownFields(
    of members: [String: JSONValue], known: [String], prefix: String = "", fix: String
  ) {
    let knownSet = Set(known)
    let unknown = members.keys.filter { !knownSet.contains($0) }
      .map { (key: $0, position: document.position(of: prefix + $0)) }
      .sorted { ($0.position, $0.key) < ($1.position, $1.key) }
    for (key, position) in unknown.prefix(Self.unknownFieldsNamed) {
      let close = SpellingSuggestion.closest(to: key, among: known, maximumDistance: 3)
      let hint = close.map { " (did you mean \"\($0)\"?)" } ?? ""
      found.append(
        ProviderProblem(
          file: file, position: position,
          field: prefix + MessageQuoting.shown(key), message: "unknown field\(hint); \(fix)"))
    }
    if unknown.count > Self.unknownFieldsNamed {
      let more = unknown.count - Self.unknownFieldsNamed
      found.append(
        ProviderProblem(
          file: file, position: unknown[Self.unknownFieldsNamed].position, field: nil,
          message: "\(more) more unknown field\(more == 1 ? "" : "s") after these; \(fix)"))
    }
  }

  /// The names under `prefix` (`""` for the top level, `identity.` for a member object) that
  /// a typed reader has looked up so far, in the order first asked.
  func knownFields(under prefix: String = "") -> [String] {
    var names: [String] = []
    for path in consulted where path.hasPrefix(prefix) {
      let name = String(path.dropFirst(prefix.count).prefix { $0 != "." })
      if !name.isEmpty && !names.contains(name) { names.append(name) }
    }
    return names
  }

  /// `value(field)`, with `field` noted as one this reader knows.
  mutating func lookUp(_ field: String) -> JSONValue? {
    if consultedSet.insert(field).inserted { consulted.append(field) }
    return value(field)
  }

  /// The value at a dotted path (`theme`, `keys.refresh`).
  func value(_ field: String) -> JSONValue? {
    var current = document.root
    for part in field.split(separator: ".") {
      guard case .object(let members) = current, let next = members[String(part)] else {
        return nil
      }
      current = next
    }
    return current
  }

  /// Records a problem of `field` (a dotted path; its `[n]` indices are dropped from what is
  /// shown, and a member name from the file is shown escaped and cut short).
  mutating func report(_ field: String?, _ message: String) {
    let shown = field.map {
      MessageQuoting.shown($0.split(separator: "[").first.map(String.init) ?? $0, limit: 128)
    }
    found.append(
      ProviderProblem(
        file: file, position: document.position(of: field ?? ""), field: shown, message: message))
  }

  mutating func typeMismatch(_ field: String, expected: String, found: JSONValue) {
    report(field, "must be \(expected), not \(found.kindDescription)")
  }

  mutating func string(_ field: String) -> String? {
    guard let value = lookUp(field) else { return nil }
    guard case .string(let text) = value else {
      typeMismatch(field, expected: "a string in double quotes", found: value)
      return nil
    }
    return text
  }

  mutating func bool(_ field: String) -> Bool? {
    guard let value = lookUp(field) else { return nil }
    guard case .bool(let flag) = value else {
      typeMismatch(field, expected: "true or false", found: value)
      return nil
    }
    return flag
  }

  mutating func integer(_ field: String, in range: ClosedRange<Int>) -> Int? {
    guard let value = lookUp(field) else { return nil }
    guard case .number(let number) = value, number.rounded() == number,
      let whole = Int(exactly: number)
    else {
      typeMismatch(field, expected: "a whole number", found: value)
      return nil
    }
    guard range.contains(whole) else {
      report(field, "must be between \(range.lowerBound) and \(range.upperBound), not \(whole)")
      return nil
    }
    return whole
  }

  /// A duration in whole seconds within `range`: a number of seconds, or a string as the
  /// command line's DURATION is written (`"90m"`, `"8h"`, `"600"`; `DurationSpelling`).
  mutating func duration(_ field: String, in range: ClosedRange<Int>) -> Int? {
    guard let value = lookUp(field) else { return nil }
    let seconds: Int?
    switch value {
    case .number(let number):
      seconds = number.rounded() == number ? Int(exactly: number) : nil
    case .string(let text):
      seconds = DurationSpelling.seconds(text)
    default:
      typeMismatch(
        field, expected: DurationSpelling.accepted(from: range.lowerBound, to: range.upperBound),
        found: value)
      return nil
    }
    guard let seconds, range.contains(seconds) else {
      report(
        field,
        "must be " + DurationSpelling.accepted(from: range.lowerBound, to: range.upperBound)
          + ", not " + Self.shown(value))
      return nil
    }
    return seconds
  }

  /// `value` as a message shows what the file holds: a number as written, a string quoted.
  private static func shown(_ value: JSONValue) -> String {
    switch value {
    case .number(let number):
      return number.rounded() == number && abs(number) < 1e15
        ? String(Int(number)) : String(number)
    case .string(let text): return MessageQuoting.quoted(text)
    default: return value.kindDescription
    }
  }

  mutating func stringList(_ field: String, allowingSingleString: Bool = false) -> [String]? {
    guard let value = lookUp(field) else { return nil }
    if allowingSingleString, case .string(let single) = value { return [single] }
    guard case .array(let elements) = value else {
      typeMismatch(field, expected: "an array of strings", found: value)
      return nil
    }
    var result: [String] = []
    for (index, element) in elements.enumerated() {
      guard case .string(let text) = element else {
        typeMismatch("\(field)[\(index)]", expected: "a string", found: element)
        continue
      }
      result.append(text)
    }
    return result
  }

  mutating func stringMap(_ field: String) -> [String: String]? {
    guard let value = lookUp(field) else { return nil }
    guard case .object(let members) = value else {
      typeMismatch(field, expected: "an object of string values", found: value)
      return nil
    }
    var result: [String: String] = [:]
    for (key, member) in members.sorted(by: { $0.key < $1.key }) {
      guard case .string(let text) = member else {
        typeMismatch("\(field).\(key)", expected: "a string", found: member)
        continue
      }
      result[key] = text
    }
    return result
  }

  mutating func choice<Choice: RawRepresentable>(
    _ field: String, from choices: [Choice]
  ) -> Choice? where Choice.RawValue == String {
    guard let text = string(field) else { return nil }
    if let chosen = Choice(rawValue: text) { return chosen }
    let options = choices.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
    report(field, "must be \(options), not \(MessageQuoting.quoted(text))")
    return nil
  }

  mutating func endpoint(_ field: String) -> URL? {
    guard let text = string(field) else { return nil }
    guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
      report(
        field,
        "\(MessageQuoting.quoted(text)) is not an absolute URL; write it as https://host/path")
      return nil
    }
    guard ProviderConfiguration.isAllowedEndpoint(url) else {
      report(field, Self.insecureMessage(text))
      return nil
    }
    return url
  }
}

extension JSONValue {
  /// A word for the kind of value, for error messages.
  var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "true or false"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
