import Spelling
import Terminal
import Theme

/// One labelled text field on a row of a form: the label, the field's background, what was
/// typed (its end when it is longer than the field) or a placeholder.
enum InputLine {
  /// Draws `field` at `row`, its label from `column` and the field `labelWidth` columns after
  /// it, `width` columns wide; returns where the cursor goes when the field has the focus.
  @discardableResult
  static func draw(
    _ label: String, _ field: TextField, placeholder: String, row: Int, column: Int,
    labelWidth: Int, width: Int, in buffer: inout ScreenBuffer
  ) -> Point {
    buffer.write(
      label, at: Point(row: row, column: column), role: .inputLabel, maxWidth: labelWidth - 1)
    let start = column + labelWidth
    buffer.fill(Rect(row: row, column: start, rows: 1, columns: width), role: .input)
    var shown = field.shown
    while DisplayWidth.of(shown) > width - 1 { shown.removeFirst() }
    let end = buffer.write(shown, at: Point(row: row, column: start), role: .input)
    if field.isEmpty {
      buffer.write(
        placeholder, at: Point(row: row, column: start), role: .inputPlaceholder,
        maxWidth: width - 1, truncation: .ellipsis)
    }
    return Point(row: row, column: end)
  }
}
