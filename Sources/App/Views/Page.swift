import Spelling
import Terminal
import Theme

/// Writes lines of a screen region top to bottom, wrapping text and stopping at the bottom:
/// how the details, sign-in, help and dialog views lay out their text.
struct Page {
  /// The region written into.
  let rect: Rect
  /// The next row to write.
  private(set) var row: Int

  init(_ rect: Rect) {
    self.rect = rect
    row = rect.top
  }

  /// Rows left below the next one.
  var remaining: Int { max(0, rect.bottom - row) }

  /// True when no row is left.
  var isFull: Bool { row >= rect.bottom }

  /// An empty line.
  mutating func skip(_ count: Int = 1) {
    row += count
  }

  /// One line of pieces in their roles, cut at the right edge; returns the column after it.
  @discardableResult
  mutating func line(_ pieces: [(String, Role)], indent: Int = 0, in buffer: inout ScreenBuffer)
    -> Int
  {
    guard !isFull else { return rect.left }
    var column = rect.left + indent
    for (text, role) in pieces {
      let room = rect.right - column
      guard room > 0 else { break }
      column = buffer.write(
        text, at: Point(row: row, column: column), role: role, maxWidth: room,
        truncation: .ellipsis)
    }
    row += 1
    return column
  }

  /// `text` wrapped to the region's width, each line in `role`; at most `limit` lines, the
  /// last ending in `…` when text was left out.
  mutating func wrapped(
    _ text: String, role: Role, indent: Int = 0, limit: Int = .max, in buffer: inout ScreenBuffer
  ) {
    let width = rect.size.columns - indent
    for text in TextWrap.lines(text, width: width, limit: limit) {
      line([(text, role)], indent: indent, in: &buffer)
    }
  }

  /// A label in a fixed-width column, then a value wrapped beside it.
  mutating func field(
    _ label: String, _ value: String, labelWidth: Int, role: Role = .details,
    in buffer: inout ScreenBuffer
  ) {
    guard !isFull else { return }
    buffer.write(
      label, at: Point(row: row, column: rect.left), role: .detailsLabel, maxWidth: labelWidth)
    var inner = Page(
      Rect(
        row: row, column: rect.left + labelWidth, rows: remaining,
        columns: max(1, rect.size.columns - labelWidth)))
    inner.wrapped(value, role: role, in: &buffer)
    row = inner.row
  }
}
