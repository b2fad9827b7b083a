import Spelling

/// A table for the terminal: columns padded by terminal columns, as the UI measures (a CJK or
/// emoji label is two per character), so they line up whatever the labels are.
enum TextTable {
  /// `header` and `rows`, two spaces between columns, no trailing spaces. Each cell is
  /// cleaned first (`TerminalText`: a provider's name may hold an escape sequence), so that
  /// the columns are measured as they will show.
  static func render(header: [String], rows: [[String]]) -> String {
    let rows = rows.map { $0.map { TerminalText.cleaned($0) } }
    let widths = header.indices.map { column in
      ([header[column]] + rows.map { $0[column] }).map { DisplayWidth.of($0) }.max() ?? 0
    }
    return ([header] + rows).map { values in
      zip(values, widths).map { value, width in
        value + String(repeating: " ", count: max(0, width - DisplayWidth.of(value)))
      }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }.joined(separator: "\n")
  }
}
