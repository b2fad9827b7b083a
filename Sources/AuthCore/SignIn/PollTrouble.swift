import Foundation

/// Why a device or PIN poll got no answer from the provider: trouble that passes, so the
/// attempt retries with backoff until the code's own deadline instead of ending.
///
/// Only a class of failure, never the error's text or the answer's body, so a UI may show it
/// as it is.
public enum PollTrouble: Sendable, Equatable, CustomStringConvertible {
  /// The request timed out.
  case timedOut
  /// No connection, or the connection dropped before an answer arrived.
  case noConnection
  /// The provider answered with this HTTP status and no OAuth error (5xx, 429).
  case httpStatus(Int)
  /// The answer could not be read (not JSON, empty, too large).
  case unreadableAnswer

  /// The trouble a failed poll had, or nil when the failure is a definite answer that ends the
  /// attempt (`access_denied`, `expired_token`, a Simkl fresh start answer, another OAuth
  /// error, a refused TLS certificate, a redirect, a cancellation).
  init?(_ error: AuthError) {
    switch error {
    case .transport(.timedOut): self = .timedOut
    case .transport(.connectionLost), .transport(.cannotConnect), .transport(.hostNotFound),
      .transport(.failed):
      self = .noConnection
    case .transport(.responseTooLarge), .nonJSONResponse,
      .emptyResponse:
      self = .unreadableAnswer
    case .serverError(let status): self = .httpStatus(status)
    case .unexpectedStatus(let status) where status == 429 || status >= 500:
      self = .httpStatus(status)
    default: return nil
    }
  }

  /// "timed out", "no connection", "HTTP 500", "unreadable answer".
  public var description: String {
    switch self {
    case .timedOut: return "timed out"
    case .noConnection: return "no connection"
    case .httpStatus(let status): return "HTTP \(status)"
    case .unreadableAnswer: return "unreadable answer"
    }
  }

  /// The stable machine word, for `login --json`.
  public var code: String {
    switch self {
    case .timedOut: return "timed_out"
    case .noConnection: return "no_connection"
    case .httpStatus: return "http_status"
    case .unreadableAnswer: return "unreadable_answer"
    }
  }
}
