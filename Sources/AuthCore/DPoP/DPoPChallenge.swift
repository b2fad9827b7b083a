import Foundation

/// The `DPoP` challenge of a `WWW-Authenticate` header (RFC 9449 §7.1, RFC 9110 §11.6.1): how
/// a resource server says a request's proof or token was refused, and asks for a nonce with
/// `error="use_dpop_nonce"` (§9). The header may hold other challenges (`Bearer …`) before or
/// after it; only the first `DPoP` one is read.
public struct DPoPChallenge: Sendable, Equatable {
  /// `error` (`invalid_token`, `invalid_dpop_proof`, `use_dpop_nonce`), cleaned.
  public let error: String?
  /// `error_description`, cleaned of control characters and cut to 300 characters.
  public let errorDescription: String?
  /// `algs` (§7.1): the JWS algorithms the server takes, space-separated on the wire.
  public let algorithms: [String]

  /// The longest header read; a longer one is ignored as if absent.
  public static let maximumLength = AuthenticationChallenge.maximumLength

  /// The `DPoP` challenge of `header`, or nil when it has none (or cannot be read).
  public init?(header: String) {
    guard let parameters = AuthenticationChallenge.first("dpop", in: header)?.parameters else {
      return nil
    }
    error = parameters["error"].flatMap(OAuthError.clean)
    errorDescription = parameters["error_description"].flatMap(OAuthError.clean)
    algorithms = parameters["algs"]?.split(separator: " ").map(String.init) ?? []
  }
}
