import Spelling

/// A frame of terminal cells that views draw into; a `Screen` turns it into terminal output.
///
/// Every write keeps the wide-character rules: a wide grapheme takes its cell and a
/// continuation cell, it is never split across the right edge or a `maxWidth` limit (the cell
/// left over is blanked), and overwriting half of one blanks the other half. Text is clipped by
/// display width, so CJK and emoji labels line up with ASCII ones.
public struct ScreenBuffer: Hashable, Sendable {
  /// What happens to text longer than the room it is given.
  public enum Truncation: Sendable {
    /// Cut at the last grapheme that fits.
    case clip
    /// Cut earlier and end with `…`, so the reader sees that something is missing.
    case ellipsis
  }

  /// The buffer's extent; fixed for its lifetime (views build a new buffer after a resize).
  public let size: Size
  /// Where the terminal cursor should show (an input field's caret), or nil to hide it.
  public var cursor: Point?
  private var cells: [Cell]

  /// An empty buffer of `size` whose cells are blank in `role`.
  public init(size: Size, role: Role = .default) {
    self.size = size
    self.cells = Array(repeating: .blank(role), count: size.rows * size.columns)
  }

  /// The whole buffer as a region.
  public var bounds: Rect { Rect(origin: .origin, size: size) }

  /// The cell at `point`, which must lie inside `bounds`.
  public subscript(point: Point) -> Cell {
    precondition(bounds.contains(point), "\(point) is outside a \(size) buffer")
    return cells[point.row * size.columns + point.column]
  }

  /// The cell at `row`, `column`, which must lie inside `bounds`.
  public subscript(row: Int, column: Int) -> Cell {
    self[Point(row: row, column: column)]
  }

  /// The cells of one row, left to right.
  public func cells(inRow row: Int) -> ArraySlice<Cell> {
    precondition(row >= 0 && row < size.rows, "row \(row) is outside a \(size) buffer")
    return cells[row * size.columns..<(row + 1) * size.columns]
  }

  /// Writes `text` on one line starting at `point`, in `role`, and returns the column after
  /// the last cell written.
  ///
  /// At most `maxWidth` columns are used (and never past the right edge). Text that does not
  /// fit is cut as `truncation` says; then every column of the room is written, so the region
  /// looks the same whatever the text's width. Control and direction characters show as U+FFFD
  /// and a tab as a space; other lone zero-width characters are dropped. Rows outside the
  /// buffer are ignored.
  @discardableResult
  public mutating func write(
    _ text: some StringProtocol, at point: Point, role: Role, maxWidth: Int? = nil,
    truncation: Truncation = .clip
  ) -> Int {
    guard point.row >= 0, point.row < size.rows else { return point.column }
    let roomEnd = min(size.columns, point.column + max(0, maxWidth ?? size.columns))
    guard point.column < roomEnd else { return point.column }
    var graphemes: [(grapheme: Character, width: Int)] = []
    var total = 0
    for character in text {
      guard let shown = Self.displayable(character) else { continue }
      let width = DisplayWidth.of(shown)
      graphemes.append((shown, width))
      total += width
    }
    let overflows = point.column + total > roomEnd
    let ellipsis = overflows && truncation == .ellipsis
    let textEnd = ellipsis ? roomEnd - 1 : roomEnd
    var column = point.column
    for (grapheme, width) in graphemes {
      if column + width > textEnd { break }
      if column >= 0 {
        put(grapheme, width: width, row: point.row, column: column, role: role)
      } else if column + width > 0 {
        // A wide grapheme straddling the left edge: only its right half would show.
        put(" ", width: 1, row: point.row, column: 0, role: role)
      }
      column += width
    }
    guard overflows else { return column }
    if ellipsis, column >= 0 {
      put("…", width: 1, row: point.row, column: column, role: role)
      column += 1
    }
    while column < roomEnd {
      if column >= 0 { put(" ", width: 1, row: point.row, column: column, role: role) }
      column += 1
    }
    return column
  }

  /// Fills every cell of `rect` (clipped to the buffer) with `grapheme` in `role`.
  public mutating func fill(_ rect: Rect, with grapheme: Character = " ", role: Role) {
    let region = rect.intersection(bounds)
    guard !region.isEmpty else { return }
    let shown = Self.displayable(grapheme) ?? " "
    let width = DisplayWidth.of(shown)
    for row in region.top..<region.bottom {
      var column = region.left
      while column < region.right {
        if column + width > region.right {
          put(" ", width: 1, row: row, column: column, role: role)
          column += 1
        } else {
          put(shown, width: width, row: row, column: column, role: role)
          column += width
        }
      }
    }
  }

  /// Blanks the whole buffer in `role` and hides the cursor.
  public mutating func clear(role: Role = .default) {
    cells = Array(repeating: .blank(role), count: size.rows * size.columns)
    cursor = nil
  }

  /// Gives every cell of `rect` (clipped to the buffer) `role`, keeping its text: how a list
  /// highlights the selected row after drawing it.
  public mutating func restyle(_ rect: Rect, role: Role) {
    let region = rect.intersection(bounds)
    guard !region.isEmpty else { return }
    for row in region.top..<region.bottom {
      for column in region.left..<region.right {
        cells[row * size.columns + column].role = role
      }
    }
  }

  /// Draws a one-cell frame with light box-drawing lines along the edge of `rect`.
  public mutating func drawBorder(_ rect: Rect, role: Role) {
    guard rect.size.rows >= 2, rect.size.columns >= 2 else { return }
    let inner = rect.size.columns - 2
    let horizontal = String(repeating: "─", count: inner)
    write("┌" + horizontal + "┐", at: rect.origin, role: role)
    for row in rect.top + 1..<rect.bottom - 1 {
      write("│", at: Point(row: row, column: rect.left), role: role)
      write("│", at: Point(row: row, column: rect.right - 1), role: role)
    }
    write("└" + horizontal + "┘", at: Point(row: rect.bottom - 1, column: rect.left), role: role)
  }

  /// Stores one grapheme of `width` columns (the caller checked that it fits) and repairs any
  /// wide grapheme it cuts in half.
  private mutating func put(_ grapheme: Character, width: Int, row: Int, column: Int, role: Role) {
    let base = row * size.columns
    if cells[base + column].isContinuation, column > 0 {
      cells[base + column - 1] = .blank(cells[base + column - 1].role)
    }
    let after = column + width
    if after < size.columns, cells[base + after].isContinuation {
      cells[base + after] = .blank(cells[base + after].role)
    }
    cells[base + column] = Cell(grapheme, role: role)
    if width == 2 {
      cells[base + column + 1] = .continuation(role)
    }
  }

  /// The grapheme to store for `character`: U+FFFD for one holding a control or direction
  /// character (`TerminalText.isUnsafe`: escape sequences from a provider's data must never
  /// reach the terminal, nor reorder what the screen shows), a space for a tab, nil for a
  /// grapheme that takes no column.
  static func displayable(_ character: Character) -> Character? {
    if character == "\t" { return " " }
    if character.unicodeScalars.contains(where: TerminalText.isUnsafe) {
      return "\u{FFFD}"
    }
    return DisplayWidth.of(character) == 0 ? nil : character
  }
}
