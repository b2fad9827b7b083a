import Terminal

/// The help screen's lines, generated from the action table and the key map in use.
enum HelpContent {
  /// One line of the help screen.
  enum Line: Equatable {
    /// A section heading (a screen).
    case section(String)
    /// Keys and what they do.
    case binding(keys: String, help: String)
    /// A blank line between sections.
    case blank
  }

  /// The columns left for what a key does on a screen `columns` wide (the help view's layout:
  /// two-column margins, then a 16-column key column).
  static func helpWidth(screenColumns columns: Int) -> Int { max(1, columns - 4 - 16) }

  /// Every section, `first` on top, then the others in table order; what a key does is
  /// wrapped to `width` columns (the lines after the first have no keys), never cut.
  static func lines(keys: KeyBindings, first: KeyContext, width: Int) -> [Line] {
    var lines: [Line] = []
    let order = [first] + KeyContext.allCases.filter { $0 != first && $0 != .help }
    for context in order {
      let rows = ActionTable.rows.filter { $0.contexts.contains(context) }
      var section: [Line] = []
      for row in rows {
        let bound = keys.keys(for: row.command, in: context)
        guard !bound.isEmpty else { continue }
        let wrapped = TextWrap.lines(row.help, width: width)
        for (index, help) in wrapped.enumerated() {
          section.append(
            .binding(
              keys: index == 0 ? bound.map(\.displayName).joined(separator: " ") : "", help: help))
        }
      }
      guard !section.isEmpty else { continue }
      if !lines.isEmpty { lines.append(.blank) }
      lines.append(.section(context.title))
      lines += section
    }
    return lines
  }
}
