import Foundation

/// Why the account behind freshly issued tokens could not be identified.
///
/// The identity step runs right after a sign-in, so a refusal here means the new token is not
/// usable for what the provider's `identity` settings read: the sign-in fails, nothing is stored.
public enum IdentityError: Error, Sendable, Equatable {
  /// The identity endpoint answered 401 (RFC 6750 §3.1 `invalid_token`): the new access token
  /// is unusable.
  case tokenUnusable
  /// The identity endpoint answered 403 (RFC 6750 §3.1 `insufficient_scope`): the token is
  /// valid but lacks a scope; `scopeHint` is the scope the provider's settings name for it
  /// (`forbidden_scope_hint`).
  case insufficientScope(scopeHint: String?)
  /// The userinfo answer's `sub` differs from the id_token's (OIDC Core §5.3.2): it is about
  /// someone else and must not be used.
  case subjectMismatch
  /// The userinfo answer has no `sub` (OIDC Core §5.3.2).
  case userinfoWithoutSubject
  /// The settings read the id_token, and the sign-in brought none.
  case noIDToken
  /// None of the configured member paths (`identity.label`, then `identity.subject`) holds a
  /// string or a number in the answer.
  case labelNotFound(paths: [String])
}

extension IdentityError: CustomStringConvertible {
  /// One sentence for the user: what went wrong and what to do next.
  public var message: String {
    switch self {
    case .tokenUnusable:
      return "The provider refused the new access token when asked who signed in (HTTP 401), "
        + "so the sign-in failed; start a new sign-in, and check `identity` in the provider "
        + "file if it happens again."
    case .insufficientScope(let scopeHint):
      if let scopeHint {
        return "The provider accepted the new token but it may not read the account (HTTP 403: "
          + "a scope is missing); add \"\(scopeHint)\" to `scopes` in the provider file and "
          + "sign in again."
      }
      return "The provider accepted the new token but it may not read the account (HTTP 403: a "
        + "scope is missing); check `scopes` in the provider file and sign in again."
    case .subjectMismatch:
      return "The provider's userinfo answer is about another user than its id_token (sub), so "
        + "the sign-in was refused; start a new sign-in."
    case .userinfoWithoutSubject:
      return "The provider's userinfo answer does not say whom it is about (no sub); set "
        + "`identity.source` to \"id_token\" in the provider file."
    case .noIDToken:
      return "The provider's `identity` settings read the id_token, but the sign-in brought "
        + "none; add \"openid\" to `scopes`, or change `identity.source` in the provider file."
    case .labelNotFound(let paths):
      return "The provider's answer about the account has none of "
        + "\(paths.map { "`\($0)`" }.joined(separator: ", ")); fix `identity.label` in the "
        + "provider file, or name the account with --label."
    }
  }

  /// The same as `message`.
  public var description: String { message }

  /// A stable snake_case name for scripts.
  public var code: String {
    switch self {
    case .tokenUnusable: return "identity_token_unusable"
    case .insufficientScope: return "insufficient_scope"
    case .subjectMismatch: return "userinfo_subject_mismatch"
    case .userinfoWithoutSubject: return "userinfo_without_subject"
    case .noIDToken: return "identity_without_id_token"
    case .labelNotFound: return "identity_label_not_found"
    }
  }
}
