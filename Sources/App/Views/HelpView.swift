import Terminal

/// The help screen: every key of every screen, from the action table with the user's keys.
enum HelpView {
  static func draw(
    _ state: AppState, first: KeyContext, scroll: Int, body: Rect, in buffer: inout ScreenBuffer
  ) {
    buffer.fill(body, role: .help)
    // The sentence needs 52 columns beside the title; a narrower screen gets the short form.
    let detail =
      body.size.columns >= 52 ? "keys can be changed in config.json" : "keys: config.json"
    Chrome.titleBar("Help", detail: detail, in: &buffer)
    let lines = HelpContent.lines(
      keys: state.keys, first: first,
      width: HelpContent.helpWidth(screenColumns: body.size.columns))
    let area = Rect(row: body.top, column: 2, rows: body.size.rows, columns: body.size.columns - 4)
    let keyWidth = 16
    // When the lines do not all fit, the last row is the scroll position's alone, so it never
    // covers a line of help (the reducer scrolls by the same `size.rows - 4` rows).
    let scrolls = lines.count > area.size.rows
    let visible = scrolls ? max(0, area.size.rows - 1) : area.size.rows
    for (offset, line) in lines.dropFirst(scroll).prefix(visible).enumerated() {
      let row = area.top + offset
      switch line {
      case .section(let title):
        buffer.write(title, at: Point(row: row, column: area.left), role: .helpSection)
      case .binding(let keys, let help):
        buffer.write(
          keys, at: Point(row: row, column: area.left + 2), role: .helpKey, maxWidth: keyWidth - 3)
        buffer.write(
          help, at: Point(row: row, column: area.left + keyWidth), role: .help,
          maxWidth: area.size.columns - keyWidth, truncation: .ellipsis)
      case .blank:
        break
      }
    }
    if scrolls {
      // What is left out above and below, then the position (`↓ 12 more  10/22`).
      let below = max(0, lines.count - scroll - visible)
      let position = "\(min(lines.count, scroll + visible))/\(lines.count)"
      let row = Rect(
        row: area.bottom - 1, column: area.left, rows: 1,
        columns: body.right - 1 - position.count - 2 - area.left)
      ScrollHint.draw(above: scroll, below: below, row: row.top, area: row, in: &buffer)
      buffer.write(
        position, at: Point(row: area.bottom - 1, column: body.right - position.count - 1),
        role: .scrollbar)
    }
  }
}
