import Foundation
import Spelling

/// An error a provider answered with, as RFC 6749 puts it on the wire: `error`,
/// `error_description` and `error_uri` (§4.1.2.1 for authorization responses, §5.2 for token
/// responses; RFC 8628 §3.5 and RFC 7009 §2.2.1 add codes).
///
/// Providers that put the text elsewhere are read too: Simkl answers
/// `{"error":"secret_error","message":"PKCE verification failed"}`.
public struct OAuthError: Sendable, Equatable {
  /// The error code (`error`).
  public let code: OAuthErrorCode
  /// The provider's human-readable text (`error_description`, or `message`), with each control
  /// or direction character shown as a visible escape (`\u{1B}`, `TerminalText`) and cut to
  /// 300 characters, so a hostile answer can neither act on nor flood the terminal, and the
  /// reader sees what was there.
  public let errorDescription: String?
  /// A page about the error (`error_uri`).
  public let errorURI: String?

  /// An error with the given code and texts; the texts are cleaned as described above.
  public init(code: OAuthErrorCode, errorDescription: String? = nil, errorURI: String? = nil) {
    self.code = code
    self.errorDescription = errorDescription.flatMap(Self.clean)
    self.errorURI = errorURI.flatMap(Self.clean)
  }

  /// `text` without the white space and line breaks around it, each control or direction
  /// character within written as `\u{1B}` (as `TerminalText.cleaned` writes it, so that
  /// cleaning it again changes nothing), at most 300 characters, and never an escape cut in
  /// two; nil when nothing is left.
  static func clean(_ text: String) -> String? {
    var cleaned = String.UnicodeScalarView()
    var left = 300
    for scalar in text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars {
      let shown = TerminalText.cleaned(String(scalar)).unicodeScalars
      guard shown.count <= left else { break }
      cleaned.append(contentsOf: shown)
      left -= shown.count
    }
    return cleaned.isEmpty ? nil : String(cleaned)
  }
}

/// An OAuth error code (`error`). Known codes are constants; any other string is kept as is.
public struct OAuthErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The code as sent.
  public let rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  public var description: String { rawValue }

  /// `invalid_request` (RFC 6749 §4.1.2.1, §5.2).
  public static let invalidRequest = OAuthErrorCode(rawValue: "invalid_request")
  /// `invalid_client` (RFC 6749 §5.2).
  public static let invalidClient = OAuthErrorCode(rawValue: "invalid_client")
  /// `invalid_grant` (RFC 6749 §5.2): the code, device code or refresh token is not good.
  public static let invalidGrant = OAuthErrorCode(rawValue: "invalid_grant")
  /// `unauthorized_client` (RFC 6749 §4.1.2.1, §5.2).
  public static let unauthorizedClient = OAuthErrorCode(rawValue: "unauthorized_client")
  /// `unsupported_grant_type` (RFC 6749 §5.2).
  public static let unsupportedGrantType = OAuthErrorCode(rawValue: "unsupported_grant_type")
  /// `unsupported_response_type` (RFC 6749 §4.1.2.1).
  public static let unsupportedResponseType = OAuthErrorCode(
    rawValue: "unsupported_response_type")
  /// `invalid_scope` (RFC 6749 §4.1.2.1, §5.2).
  public static let invalidScope = OAuthErrorCode(rawValue: "invalid_scope")
  /// `access_denied` (RFC 6749 §4.1.2.1, RFC 8628 §3.5).
  public static let accessDenied = OAuthErrorCode(rawValue: "access_denied")
  /// `server_error` (RFC 6749 §4.1.2.1).
  public static let serverError = OAuthErrorCode(rawValue: "server_error")
  /// `temporarily_unavailable` (RFC 6749 §4.1.2.1).
  public static let temporarilyUnavailable = OAuthErrorCode(rawValue: "temporarily_unavailable")
  /// `authorization_pending` (RFC 8628 §3.5): the user has not finished yet; keep polling.
  public static let authorizationPending = OAuthErrorCode(rawValue: "authorization_pending")
  /// `slow_down` (RFC 8628 §3.5): poll 5 seconds less often from now on.
  public static let slowDown = OAuthErrorCode(rawValue: "slow_down")
  /// `expired_token` (RFC 8628 §3.5): the device code expired.
  public static let expiredToken = OAuthErrorCode(rawValue: "expired_token")
  /// `unsupported_token_type` (RFC 7009 §2.2.1).
  public static let unsupportedTokenType = OAuthErrorCode(rawValue: "unsupported_token_type")
  /// `invalid_token` (RFC 6750 §3.1); Google's revocation endpoint answers it for a token that
  /// is already expired or revoked.
  public static let invalidToken = OAuthErrorCode(rawValue: "invalid_token")
  /// `use_dpop_nonce` (RFC 9449 §8): send the proof again with the server's `DPoP-Nonce`.
  public static let useDPoPNonce = OAuthErrorCode(rawValue: "use_dpop_nonce")
  /// `invalid_dpop_proof` (RFC 9449 §5, §7.1): the DPoP proof was refused.
  public static let invalidDPoPProof = OAuthErrorCode(rawValue: "invalid_dpop_proof")
  /// Simkl's `secret_error`: PKCE verification failed, and the code is used up.
  public static let secretError = OAuthErrorCode(rawValue: "secret_error")
}
