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

  /// Every section, `first` on top, then the others in table order.
  static func lines(keys: KeyBindings, first: KeyContext) -> [Line] {
    var lines: [Line] = []
    let order = [first] + KeyContext.allCases.filter { $0 != first && $0 != .help }
    for context in order {
      let rows = ActionTable.rows.filter { $0.contexts.contains(context) }
      var section: [Line] = []
      for row in rows {
        let bound = keys.keys(for: row.command, in: context)
        guard !bound.isEmpty else { continue }
        section.append(
          .binding(keys: bound.map(\.displayName).joined(separator: " "), help: row.help))
      }
      guard !section.isEmpty else { continue }
      if !lines.isEmpty { lines.append(.blank) }
      lines.append(.section(context.title))
      lines += section
    }
    return lines
  }
}
