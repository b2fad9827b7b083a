internal import CNcursesW
import Spelling
import Terminal

/// A cell as last sent to curses: what decides whether it must be drawn again.
struct DrawnCell: Equatable {
  let grapheme: Character
  let isContinuation: Bool
  let style: Style
}

extension CursesScreen {
  public func render(_ buffer: ScreenBuffer, styles: (Role) -> Style) {
    guard isOpen else { return }
    let size = self.size
    if size != drawnSize || needsFullRepaint {
      werase(window)
      clearok(window, true)
      drawn = Array(repeating: nil, count: size.rows * size.columns)
      drawnSize = size
      needsFullRepaint = false
    }
    var resolved: [Role: Style] = [:]
    var changed = 0
    for row in 0..<size.rows {
      for column in 0..<size.columns {
        let inside = row < buffer.size.rows && column < buffer.size.columns
        let cell = inside ? buffer[row, column] : Cell.blank()
        let style: Style
        if let known = resolved[cell.role] {
          style = known
        } else {
          style = styles(cell.role)
          resolved[cell.role] = style
        }
        let look = DrawnCell(
          grapheme: cell.grapheme, isContinuation: cell.isContinuation, style: style)
        let index = row * size.columns + column
        guard drawn[index] != look else { continue }
        drawn[index] = look
        // The wide grapheme to the left already covers a continuation cell.
        guard !cell.isContinuation else { continue }
        draw(cell.grapheme, style: style, row: row, column: column, columns: size.columns)
        changed += 1
      }
    }
    lastRenderChangedCells = changed
    placeCursor(buffer.cursor, size: size)
    wnoutrefresh(window)
    doupdate()
  }

  /// Sends one grapheme to curses at an explicit position, so a width curses measures
  /// differently can never shift the cells after it.
  private func draw(_ grapheme: Character, style: Style, row: Int, column: Int, columns: Int) {
    var scalars = DisplayWidth.drawnScalars(of: grapheme)
    // A wide grapheme in the last column (a buffer wider than the screen) would wrap.
    if DisplayWidth.of(grapheme) > 1 && column == columns - 1 {
      scalars = [" "]
    }
    var characters = scalars.prefix(Int(CCHARW_MAX) - 1).map { wchar_t(bitPattern: $0.value) }
    characters.append(0)
    let (attributes, pair) = palette.curses(style)
    var glyph = cchar_t()
    setcchar(&glyph, characters, attributes, pair, nil)
    mvwadd_wch(window, Int32(row), Int32(column), &glyph)
  }

  private func placeCursor(_ cursor: Point?, size: Size) {
    if let cursor, cursor.row >= 0, cursor.row < size.rows, cursor.column >= 0,
      cursor.column < size.columns
    {
      if !cursorVisible {
        curs_set(1)
        cursorVisible = true
      }
      leaveok(window, false)
      wmove(window, Int32(cursor.row), Int32(cursor.column))
    } else if cursorVisible {
      curs_set(0)
      cursorVisible = false
    }
  }

  /// What curses holds for each row, read back with `mvwinnwstr` (a wide grapheme once,
  /// trailing spaces trimmed): the same shape as `ScreenBuffer.textLines()`, for smoke tests
  /// and diagnostics.
  public func textLines() -> [String] {
    guard isOpen else { return [] }
    let size = self.size
    return (0..<size.rows).map { row in
      var characters = [wchar_t](repeating: 0, count: size.columns + 1)
      _ = mvwinnwstr(window, Int32(row), 0, &characters, Int32(size.columns))
      var line = String.UnicodeScalarView()
      for value in characters.prefix(while: { $0 != 0 }) {
        if let scalar = Unicode.Scalar(UInt32(bitPattern: value)) { line.append(scalar) }
      }
      var text = String(line)
      while text.last == " " { text.removeLast() }
      return text
    }
  }
}

extension CursesScreen {
  /// The attributes and colour numbers curses holds for a cell (-1: the terminal's default),
  /// read back with `mvwin_wch` and `getcchar`: for smoke tests of the palette.
  func drawnLook(row: Int, column: Int) -> (
    attributes: Attributes, foreground: Int, background: Int
  ) {
    var glyph = cchar_t()
    mvwin_wch(window, Int32(row), Int32(column), &glyph)
    var characters = [wchar_t](repeating: 0, count: Int(CCHARW_MAX) + 1)
    var bits: attr_t = 0
    var pair: Int16 = 0
    getcchar(&glyph, &characters, &bits, &pair, nil)
    var foreground: Int16 = -1
    var background: Int16 = -1
    if palette.paletteSize > 0 { pair_content(pair, &foreground, &background) }
    var attributes: Attributes = []
    for (bit, attribute) in [
      (authtui_attr_bold(), Attributes.bold), (authtui_attr_dim(), .dim),
      (authtui_attr_underline(), .underline), (authtui_attr_reverse(), .reverse),
      (authtui_attr_italic(), .italic),
    ] where bits & bit != 0 {
      attributes.insert(attribute)
    }
    return (attributes, Int(foreground), Int(background))
  }

  /// Columns the C library (and so curses) gives a scalar in the current locale.
  static func libraryWidth(of scalar: Unicode.Scalar) -> Int {
    Int(authtui_wcwidth(wchar_t(bitPattern: scalar.value)))
  }
}
