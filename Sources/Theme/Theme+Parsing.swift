import Spelling
import Terminal

/// The theme file format (DESIGN.md "Terminal UI"):
///
/// ```
/// # comments start with '#'
/// [palette]
/// accent = 39            # a name for a colour, usable in [styles]
///
/// [styles]
/// default = 252 235      # role = foreground background attributes…
/// list.selected = white accent bold
/// status.hint = dim      # colours may be left out: they are the terminal's default
/// ```
///
/// Colours: `default`, `black` `red` `green` `yellow` `blue` `magenta` `cyan` `white`, their
/// `bright-` forms, 0–255, `#rrggbb` (nearest palette colour), or a `[palette]` name.
/// Attributes: `bold`, `dim`, `underline`, `reverse`, `italic`, or `none`. Only the roles of
/// `Role.known` may be styled; a role left out falls back to its parent.
extension Theme {
  /// Reads a theme file. `name` is the theme's name; `source` names the file in errors.
  public init(parsing text: String, name: String, source: String) throws(ThemeFileError) {
    var section: String?
    var paletteLines: [String: Int] = [:]
    var palette: [String: Color] = [:]
    var styleEntries: [(line: Int, role: String, value: String)] = []
    var roleLines: [String: Int] = [:]

    func fail(_ line: Int, _ problem: ThemeFileError.Problem) -> ThemeFileError {
      ThemeFileError(source: source, line: line, problem: problem)
    }

    // "\r\n" is one Character in Swift, not "\n": split on both, so a file saved with CRLF
    // line ends reads line by line rather than as one long line.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for (offset, rawLine) in lines.enumerated() {
      let number = offset + 1
      let line = Self.strippingComment(rawLine)
      if line.isEmpty { continue }
      if line.hasPrefix("[") {
        guard line.hasSuffix("]") else { throw fail(number, .notAnEntry(line)) }
        let name = line.dropFirst().dropLast().trimmingSpaces.lowercased()
        guard name == "palette" || name == "styles" else {
          throw fail(number, .unknownSection(name))
        }
        section = name
        continue
      }
      guard let equals = line.firstIndex(of: "=") else { throw fail(number, .notAnEntry(line)) }
      let key = line[..<equals].trimmingSpaces
      let value = line[line.index(after: equals)...].trimmingSpaces
      guard !key.isEmpty, !key.contains(where: \.isWhitespace) else {
        throw fail(number, .notAnEntry(line))
      }
      switch section {
      case nil:
        throw fail(number, .outsideSection)
      case "palette":
        let name = key.lowercased()
        if let first = paletteLines[name] {
          throw fail(number, .duplicatePaletteName(name, firstLine: first))
        }
        guard Self.isUsablePaletteName(name) else { throw fail(number, .unusablePaletteName(name)) }
        let words = value.split(whereSeparator: \.isWhitespace)
        guard words.count == 1, let color = Color(themeName: String(words[0])) else {
          throw fail(number, .paletteNeedsOneColor(value))
        }
        paletteLines[name] = number
        palette[name] = color
      default:
        let role = key.lowercased()
        guard Role.known.contains(Role(role)) else {
          let suggestion = SpellingSuggestion.closest(to: role, among: Role.known.map(\.name))
          throw fail(number, .unknownRole(role, suggestion: suggestion))
        }
        if let first = roleLines[role] {
          throw fail(number, .duplicateRole(role, firstLine: first))
        }
        roleLines[role] = number
        styleEntries.append((number, role, value))
      }
    }

    // Styles are read after the whole palette, so [palette] may come before or after them.
    var styles: [Role: Style] = [:]
    for entry in styleEntries {
      do {
        styles[Role(entry.role)] = try Self.style(
          entry.value, role: entry.role, palette: palette)
      } catch {
        throw fail(entry.line, error)
      }
    }
    self.init(name: name, palette: palette, styles: styles)
  }

  /// Reads `foreground background attributes…` (every part optional, colours in that order).
  private static func style(
    _ value: String, role: String, palette: [String: Color]
  ) throws(ThemeFileError.Problem) -> Style {
    let words = value.split(whereSeparator: \.isWhitespace).map(String.init)
    guard !words.isEmpty else { throw .emptyStyle(role) }
    var colors: [Color] = []
    var attributes: Attributes = []
    for word in words {
      let lowered = word.lowercased()
      if lowered == "none" { continue }
      if let attribute = Attributes(name: lowered) {
        attributes.insert(attribute)
      } else if let color = palette[lowered] ?? Color(themeName: lowered) {
        guard colors.count < 2 else { throw .tooManyColors(value) }
        colors.append(color)
      } else if let attribute = SpellingSuggestion.closest(
        to: lowered, among: Attributes.named.map(\.name))
      {
        throw .unknownAttribute(word, suggestion: attribute)
      } else {
        let suggestion = SpellingSuggestion.closest(
          to: lowered, among: Color.themeWords + palette.keys.sorted())
        throw .unknownColor(word, suggestion: suggestion)
      }
    }
    return Style(
      foreground: colors.first ?? .terminalDefault,
      background: colors.count > 1 ? colors[1] : .terminalDefault, attributes: attributes)
  }

  /// The line without its comment and surrounding spaces. A `#` starts a comment at the start
  /// of the line or after a space, unless it begins a `#rrggbb` colour.
  private static func strippingComment(_ line: Substring) -> String {
    var result = ""
    var previous: Character = " "
    var index = line.startIndex
    while index < line.endIndex {
      let character = line[index]
      if character == "#", previous.isWhitespace {
        let word = line[index...].prefix { !$0.isWhitespace }
        let isColor = word.count == 7 && word.dropFirst().allSatisfy(\.isHexDigit)
        if !isColor { break }
      }
      result.append(character)
      previous = character
      index = line.index(after: index)
    }
    return result.trimmingSpaces
  }

  private static func isUsablePaletteName(_ name: String) -> Bool {
    guard let first = name.first, first.isLetter, first.isASCII else { return false }
    let allowed = name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }
    let taken =
      Color(themeName: name) != nil || Attributes(name: name) != nil || name == "none"
    return allowed && !taken
  }
}

extension StringProtocol {
  /// The text without leading and trailing whitespace (Foundation-free `trimmingCharacters`).
  fileprivate var trimmingSpaces: String {
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
    return String(self[start..<Swift.max(start, end)])
  }
}
