/// A cell position: `row` 0 is the top line, `column` 0 the leftmost cell.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// The line, from 0 at the top.
  public var row: Int
  /// The cell within the line, from 0 at the left.
  public var column: Int

  /// The cell at `row`, `column`.
  public init(row: Int, column: Int) {
    self.row = row
    self.column = column
  }

  /// The top-left cell.
  public static let origin = Point(row: 0, column: 0)

  /// The point moved by `rows` down and `columns` right.
  public func offset(rows: Int = 0, columns: Int = 0) -> Point {
    Point(row: row + rows, column: column + columns)
  }

  public var description: String { "(\(row), \(column))" }
}
