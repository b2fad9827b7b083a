/// Whether the screen may use colour: the user's `NO_COLOR` and `--no-color` decide.
public enum ColorMode: Hashable, Sendable {
  /// Colours when the terminal has them.
  case automatic
  /// Attributes only (bold, underline, reverse…), never a colour.
  case monochrome

  /// `monochrome` when `--no-color` was given or `NO_COLOR` is set to anything but the empty
  /// string (https://no-color.org), else `automatic`.
  public init(environment: [String: String], noColorFlag: Bool) {
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    self = noColorFlag || noColor ? .monochrome : .automatic
  }
}
