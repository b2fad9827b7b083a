/// A rectangular region of cells: a view's frame, a dialog, a region to fill.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The top-left cell.
  public var origin: Point
  /// The extent from `origin`.
  public var size: Size

  /// The region starting at `origin` with `size`.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// The region of `rows` lines and `columns` cells whose top-left cell is `row`, `column`.
  public init(row: Int, column: Int, rows: Int, columns: Int) {
    self.init(origin: Point(row: row, column: column), size: Size(rows: rows, columns: columns))
  }

  /// The first row inside the region.
  public var top: Int { origin.row }
  /// The first column inside the region.
  public var left: Int { origin.column }
  /// The first row below the region.
  public var bottom: Int { origin.row + size.rows }
  /// The first column right of the region.
  public var right: Int { origin.column + size.columns }
  /// True when the region holds no cell.
  public var isEmpty: Bool { size.rows == 0 || size.columns == 0 }

  /// True when `point` lies inside the region.
  public func contains(_ point: Point) -> Bool {
    point.row >= top && point.row < bottom && point.column >= left && point.column < right
  }

  /// The cells both regions share (empty, at this region's origin, when they do not meet).
  public func intersection(_ other: Rect) -> Rect {
    let top = max(self.top, other.top)
    let left = max(self.left, other.left)
    let bottom = min(self.bottom, other.bottom)
    let right = min(self.right, other.right)
    guard bottom > top, right > left else { return Rect(origin: origin, size: .zero) }
    return Rect(row: top, column: left, rows: bottom - top, columns: right - left)
  }

  /// The region shrunk by `amount` cells on every side (a box's inside).
  public func inset(by amount: Int) -> Rect {
    Rect(
      row: top + amount, column: left + amount, rows: size.rows - 2 * amount,
      columns: size.columns - 2 * amount)
  }

  /// A region of `size` centred in this one (clipped to it).
  public func centered(_ size: Size) -> Rect {
    let rows = min(size.rows, self.size.rows)
    let columns = min(size.columns, self.size.columns)
    return Rect(
      row: top + (self.size.rows - rows) / 2, column: left + (self.size.columns - columns) / 2,
      rows: rows, columns: columns)
  }

  public var description: String { "\(size) at \(origin)" }
}
