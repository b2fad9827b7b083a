/// The client secret of an installed application where the provider hands one out and still
/// wants it at the token endpoint, although it cannot be kept secret (Google's "Desktop app"
/// clients: "the client secret is obviously not treated as a secret"). authtui sends it where
/// the provider requires it and nowhere else, and never prints it: every textual form of this
/// value, `String(describing:)`, `dump` and string interpolation included, is a placeholder.
public struct ClientSecret: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The secret as the provider issued it, for the request body only.
  package let value: String

  /// A secret read from a provider file.
  public init(_ value: String) {
    self.value = value
  }

  public var description: String { "<client secret>" }
  public var debugDescription: String { description }
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}
