import Foundation
import Loopback

/// The parameters of a redirect back from the authorization endpoint (RFC 6749 §4.1.2 and
/// §4.1.2.1, RFC 9207 §2), read from the loopback request or from a pasted URL. Unvalidated:
/// `AuthorizationRequest.validate` decides what it is worth. Other parameters (Hivesigner's
/// `username`) are ignored on purpose: the account comes from the token answer.
public struct AuthorizationResponse: Sendable, Equatable, CustomStringConvertible {
  /// `code` (RFC 6749 §4.1.2).
  public let code: String?
  /// `state` (RFC 6749 §4.1.2).
  public let state: String?
  /// `iss` (RFC 9207 §2).
  public let issuer: String?
  /// `error`, `error_description`, `error_uri` (RFC 6749 §4.1.2.1).
  public let error: OAuthError?

  /// Reads the decoded query parameters of a redirect; the first of each name counts.
  public init(parameters: [FormEncoding.Pair]) {
    func first(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
    code = first("code")
    state = first("state")
    issuer = first("iss")
    error = first("error").flatMap { code in
      code.isEmpty
        ? nil
        : OAuthError(
          code: OAuthErrorCode(rawValue: code), errorDescription: first("error_description"),
          errorURI: first("error_uri"))
    }
  }

  /// Reads a pasted redirect URL, which must be `redirectURI` followed by a query: the same
  /// place the browser would have been sent, so a URL meant for another program is refused.
  public init(pastedURL: String, redirectURI: String) throws(AuthError) {
    let text = pastedURL.trimmingCharacters(
      in: .whitespacesAndNewlines.union(["\"", "'", "<", ">"]))
    guard let mark = text.firstIndex(of: "?") else {
      throw .malformedRedirect("it has no query with a code")
    }
    guard text[..<mark] == redirectURI else {
      throw .malformedRedirect("it does not start with \(redirectURI)")
    }
    let query = text[text.index(after: mark)...].prefix { $0 != "#" }
    self.init(parameters: FormEncoding.decode(query))
  }

  /// Which parameters are present, never their values.
  public var description: String {
    let present = [
      code.map { _ in "code" }, state.map { _ in "state" }, issuer.map { _ in "iss" },
      error.map { "error=\($0.code)" },
    ].compactMap { $0 }
    return "AuthorizationResponse(\(present.joined(separator: ", ")))"
  }
}
