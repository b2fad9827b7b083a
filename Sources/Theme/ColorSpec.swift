/// A colour as a theme file names it: the terminal's default, one of the 16 named ANSI colours,
/// or an index into the 256-colour palette.
public enum ColorSpec: Hashable, Sendable {
  /// The terminal's own foreground or background (`default`).
  case terminalDefault
  /// An index 0–255; 0–7 are the classic ANSI colours and 8–15 their bright forms.
  case indexed(UInt8)

  /// The names of the eight ANSI colours, in index order.
  public static let ansiNames = [
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
  ]

  /// Parses `default`, `red`, `bright-red`, or a number 0–255; nil for anything else.
  public init?(name: String) {
    let lowered = name.lowercased()
    if lowered == "default" {
      self = .terminalDefault
    } else if let index = Self.ansiNames.firstIndex(of: lowered) {
      self = .indexed(UInt8(index))
    } else if lowered.hasPrefix("bright-"),
      let index = Self.ansiNames.firstIndex(of: String(lowered.dropFirst("bright-".count)))
    {
      self = .indexed(UInt8(index + 8))
    } else if let number = UInt8(lowered) {
      self = .indexed(number)
    } else {
      return nil
    }
  }

  /// The nearest of the eight basic colours, for terminals that have only eight.
  ///
  /// Bright colours drop to their base; the 6×6×6 cube and the grey ramp map by dominant channel.
  public var basicFallback: ColorSpec {
    guard case .indexed(let index) = self else { return self }
    switch index {
    case 0..<8: return self
    case 8..<16: return .indexed(index - 8)
    case 16..<232:
      let cube = Int(index) - 16
      let red = cube / 36
      let green = cube / 6 % 6
      let blue = cube % 6
      let bits = (red >= 3 ? 1 : 0) | (green >= 3 ? 2 : 0) | (blue >= 3 ? 4 : 0)
      return .indexed(UInt8(bits))
    default:
      return .indexed(index >= 244 ? 7 : 0)
    }
  }
}
