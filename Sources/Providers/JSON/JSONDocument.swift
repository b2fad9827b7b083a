import AuthCore

/// A parsed JSON file: its value, and where in the file each member and element starts, so a
/// configuration error can name the line of the offending field rather than only the file.
public struct JSONDocument: Sendable {
  /// The whole value.
  public let root: JSONWireValue
  /// Start of every value, by path: `""` for the root, `"flows"`, `"flows[1]"`,
  /// `"identity.endpoint"`.
  public let positions: [String: SourcePosition]

  /// Where the value at `path` starts, or the start of the nearest enclosing value that has a
  /// position.
  public func position(of path: String) -> SourcePosition {
    var candidate = path
    while true {
      if let position = positions[candidate] { return position }
      guard let cut = candidate.lastIndex(where: { $0 == "." || $0 == "[" }) else {
        return positions[""] ?? SourcePosition(line: 1, column: 1)
      }
      candidate = String(candidate[..<cut])
    }
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
