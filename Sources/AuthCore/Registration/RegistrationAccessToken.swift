/// The bearer token that lets a client read, change or delete its own registration
/// (`registration_access_token`, RFC 7592 §3, issued with RFC 7591's answer). Kept only in
/// the 0600 provider file; every textual form of this value, `String(describing:)`, `dump` and
/// string interpolation included, is a placeholder, so it cannot reach a message or a log.
public struct RegistrationAccessToken: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The token as the server issued it, for the `Authorization` header and the file only.
  package let value: String

  /// A token read from a registration answer or a provider file.
  public init(_ value: String) {
    self.value = value
  }

  public var description: String { "<registration access token>" }
  public var debugDescription: String { description }
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}
