/// Text that must not reach logs or error messages: a passphrase, a pasted redirect URL (it
/// carries an authorization code). Describes itself without its value.
public struct SecretText: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible,
  CustomReflectable
{
  /// The text itself, for the one place that needs it (the vault, the token endpoint).
  public let revealed: String

  /// Wraps `text`.
  public init(_ text: String) {
    revealed = text
  }

  /// True when there is no text.
  public var isEmpty: Bool { revealed.isEmpty }

  public var description: String { "SecretText(redacted)" }
  public var debugDescription: String { description }
  public var customMirror: Mirror { Mirror(self, children: []) }
}
