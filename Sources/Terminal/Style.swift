/// How a cell looks: colours and attributes. Views never pick styles; they draw roles, and the
/// theme turns each `Role` into a `Style` when a frame is rendered.
public struct Style: Hashable, Sendable, CustomStringConvertible {
  /// The text colour.
  public var foreground: Color
  /// The cell's background colour.
  public var background: Color
  /// Bold, underline and the like.
  public var attributes: Attributes

  /// A style; everything left out is the terminal's default.
  public init(
    foreground: Color = .terminalDefault, background: Color = .terminalDefault,
    attributes: Attributes = []
  ) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  /// The terminal's default colours, no attributes.
  public static let plain = Style()

  /// The same attributes without colours: what a monochrome screen shows.
  public var withoutColors: Style { Style(attributes: attributes) }

  /// The style as a terminal with `paletteSize` colours shows it (see `Color.fitted`).
  public func fitted(toPaletteSize paletteSize: Int) -> Style {
    Style(
      foreground: foreground.fitted(toPaletteSize: paletteSize),
      background: background.fitted(toPaletteSize: paletteSize), attributes: attributes)
  }

  public var description: String {
    func name(_ color: Color) -> String {
      switch color {
      case .terminalDefault: return "default"
      case .indexed(let index): return String(index)
      }
    }
    return ([name(foreground), name(background)] + attributes.names).joined(separator: " ")
  }
}
