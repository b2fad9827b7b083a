/// A JSON value (RFC 8259) that remembers where it stood in its file, so a configuration error
/// can name the line of the offending field rather than only the file.
public indirect enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([Located<JSONValue>])
  /// Members in file order; a duplicate name is a parse error, so names are unique.
  case object([(key: Located<String>, value: Located<JSONValue>)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a.map(\.value) == b.map(\.value)
    case (.object(let a), .object(let b)):
      return a.count == b.count
        && zip(a, b).allSatisfy { $0.key.value == $1.key.value && $0.value.value == $1.value.value }
    default: return false
    }
  }

  /// The member called `name` of an object, if this is one and has it.
  public subscript(member name: String) -> Located<JSONValue>? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key.value == name }?.value
  }

  /// A word for the kind of value, for error messages ("a string", "an array").
  public var kindDescription: String {
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

/// A value and the position in the source where it starts.
public struct Located<Value: Sendable & Equatable>: Sendable, Equatable {
  /// The value.
  public let value: Value
  /// Where it starts.
  public let position: SourcePosition

  public init(_ value: Value, at position: SourcePosition) {
    self.value = value
    self.position = position
  }
}

/// A 1-based line and column in a text file.
public struct SourcePosition: Sendable, Equatable, Comparable, CustomStringConvertible {
  /// Line number, starting at 1.
  public let line: Int
  /// Column number in characters, starting at 1.
  public let column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public var description: String { "line \(line), column \(column)" }

  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }
}
