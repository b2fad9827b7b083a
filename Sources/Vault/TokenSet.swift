import Foundation

/// The tokens an account holds (RFC 6749 §5.1 token response, OIDC Core §3.1.3.3), as stored.
///
/// `description`, `debugDescription` and `dump` say which tokens are present, never their value.
public struct TokenSet: Sendable, Equatable {
  /// The access token (`access_token`).
  public var accessToken: String?
  /// The refresh token (`refresh_token`); store the rotated one the provider returned, or carry
  /// the previous one over when the provider did not send a new one.
  public var refreshToken: String?
  /// The OIDC ID token (`id_token`), a JWT.
  public var idToken: String?
  /// The token type (`token_type`), usually `Bearer`.
  public var tokenType: String?
  /// The granted scopes (`scope`, split on spaces).
  public var scopes: [String]
  /// When the access token expires (`expires_in` added to `obtainedAt`), if the provider said.
  public var expiresAt: Date?
  /// When these tokens were received.
  public var obtainedAt: Date
  /// From when to when the refresh token works, when that is known: from the answer that
  /// brought it to its `refresh_token_expires_in`, or the provider file's
  /// `refresh_token_lifetime`. Nil when it has no known end, or there is no refresh token.
  public var refreshValidity: DateInterval?

  /// Every field given explicitly; absent tokens are nil. An expiry more than ten years after
  /// `obtainedAt` (or after the refresh token's start) is ten years after it
  /// (`longestLifetime`): how tokens read back that an older version stored with a provider's
  /// `expires_in` of 1e300, which no date arithmetic or whole number of seconds survives.
  public init(
    accessToken: String?, refreshToken: String? = nil, idToken: String? = nil,
    tokenType: String? = "Bearer", scopes: [String] = [], expiresAt: Date? = nil,
    obtainedAt: Date, refreshValidity: DateInterval? = nil
  ) {
    self.refreshValidity =
      refreshToken == nil
      ? nil
      : refreshValidity.map { validity in
        DateInterval(
          start: validity.start, end: Self.plausible(validity.end, after: validity.start))
      }
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.idToken = idToken
    self.tokenType = tokenType
    self.scopes = scopes
    self.expiresAt = expiresAt.map { Self.plausible($0, after: obtainedAt) }
    self.obtainedAt = obtainedAt
  }

  /// Ten years, in seconds: the longest a token is believed to live, as AuthCore's
  /// `TokenResponse.maximumLifetime` cuts a provider's `expires_in`.
  public static let longestLifetime: TimeInterval = 315_360_000

  /// `end`, or `start` plus `longestLifetime` when it is later than that (or not a date:
  /// compared as seconds, since `Date`'s `<=` holds for NaN).
  private static func plausible(_ end: Date, after start: Date) -> Date {
    end.timeIntervalSince(start) <= longestLifetime
      ? end : start.addingTimeInterval(longestLifetime)
  }

  /// True when the access token's expiry is the longest authtui believes: the provider's
  /// `expires_in` was cut to it (or stated it exactly), and the date means "a very long time".
  /// (A second's leeway: the date was computed by adding seconds to `obtainedAt`.)
  public var expiryWasCut: Bool {
    guard let expiresAt else { return false }
    return expiresAt.timeIntervalSince(obtainedAt) >= Self.longestLifetime - 1
  }

  /// No token at all: what an account that needs a new sign-in holds.
  public static func none(at date: Date) -> TokenSet {
    TokenSet(accessToken: nil, tokenType: nil, obtainedAt: date)
  }
}

extension TokenSet: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String {
    func presence(_ token: String?) -> String { token == nil ? "absent" : "present" }
    let expiry = expiresAt.map { ISO8601DateFormatter().string(from: $0) } ?? "unknown"
    return "TokenSet(access: \(presence(accessToken)), refresh: \(presence(refreshToken)),"
      + " id: \(presence(idToken)), type: \(tokenType ?? "none"),"
      + " scopes: \(scopes.joined(separator: " ")), expires: \(expiry)"
      + (refreshValidity.map { ", refresh expires: \(ISO8601DateFormatter().string(from: $0.end))" }
        ?? "") + ")"
  }

  public var debugDescription: String { description }

  public var customMirror: Mirror {
    Mirror(self, children: ["summary": description])
  }
}
