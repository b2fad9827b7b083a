extension QRCode {
  /// The symbol as text for a terminal: each character is two modules, one above the other
  /// (`▀`, `▄`, `█` or a space), with the quiet zone of `quietZone` modules all round. Dark
  /// modules are the text; `colored` wraps each line in black on white (SGR 30;47) so the code
  /// reads the same on dark and light terminals, as scanners want it.
  public func halfBlockLines(quietZone: Int = 4, colored: Bool = true) -> [String] {
    let span = -quietZone..<(size + quietZone)
    func isDark(_ row: Int, _ column: Int) -> Bool {
      row >= 0 && row < size && column >= 0 && column < size && modules[row][column]
    }
    return stride(from: span.lowerBound, to: span.upperBound, by: 2).map { row in
      let line = span.map { column -> Character in
        switch (isDark(row, column), isDark(row + 1, column)) {
        case (true, true): return "█"
        case (true, false): return "▀"
        case (false, true): return "▄"
        case (false, false): return " "
        }
      }
      return colored ? "\u{1B}[30;47m" + String(line) + "\u{1B}[0m" : String(line)
    }
  }

  /// How many terminal columns `halfBlockLines` takes.
  public func columns(quietZone: Int = 4) -> Int { size + 2 * quietZone }
}
