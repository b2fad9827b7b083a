/// Why something the UI asked for did not happen, as the user reads it in place: one sentence
/// that names the problem and what to do.
public struct AppFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure it is, for the screens that react differently.
  public enum Kind: Sendable, Equatable {
    /// The passphrase did not open the vault.
    case wrongPassphrase
    /// A browser sign-in's countdown ran out with no redirect (how a silent denial looks).
    case noAnswer
    /// A device or PIN code expired before it was approved.
    case codeExpired
    /// The user or the provider declined.
    case denied
    /// The user cancelled.
    case cancelled
    /// The account needs a new sign-in (the refresh token was refused).
    case signInNeeded
    /// The network or the provider failed; trying again later may work.
    case provider
    /// Anything else (a file, the configuration, the vault).
    case other
  }

  /// What kind of failure it is.
  public var kind: Kind
  /// The sentence to show.
  public var message: String

  /// A failure of `kind` shown as `message`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The message a silent denial ends with.
  public static let noAnswerMessage =
    "no answer from the provider (the sign-in may have been declined)"

  /// A browser sign-in that waited for its whole countdown.
  public static let noAnswer = AppFailure(.noAnswer, noAnswerMessage)

  /// A device or PIN code that ran out.
  public static let codeExpired = AppFailure(
    .codeExpired, "the code expired before it was approved")

  public var description: String { message }
}
