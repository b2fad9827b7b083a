import Foundation

/// A message in the status line: the outcome of something the user did, shown in place.
public struct StatusMessage: Sendable, Equatable {
  /// How the message looks.
  public enum Kind: Sendable, Equatable {
    case info, success, warning, error

    /// How grave the message is: info and success 0, a warning 1, an error 2.
    var severity: Int {
      switch self {
      case .info, .success: return 0
      case .warning: return 1
      case .error: return 2
      }
    }
  }

  /// How the message looks.
  public var kind: Kind
  /// The text.
  public var text: String
  /// When the message goes away by itself.
  public var expiresAt: Date
  /// True for news of background work: it stays until the next key, as the person may have
  /// been looking elsewhere (at the browser of a sign-out) when it came.
  public var staysUntilKey = false

  /// A message that stays for `seconds` from `now` (errors longer than the rest by default).
  public init(_ kind: Kind, _ text: String, now: Date, seconds: TimeInterval? = nil) {
    self.kind = kind
    self.text = text
    expiresAt = now.addingTimeInterval(seconds ?? (kind == .error ? 15 : 6))
  }

  /// News of background work, shown until the next key.
  static func untilKey(_ kind: Kind, _ text: String, now: Date) -> StatusMessage {
    var message = StatusMessage(kind, text, now: now)
    message.expiresAt = .distantFuture
    message.staysUntilKey = true
    return message
  }
}
