import Spelling
import Terminal

/// Breaks text into lines of at most `width` terminal columns: at spaces where it can, and
/// anywhere inside a word too long for a line (a URL).
enum TextWrap {
  static func lines(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      var lineWidth = 0
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
        let wordWidth = DisplayWidth.of(word)
        if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
          line += " " + word
          lineWidth += 1 + wordWidth
          continue
        }
        if lineWidth > 0 {
          lines.append(line)
          line = ""
          lineWidth = 0
        }
        if wordWidth <= width {
          line = String(word)
          lineWidth = wordWidth
          continue
        }
        for character in word {
          let characterWidth = DisplayWidth.of(character)
          if lineWidth + characterWidth > width {
            lines.append(line)
            line = ""
            lineWidth = 0
          }
          line.append(character)
          lineWidth += characterWidth
        }
      }
      lines.append(line)
    }
    return lines
  }

  /// `text` wrapped to `width` columns, at most `limit` lines, the last ending in `…` when
  /// text was left out.
  static func lines(_ text: String, width: Int, limit: Int) -> [String] {
    var lines = lines(text, width: width)
    guard lines.count > limit else { return lines }
    lines = Array(lines.prefix(limit))
    if var last = lines.popLast() {
      while DisplayWidth.of(last) >= width, !last.isEmpty { last.removeLast() }
      lines.append(last + "…")
    }
    return lines
  }
}
