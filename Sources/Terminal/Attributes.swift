/// Text attributes a terminal can combine with colours.
///
/// Monochrome screens (`NO_COLOR`, `--no-color`, terminals without colour) keep these and drop
/// the colours, so a theme stays readable there only through its attributes.
public struct Attributes: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8

  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Heavier (or brighter) text.
  public static let bold = Attributes(rawValue: 1 << 0)
  /// Fainter text; some terminals ignore it.
  public static let dim = Attributes(rawValue: 1 << 1)
  /// Underlined text.
  public static let underline = Attributes(rawValue: 1 << 2)
  /// Foreground and background swapped.
  public static let reverse = Attributes(rawValue: 1 << 3)
  /// Slanted text; terminals without it show plain text.
  public static let italic = Attributes(rawValue: 1 << 4)

  /// Every attribute with the word theme files use for it, in display order.
  public static let named: [(name: String, attribute: Attributes)] = [
    ("bold", .bold), ("dim", .dim), ("underline", .underline), ("reverse", .reverse),
    ("italic", .italic),
  ]

  /// The attribute called `name` in a theme file, if any.
  public init?(name: String) {
    guard let match = Self.named.first(where: { $0.name == name.lowercased() }) else {
      return nil
    }
    self = match.attribute
  }

  /// The words for the attributes set, in display order (`["bold", "underline"]`).
  public var names: [String] {
    Self.named.filter { contains($0.attribute) }.map(\.name)
  }
}
