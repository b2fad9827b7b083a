/// The extent of a screen or a region, in terminal cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// Number of lines.
  public var rows: Int
  /// Number of cells per line.
  public var columns: Int

  /// A size of `rows` lines by `columns` cells; negative values count as zero.
  public init(rows: Int, columns: Int) {
    self.rows = max(0, rows)
    self.columns = max(0, columns)
  }

  /// No cells at all.
  public static let zero = Size(rows: 0, columns: 0)

  /// True when `other` fits inside this size.
  public func contains(_ other: Size) -> Bool {
    other.rows <= rows && other.columns <= columns
  }

  /// `80×24`: columns first, as terminal sizes are usually written.
  public var description: String { "\(columns)×\(rows)" }
}
