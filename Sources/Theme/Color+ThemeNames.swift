import Terminal

/// Colour words of theme files: `default`, the eight ANSI names, `bright-` forms, palette
/// indexes and `#rrggbb`.
extension Color {
  /// The names of the eight ANSI colours, in index order.
  public static let ansiNames = [
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
  ]

  /// What a theme file may write for a colour, for error messages.
  static let themeSyntax =
    "default, black, red, green, yellow, blue, magenta, cyan, white, bright-red (and the other "
    + "bright- names), a number 0–255, #rrggbb, or a name from [palette]"

  /// Reads `default`, `red`, `bright-red`, a number 0–255, or `#rrggbb` (mapped to the nearest
  /// palette colour); nil for anything else. Case does not matter.
  public init?(themeName name: String) {
    let lowered = name.lowercased()
    if lowered == "default" {
      self = .terminalDefault
    } else if let index = Self.ansiNames.firstIndex(of: lowered) {
      self = .indexed(UInt8(index))
    } else if lowered.hasPrefix("bright-"),
      let index = Self.ansiNames.firstIndex(of: String(lowered.dropFirst("bright-".count)))
    {
      self = .indexed(UInt8(index + 8))
    } else if lowered.allSatisfy(\.isASCII), let number = UInt8(lowered) {
      self = .indexed(number)
    } else if lowered.hasPrefix("#"), lowered.count == 7,
      let value = UInt32(lowered.dropFirst(), radix: 16)
    {
      self = Color.nearest(
        red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    } else {
      return nil
    }
  }

  /// Every word `init(themeName:)` reads besides numbers and `#rrggbb`.
  static let themeWords: [String] =
    ["default"] + ansiNames + ansiNames.map { "bright-" + $0 }
}
