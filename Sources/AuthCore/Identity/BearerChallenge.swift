/// The `Bearer` challenge of a `WWW-Authenticate` header (RFC 6750 §3) that the identity step
/// reads: `error` and `scope`, cleaned. The header may hold other challenges (`DPoP …`)
/// before or after it; only the first `Bearer` one is read.
package struct BearerChallenge: Sendable, Equatable {
  /// `error` (`invalid_token`, `insufficient_scope`).
  package let error: String?
  /// `scope`: the scopes the resource needs, space-separated.
  package let scope: String?

  /// The `Bearer` challenge of `header`, or nil when it has none (or cannot be read).
  package init?(header: String) {
    guard let parameters = AuthenticationChallenge.first("bearer", in: header)?.parameters else {
      return nil
    }
    error = parameters["error"].flatMap(OAuthError.clean)
    scope = parameters["scope"].flatMap(OAuthError.clean)
  }
}
