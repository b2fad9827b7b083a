import Foundation
import JSON
import Spelling

/// A successful token-endpoint answer (RFC 6749 §5.1), or the tokens a PIN flow delivers.
///
/// An immutable value that maps the wire one to one; members AuthCore does not know, such as
/// Hivesigner's `username`, stay in `additionalParameters`. `description` never shows a token.
public struct TokenResponse: Sendable, Equatable, CustomStringConvertible {
  /// The access token (`access_token`, RFC 6749 §5.1).
  public let accessToken: String
  /// The token type (`token_type`, RFC 6749 §7.1), as the provider wrote it: `Bearer` in
  /// practice, `DPoP` for a token bound to the client's key (RFC 9449 §5), absent at
  /// Hivesigner.
  public let tokenType: String?
  /// Seconds the access token lives from `receivedAt` (`expires_in`, RFC 6749 §5.1), at most
  /// ten years (`maximumLifetime`); nil when the answer does not say, or says nothing that is
  /// a number of seconds.
  public let expiresIn: TimeInterval?
  /// What `expires_in` said when it was more than ten years (a provider's `1e300`), which
  /// `expiresIn` was cut to: the user is told. Nil when it was believed.
  public let implausibleExpiresIn: TimeInterval?
  /// The refresh token (`refresh_token`, RFC 6749 §5.1, §6). After a refresh without rotation
  /// this is the refresh token that was used.
  public let refreshToken: String?
  /// Seconds the refresh token lives from `receivedAt`, as the answer says
  /// (`refresh_token_expires_in`, GitHub's expiring user tokens). Nil when it does not say, says
  /// 0 or less (read as the provider file's 0: no known end), or has no refresh token.
  public let refreshTokenExpiresIn: TimeInterval?
  /// Seconds the refresh token lives by the provider file (`refresh_token_lifetime`), for a
  /// provider that ends refresh tokens without saying so in its answers (Google's apps in
  /// "Testing"). Nil when the answer has no refresh token.
  public let refreshTokenLifetime: TimeInterval?
  /// The granted scope, space-separated (`scope`, RFC 6749 §3.3, §5.1).
  public let scope: String?
  /// The OpenID Connect ID token (`id_token`, OIDC Core §3.1.3.3), not yet validated.
  public let idToken: String?
  /// Every other member of the answer, by name (`username` at Hivesigner).
  public let additionalParameters: [String: JSONValue]
  /// When the answer arrived, by the injected clock.
  public let receivedAt: Date

  /// A response from its parts.
  public init(
    accessToken: String, tokenType: String? = "bearer", expiresIn: TimeInterval? = nil,
    refreshToken: String? = nil, refreshTokenExpiresIn: TimeInterval? = nil,
    refreshTokenLifetime: TimeInterval? = nil, scope: String? = nil, idToken: String? = nil,
    additionalParameters: [String: JSONValue] = [:], receivedAt: Date
  ) {
    self.accessToken = accessToken
    self.tokenType = tokenType
    (self.expiresIn, self.implausibleExpiresIn) = Self.accessLifetime(expiresIn)
    self.refreshToken = refreshToken
    self.refreshTokenExpiresIn = Self.lifetime(refreshTokenExpiresIn, of: refreshToken)
    self.refreshTokenLifetime = Self.lifetime(refreshTokenLifetime, of: refreshToken)
    self.scope = scope
    self.idToken = idToken
    self.additionalParameters = additionalParameters
    self.receivedAt = receivedAt
  }

