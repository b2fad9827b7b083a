/// Plain-text views of a buffer for golden tests: what the screen says, and which role each
/// cell has.
extension ScreenBuffer {
  /// Each row's text, one string per row: continuation cells add nothing, so a wide grapheme
  /// appears once. Trailing spaces are trimmed unless `trimmingTrailingSpaces` is false.
  public func textLines(trimmingTrailingSpaces: Bool = true) -> [String] {
    (0..<size.rows).map { row in
      var line = ""
      for cell in cells(inRow: row) where !cell.isContinuation {
        line.append(cell.grapheme)
      }
      if trimmingTrailingSpaces {
        while line.last == " " { line.removeLast() }
      }
      return line
    }
  }

  /// Each row's roles, one character per cell (continuation cells included, so every line is
  /// `size.columns` long and lines up column for column with the screen).
  ///
  /// A role missing from `legend` uses the character of the nearest role in its fallback
  /// chain (`list.selected` → `list` → `default`), and `?` when none is in the legend.
  public func roleLines(legend: [Role: Character]) -> [String] {
    var memo: [Role: Character] = [:]
    func symbol(_ role: Role) -> Character {
      if let known = memo[role] { return known }
      let found = role.fallbackChain.lazy.compactMap { legend[$0] }.first ?? "?"
      memo[role] = found
      return found
    }
    return (0..<size.rows).map { row in
      String(cells(inRow: row).map { symbol($0.role) })
    }
  }
}
