/// A semantic name for how something looks (`list.selected`, `status.error`), which the theme
/// turns into a `Style` at render time.
///
/// Roles are dotted paths: a role a theme does not style falls back to its parent, then to
/// the parent's parent, and finally to `default` (`list.selected` → `list` → `default`). The
/// roles themes may style are listed by the `Theme` module (`Role.known`).
public struct Role: Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The dotted name, as written in theme files.
  public let name: String

  /// The role called `name` (`"list.selected"`).
  public init(_ name: String) { self.name = name }

  public init(stringLiteral name: String) { self.name = name }

  /// The root every role falls back to: the screen's background and plain text.
  public static let `default` = Role("default")

  /// The role this one falls back to: the name without its last dotted part, or `default` for
  /// a top-level role; nil for `default` itself.
  public var parent: Role? {
    if self == .default { return nil }
    guard let dot = name.lastIndex(of: ".") else { return .default }
    return Role(String(name[..<dot]))
  }

  /// This role and every role it falls back to, nearest first, ending with `default`.
  public var fallbackChain: [Role] {
    var chain = [self]
    while let next = chain[chain.count - 1].parent {
      chain.append(next)
    }
    return chain
  }

  public static func < (left: Role, right: Role) -> Bool { left.name < right.name }

  public var description: String { name }
}
