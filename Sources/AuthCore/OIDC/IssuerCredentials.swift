import Foundation

/// A user name, and perhaps a password, in an issuer URL (`https://alice:pw@id.example.com`):
/// URLSession would send them as HTTP Basic credentials with every discovery request, and
/// every message that names the issuer would repeat them. An issuer URL holds neither (OIDC
/// Discovery §2 names scheme, host, port and path only), so such a URL is refused before any
/// request, in words that never show the password.
public struct IssuerCredentials: Sendable, Equatable {
  /// The user name as it is written in the URL, or `…` when it is too long to be a name (a
  /// token given as a user name, as in `https://TOKEN@host`, is a secret too).
  public let user: String
  /// True when a password follows the user name.
  public let hasPassword: Bool

  /// The user part of `issuer`'s authority (between `://` and the first `/`, `?` or `#`, up
  /// to its last `@`), or nil when it has none. Read from the text, not from `URL`, so that a
  /// URL that `URL` cannot parse is caught too.
  public init?(issuer: String) {
    guard let start = issuer.range(of: "://") else { return nil }
    let authority = issuer[start.upperBound...].prefix { !"/?#".contains($0) }
    guard let at = authority.lastIndex(of: "@") else { return nil }
    let userInfo = authority[..<at]
    let name = userInfo.prefix { $0 != ":" }
    hasPassword = name.count < userInfo.count
    user =
      name.count <= Self.longestShownUser
        && name.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }
      ? String(name) : "…"
  }

  /// The longest user name shown; a longer one is more likely a token than a name.
  static let longestShownUser = 24

  /// What to remove, the password elided: `alice:…@`, or `alice@` without one.
  public var shown: String { user + (hasPassword ? ":…" : "") + "@" }

  /// "names a user and password in the URL: …; remove `alice:…@`", the rest of a sentence
  /// whose subject is the issuer URL.
  public var problem: String {
    hasPassword
      ? "names a user and password in the URL, which an issuer URL never holds (they would be "
        + "sent to the server): remove `\(shown)`"
      : "names a user in the URL, which an issuer URL never holds (it would be sent to the "
        + "server): remove `\(shown)`"
  }
}
