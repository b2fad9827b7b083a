import Spelling
import Terminal
import Theme

/// What a list that does not fit leaves out, said on a row of its own or beside a heading
/// (`↑ 2 more · ↓ 3 more`), so a small terminal never hides entries silently.
enum ScrollHint {
  /// The words for `above` and `below` entries out of view; nil when everything shows.
  static func text(above: Int, below: Int) -> String? {
    var parts: [String] = []
    if above > 0 { parts.append("↑ \(above) more") }
    if below > 0 { parts.append("↓ \(below) more") }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// Writes the hint at the right end of `row` in `area` (over what was there); returns the
  /// column where it starts (`area.right` when nothing was written).
  @discardableResult
  static func draw(
    above: Int, below: Int, row: Int, area: Rect, in buffer: inout ScreenBuffer
  ) -> Int {
    guard let text = text(above: above, below: below) else { return area.right }
    let width = min(DisplayWidth.of(text), area.size.columns)
    let column = area.right - width
    buffer.write(
      text, at: Point(row: row, column: column), role: .scrollbar, maxWidth: width,
      truncation: .ellipsis)
    return column
  }
}
