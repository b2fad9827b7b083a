/// A credential that may travel in a request or a file but never into a message or a log:
/// every textual form of it, `String(describing:)`, `dump` and string interpolation included,
/// is its kind's placeholder.
public struct Concealed<Kind: ConcealedKind>: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The credential as it was issued, for the request or the file only.
  package let value: String

  /// A credential read from a provider file or a server's answer.
  public init(_ value: String) {
    self.value = value
  }

  public var description: String { Kind.placeholder }
  public var debugDescription: String { description }
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// What a `Concealed` credential is, and so what stands in its place wherever it is printed.
public protocol ConcealedKind: Sendable {
  /// The text every textual form of the credential shows (`<client secret>`).
  static var placeholder: String { get }
}
