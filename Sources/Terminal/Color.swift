/// A terminal colour: the terminal's own default, or an index into the 256-colour palette.
///
/// Indexes 0–7 are the classic ANSI colours, 8–15 their bright forms, 16–231 the 6×6×6 cube and
/// 232–255 a grey ramp (xterm's layout, which every 256-colour terminal shares).
public enum Color: Hashable, Sendable {
  /// The terminal's own foreground or background, whatever the user configured.
  case terminalDefault
  /// A palette index 0–255.
  case indexed(UInt8)

  /// The colour as a terminal with `paletteSize` colours can show it.
  ///
  /// 256 colours show every index; 16 colours map the cube and greys to the nearest of the
  /// first sixteen; 8 colours map everything above 7 to the nearest basic colour; fewer than
  /// eight show only the terminal default.
  public func fitted(toPaletteSize paletteSize: Int) -> Color {
    guard case .indexed(let index) = self else { return self }
    if paletteSize >= 256 || Int(index) < min(paletteSize, 16) { return self }
    if paletteSize >= 16 { return Color.nearest(to: Color.rgb(ofIndex: index), among: 0..<16) }
    if paletteSize >= 8 { return basicFallback }
    return .terminalDefault
  }

  /// The nearest of the eight basic colours, for terminals that have only eight.
  ///
  /// Bright colours drop to their base colour (their nearest match by value could be another
  /// hue). Greys become black or white by lightness, never a dull hue that happens to be
  /// closer; other colours of the cube go to the nearest basic colour by RGB distance.
  public var basicFallback: Color {
    guard case .indexed(let index) = self else { return self }
    switch index {
    case 0..<8: return self
    case 8..<16: return .indexed(index - 8)
    default:
      let rgb = Color.rgb(ofIndex: index)
      let channels = [rgb.0, rgb.1, rgb.2]
      if let lightest = channels.max(), let darkest = channels.min(), lightest - darkest <= 24 {
        return .indexed((rgb.0 + rgb.1 + rgb.2) / 3 >= 128 ? 7 : 0)
      }
      return Color.nearest(to: rgb, among: 0..<8)
    }
  }

  /// The palette index closest to an RGB colour (for `#rrggbb` in theme files), searching the
  /// cube and the grey ramp, whose values do not depend on the user's terminal settings.
  public static func nearest(red: UInt8, green: UInt8, blue: UInt8) -> Color {
    nearest(to: (Int(red), Int(green), Int(blue)), among: 16..<256)
  }

  private static func nearest(to rgb: (Int, Int, Int), among indexes: Range<Int>) -> Color {
    var best = indexes.lowerBound
    var bestDistance = Int.max
    for index in indexes {
      let candidate = Color.rgb(ofIndex: UInt8(index))
      let distance =
        (candidate.0 - rgb.0) * (candidate.0 - rgb.0) + (candidate.1 - rgb.1)
        * (candidate.1 - rgb.1) + (candidate.2 - rgb.2) * (candidate.2 - rgb.2)
      if distance < bestDistance {
        best = index
        bestDistance = distance
      }
    }
    return .indexed(UInt8(best))
  }

  /// xterm's RGB values for a palette index (its defaults for 0–15).
  static func rgb(ofIndex index: UInt8) -> (Int, Int, Int) {
    let basic: [(Int, Int, Int)] = [
      (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
      (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
      (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    let value = Int(index)
    if value < 16 { return basic[value] }
    if value < 232 {
      let levels = [0, 95, 135, 175, 215, 255]
      let cube = value - 16
      return (levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
    }
    let grey = 8 + (value - 232) * 10
    return (grey, grey, grey)
  }
}
