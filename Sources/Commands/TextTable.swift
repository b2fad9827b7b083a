import Foundation
import Spelling

/// A table for the terminal: columns padded by terminal columns, as the UI measures (a CJK or
/// emoji label is two per character), so they line up whatever the labels are.
enum TextTable {
  /// `header` and `rows`, two spaces between columns, no trailing spaces. Each cell is
  /// cleaned first (`TerminalText`: a provider's name may hold an escape sequence), so that
  /// the columns are measured as they will show.
  ///
  /// Each cell is measured once, and printable ASCII (what account names and dates are) by
  /// its length: `list` prints a row per account, and a vault may hold thousands.
  static func render(header: [String], rows: [[String]]) -> String {
    let lines = [header] + rows.map { $0.map(cleaned) }
    let cellWidths = lines.map { $0.map(width(of:)) }
    let widths = header.indices.map { column in cellWidths.map { $0[column] }.max() ?? 0 }
    var text = ""
    text.reserveCapacity(lines.count * (widths.reduce(0, +) + 2 * widths.count))
    for (number, values) in lines.enumerated() {
      var line = ""
      let columns = min(values.count, widths.count)
      for column in 0..<columns {
        if column > 0 { line += "  " }
        line += values[column]
        // The last column's padding would be trimmed anyway.
        let padding = column == columns - 1 ? 0 : widths[column] - cellWidths[number][column]
        if padding > 0 { line += String(repeating: " ", count: padding) }
      }
      if number > 0 { text += "\n" }
      text += trimmed(line)
    }
    return text
  }

  /// `TerminalText.cleaned(value)`, which printable ASCII is already.
  private static func cleaned(_ value: String) -> String {
    isPrintableASCII(value) ? value : TerminalText.cleaned(value)
  }

  /// Terminal columns of a cell: one a character for printable ASCII.
  private static func width(of value: String) -> Int {
    isPrintableASCII(value) ? value.utf8.count : DisplayWidth.of(value)
  }

  private static func isPrintableASCII(_ value: String) -> Bool {
    value.utf8.allSatisfy { (UInt8(ascii: " ")...UInt8(ascii: "~")).contains($0) }
  }

  /// Made once: the getter builds a new set each time.
  private static let whitespace = CharacterSet.whitespaces

  /// `line` without the whitespace (`CharacterSet.whitespaces`) at either end.
  private static func trimmed(_ line: String) -> String {
    let scalars = line.unicodeScalars
    let isSpace = { (scalar: Unicode.Scalar) in whitespace.contains(scalar) }
    guard let first = scalars.first, let last = scalars.last, isSpace(first) || isSpace(last)
    else { return line }
    guard let start = scalars.firstIndex(where: { !isSpace($0) }),
      let end = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[start...end])
  }
}
