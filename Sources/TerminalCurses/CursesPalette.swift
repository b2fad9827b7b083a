internal import CNcursesW
import Terminal

/// Turns styles into curses attributes and colour pairs, creating each pair once.
///
/// Colours are first fitted to the terminal (`Style.fitted(toPaletteSize:)`): a 256-colour
/// theme stays readable on an 8-colour terminal. A monochrome palette (NO_COLOR, `--no-color`,
/// or a terminal without colours) keeps only the attributes.
struct CursesPalette {
  /// Colours the terminal has; 0 means monochrome.
  let paletteSize: Int
  /// Whether -1 (the terminal's default colour) may be used in pairs.
  let hasDefaultColors: Bool
  private let pairLimit: Int
  private var pairs: [Pair: Int16] = [:]
  private var nextPair: Int16 = 1

  private struct Pair: Hashable {
    let foreground: Color
    let background: Color
  }

  /// A palette for the screen curses just started; starts colour when `mode` allows it.
  init(mode: ColorMode) {
    guard mode == .automatic, has_colors(), start_color() == OK else {
      paletteSize = 0
      hasDefaultColors = false
      pairLimit = 0
      return
    }
    hasDefaultColors = use_default_colors() == OK
    paletteSize = Int(authtui_colors())
    // setcchar takes a short pair number.
    pairLimit = min(Int(authtui_color_pairs()), Int(Int16.max))
  }

  /// The curses attributes and colour pair that show `style`.
  mutating func curses(_ style: Style) -> (attributes: attr_t, pair: Int16) {
    var attributes: attr_t = 0
    if style.attributes.contains(.bold) { attributes |= authtui_attr_bold() }
    if style.attributes.contains(.dim) { attributes |= authtui_attr_dim() }
    if style.attributes.contains(.underline) { attributes |= authtui_attr_underline() }
    if style.attributes.contains(.reverse) { attributes |= authtui_attr_reverse() }
    if style.attributes.contains(.italic) { attributes |= authtui_attr_italic() }
    guard paletteSize > 0 else { return (attributes, 0) }
    let fitted = style.fitted(toPaletteSize: paletteSize)
    let key = Pair(foreground: fitted.foreground, background: fitted.background)
    if key.foreground == .terminalDefault && key.background == .terminalDefault {
      return (attributes, 0)
    }
    if let pair = pairs[key] { return (attributes, pair) }
    // Out of pairs: the terminal's colours, attributes still apply.
    guard Int(nextPair) < pairLimit else { return (attributes, 0) }
    let pair = nextPair
    init_pair(
      pair, number(key.foreground, isBackground: false), number(key.background, isBackground: true))
    pairs[key] = pair
    nextPair += 1
    return (attributes, pair)
  }

  /// The curses colour number: -1 for the default where the terminal allows it, else white on
  /// black as the stand-in.
  private func number(_ color: Color, isBackground: Bool) -> Int16 {
    switch color {
    case .indexed(let index): return Int16(index)
    case .terminalDefault:
      if hasDefaultColors { return -1 }
      return isBackground ? Int16(COLOR_BLACK) : Int16(COLOR_WHITE)
    }
  }
}
