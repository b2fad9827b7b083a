import Terminal

/// The help screen: every key of every screen, from the action table with the user's keys.
enum HelpView {
  static func draw(
    _ state: AppState, first: KeyContext, scroll: Int, body: Rect, in buffer: inout ScreenBuffer
  ) {
    buffer.fill(body, role: .help)
    Chrome.titleBar("Help", detail: "keys can be changed in config.json", in: &buffer)
    let lines = HelpContent.lines(keys: state.keys, first: first)
    let area = Rect(row: body.top, column: 2, rows: body.size.rows, columns: body.size.columns - 4)
    let keyWidth = 16
    for (offset, line) in lines.dropFirst(scroll).prefix(area.size.rows).enumerated() {
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
    if lines.count > area.size.rows {
      let shown = "\(min(lines.count, scroll + area.size.rows))/\(lines.count)"
      buffer.write(
        shown, at: Point(row: area.bottom - 1, column: body.right - shown.count - 1),
        role: .scrollbar)
    }
  }
}
