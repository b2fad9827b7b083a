import Foundation

/// What the account list shows for an account, and what `list --json` calls `status`.
public enum AccountStatus: String, Sendable, Equatable, CaseIterable {
  /// The access token has more than the expiring margin left (or never expires).
  case valid
  /// The access token expires within the margin.
  case expiring
  /// The access token has expired.
  case expired
  /// No usable token and no way to refresh: the user must sign in again.
  case signInNeeded = "sign_in_needed"

  /// How long before expiry an account counts as expiring: five minutes.
  public static let expiringMargin: TimeInterval = 300

  /// Classifies an account from its token facts at `now`.
  ///
  /// An expired token that can be refreshed is still `expired` (the list says so), while an
  /// account without an access token is `signInNeeded` whatever else it has.
  public static func classify(
    hasAccessToken: Bool, expiresAt: Date?, now: Date
  ) -> AccountStatus {
    guard hasAccessToken else { return .signInNeeded }
    guard let expiresAt else { return .valid }
    let remaining = expiresAt.timeIntervalSince(now)
    if remaining <= 0 { return .expired }
    return remaining <= expiringMargin ? .expiring : .valid
  }

  /// The words the UI and `list` show.
  public var label: String {
    switch self {
    case .valid: return "valid"
    case .expiring: return "expiring"
    case .expired: return "expired"
    case .signInNeeded: return "sign-in needed"
    }
  }
}
