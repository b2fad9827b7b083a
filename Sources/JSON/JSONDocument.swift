/// A parsed JSON file: its value, and where in the file each member and element starts, so a
/// configuration error can name the line of the offending field rather than only the file.
public struct JSONDocument: Sendable {
  /// The whole value.
  public let root: JSONValue
  /// Where each value starts, in the shape of `root`.
  let positions: JSONPositions

  init(root: JSONValue, positions: JSONPositions) {
    self.root = root
    self.positions = positions
  }

  /// Where the value at `path` starts (`""` for the root, `"flows"`, `"flows[1]"`,
  /// `"identity.endpoint"`), or the start of the nearest enclosing value that exists.
  ///
  /// A member whose name itself holds a `.` or `[` is found under its whole name first.
  public func position(of path: String) -> SourcePosition {
    var node = positions
    var rest = Substring(path)
    while !rest.isEmpty {
      if rest.first == "[" {
        guard let close = rest.firstIndex(of: "]"),
          let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
          node.elements.indices.contains(index)
        else { break }
        node = node.elements[index]
        rest = rest[rest.index(after: close)...]
      } else if let whole = node.members[String(rest)] {
        return whole.start
      } else {
        let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
        guard let child = node.members[String(rest[..<end])] else { break }
        node = child
        rest = rest[end...]
      }
      if rest.first == "." { rest = rest.dropFirst() }
    }
    return node.start
  }
}

/// The start of a value and of each of its members or elements. Kept as a tree, not as a map
/// from dotted paths, so a long member name is stored once rather than once per value below it
/// (which made a 256 KiB file take gigabytes).
struct JSONPositions: Sendable {
  var start: SourcePosition
  var members: [String: JSONPositions] = [:]
  var elements: [JSONPositions] = []
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
