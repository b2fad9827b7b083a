import Terminal

/// A named set of styles for roles, read from a `.theme` file (see `Theme(parsing:name:source:)`
/// for the format). Hand `style(for:)` to `Screen.render`.
public struct Theme: Hashable, Sendable {
  /// The theme's name: its file name without `.theme`.
  public let name: String
  /// The `[palette]` names and their colours.
  public let palette: [String: Color]
  /// The styles the file sets, by role; roles left out fall back (see `style(for:)`).
  public let styles: [Role: Style]

  /// A theme with these styles.
  public init(name: String, palette: [String: Color] = [:], styles: [Role: Style]) {
    self.name = name
    self.palette = palette
    self.styles = styles
  }

  /// The style of `role`: its own if the theme sets one, else that of the nearest role in its
  /// fallback chain (`list.selected` → `list` → `default`), else the terminal's plain style.
  public func style(for role: Role) -> Style {
    if let own = styles[role] { return own }
    for ancestor in role.fallbackChain.dropFirst() {
      if let style = styles[ancestor] { return style }
    }
    return .plain
  }

  /// True when no style uses a colour (the built-in `monochrome` theme).
  public var isMonochrome: Bool {
    styles.values.allSatisfy { $0.withoutColors == $0 }
  }
}