  /// Reads a token answer's JSON members; fails when `access_token` is missing or empty.
  /// `refreshTokenLifetime` is what the provider file says of a refresh token the answer gives
  /// no `refresh_token_expires_in` for.
  public init(
    json: [String: JSONValue], receivedAt: Date, refreshTokenLifetime: TimeInterval? = nil
  ) throws(AuthError) {
    guard let accessToken = json["access_token"]?.stringValue, !accessToken.isEmpty else {
      throw .malformedResponse("the answer has no access_token")
    }
    let refreshToken = json["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    // RFC 6749 §A.12 and §A.17: a token is visible ASCII. One with a control character would
    // end a header or an env file line early, or reach a terminal through `authtui token`.
    for (name, token) in [("access_token", accessToken), ("refresh_token", refreshToken)] {
      guard let token, !TerminalText.isClean(token) else { continue }
      throw .malformedResponse("the \(name) holds control characters, which no token may hold")
    }
    self.accessToken = accessToken
    self.tokenType = json["token_type"]?.stringValue
    (self.expiresIn, self.implausibleExpiresIn) = Self.accessLifetime(
      json["expires_in"]?.numberValue)
    self.refreshToken = refreshToken
    self.refreshTokenExpiresIn = Self.lifetime(
      json["refresh_token_expires_in"]?.numberValue, of: refreshToken)
    self.refreshTokenLifetime = Self.lifetime(refreshTokenLifetime, of: refreshToken)
    self.scope = json["scope"]?.stringValue
    self.idToken = json["id_token"]?.stringValue
    self.additionalParameters = json.filter { !Self.standardMembers.contains($0.key) }
    self.receivedAt = receivedAt
  }

  /// The members RFC 6749 §5.1 and OIDC Core §3.1.3.3 define, and GitHub's
  /// `refresh_token_expires_in`, which this type reads too.
  static let standardMembers: Set<String> = [
    "access_token", "token_type", "expires_in", "refresh_token", "scope", "id_token",
    "refresh_token_expires_in",
  ]

  /// When the access token expires (`receivedAt + expires_in`), or nil when the provider did
  /// not say.
  public var expiresAt: Date? { expiresIn.map { receivedAt.addingTimeInterval($0) } }

  /// A refresh token's lifetime when there is a refresh token and the lifetime is positive and
  /// finite (a quoted `"1e999"` reads as infinity), at most ten years, the provider file's own
  /// limit: no date far beyond that can be written, or read back, as a number of seconds.
  private static func lifetime(_ seconds: TimeInterval?, of refreshToken: String?)
    -> TimeInterval?
  {
    guard refreshToken != nil, let seconds, seconds.isFinite, seconds > 0 else { return nil }
    return min(seconds, maximumLifetime)
  }

  /// Ten years, in seconds: the longest lifetime authtui believes. The vault's `TokenSet` cuts
  /// a stored expiry to the same (`TokenSet.longestLifetime`).
  public static let maximumLifetime: TimeInterval = 315_360_000

  /// The access token's lifetime as believed, and as stated when that was not believed. Less
  /// than 0 is 0 (expired already); more than ten years (up to a quoted `"1e999"`, infinity)
  /// is ten years, since no date far beyond that can be shown or written as whole seconds;
  /// NaN (a quoted `"nan"`) says nothing.
  private static func accessLifetime(_ seconds: TimeInterval?) -> (TimeInterval?, TimeInterval?) {
    guard let seconds, !seconds.isNaN else { return (nil, nil) }
    guard seconds <= maximumLifetime else { return (maximumLifetime, seconds) }
    return (max(0, seconds), nil)
  }

  /// When the refresh token stops working (`receivedAt` plus the answer's lifetime, or else the
  /// provider file's), or nil when nobody said.
  public var refreshTokenExpiresAt: Date? {
    (refreshTokenExpiresIn ?? refreshTokenLifetime).map { receivedAt.addingTimeInterval($0) }
  }

  /// True when the access token is bound to the client's DPoP key (`token_type` `DPoP`,
  /// RFC 9449 §5, compared without regard to case): it is sent as `Authorization: DPoP` with
  /// a proof of that key, and is of no use without one.
  public var isDPoPBound: Bool { tokenType?.lowercased() == "dpop" }

  /// The granted scopes (`scope` split on spaces).
  public var scopes: [String] {
    scope.map { $0.split(separator: " ").map(String.init) } ?? []
  }

  /// Type, expiry, scope and which tokens are present; never a token or an unknown value.
  public var description: String {
    var parts = ["token_type: \(tokenType ?? "none")"]
    if let expiresAt {
      parts.append("expires_at: \(ISO8601DateFormatter().string(from: expiresAt))")
    }
    if let scope { parts.append("scope: \(scope)") }
    parts.append("access_token: <redacted>")
    parts.append("refresh_token: \(refreshToken == nil ? "none" : "<redacted>")")
    if let refreshTokenExpiresAt {
      parts.append(
        "refresh_token_expires_at: \(ISO8601DateFormatter().string(from: refreshTokenExpiresAt))")
    }
    if idToken != nil { parts.append("id_token: <redacted>") }
    if !additionalParameters.isEmpty {
      parts.append("other members: \(additionalParameters.keys.sorted().joined(separator: ", "))")
    }
    return "TokenResponse(\(parts.joined(separator: ", ")))"
  }
}
