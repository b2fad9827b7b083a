import Foundation
import Isolation
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
    // Cleaned and measured over the cores: `list` may have thousands of rows.
    let measured = ([header] + rows).parallelMap { row in
      let cells = row.map(cleaned)
      return (cells: cells, widths: cells.map(width(of:)))
    }
    let lines = measured.map(\.cells)
    let cellWidths = measured.map(\.widths)
    let widths = header.indices.map { column in cellWidths.map { $0[column] }.max() ?? 0 }
    // Written as bytes, a line at a time into one buffer: no string for each line or padding.
    var text: [UInt8] = []
    text.reserveCapacity(lines.count * (widths.reduce(0, +) + 2 * widths.count + 1))
    var line: [UInt8] = []
    for (number, values) in lines.enumerated() {
      line.removeAll(keepingCapacity: true)
      let columns = min(values.count, widths.count)
      for column in 0..<columns {
        if column > 0 { line += [space, space] }
        line += values[column].utf8
        // The last column's padding would be trimmed anyway.
        let padding = column == columns - 1 ? 0 : widths[column] - cellWidths[number][column]
        if padding > 0 { line += repeatElement(space, count: padding) }
      }
      if number > 0 { text.append(UInt8(ascii: "\n")) }
      appendTrimmed(line, to: &text)
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static let space = UInt8(ascii: " ")

  /// `line` without the whitespace (`CharacterSet.whitespaces`) at either end: in ASCII, the
  /// space and the tab.
  private static func appendTrimmed(_ line: [UInt8], to text: inout [UInt8]) {
    guard line.allSatisfy({ $0 < 0x80 }) else {
      text += trimmed(String(decoding: line, as: UTF8.self)).utf8
      return
    }
    let isSpace = { (byte: UInt8) in byte == space || byte == UInt8(ascii: "\t") }
    guard let start = line.firstIndex(where: { !isSpace($0) }),
      let end = line.lastIndex(where: { !isSpace($0) })
    else { return }
    text += line[start...end]
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
