import Spelling

/// One terminal cell of a `ScreenBuffer`: a grapheme and the role it is drawn with.
///
/// A wide grapheme (CJK, most emoji) covers two cells: its own, and a continuation cell to its
/// right that holds nothing to draw but keeps the same role.
public struct Cell: Hashable, Sendable {
  /// The user-perceived character shown in this cell (a space for an empty cell; also a space
  /// in a continuation cell).
  public private(set) var grapheme: Character
  /// How the cell looks, resolved through the theme at render time.
  public var role: Role
  /// True for the right half of a wide grapheme that starts in the cell to the left.
  public private(set) var isContinuation: Bool

  /// A cell showing `grapheme` (which must be one column wide or the first of two).
  public init(_ grapheme: Character, role: Role) {
    self.grapheme = grapheme
    self.role = role
    self.isContinuation = false
  }

  /// An empty cell in `role`.
  public static func blank(_ role: Role = .default) -> Cell { Cell(" ", role: role) }

  /// The right half of a wide grapheme drawn in `role`.
  static func continuation(_ role: Role) -> Cell {
    var cell = Cell(" ", role: role)
    cell.isContinuation = true
    return cell
  }

  /// Columns the cell's grapheme covers: 0 for a continuation, else 1 or 2.
  public var width: Int { isContinuation ? 0 : DisplayWidth.of(grapheme) }
}
