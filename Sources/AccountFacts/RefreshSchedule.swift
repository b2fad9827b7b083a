import Foundation

/// When a token is refreshed ahead of its expiry, how a failed background refresh backs off,
/// and when an account that cannot be refreshed starts asking for a new sign-in: one schedule
/// for every process that keeps accounts fresh, so that together they make one refresh per
/// expiry (`AccountBook.refreshAhead` takes the cross-process lease).
public enum RefreshSchedule {
  /// The most a token is refreshed ahead of its expiry: five minutes.
  public static let maximumLead: TimeInterval = 300
  /// The first wait after a failed background refresh; each failure in a row doubles it.
  public static let firstRetry: TimeInterval = 30
  /// The longest wait between background attempts.
  public static let longestRetry: TimeInterval = 300
  /// The most ahead of its expiry an account that cannot be refreshed says "sign in again".
  public static let maximumNotice: TimeInterval = 3 * 86_400

  /// How long before expiry a token of `lifetime` is refreshed: when a quarter of its lifetime
  /// remains, and never earlier than five minutes before (a 1-hour token 5 minutes ahead, a
  /// 40-second one 10 seconds ahead).
  public static func lead(lifetime: TimeInterval) -> TimeInterval {
    min(max(lifetime, 0) / 4, maximumLead)
  }

  /// When a refreshable token obtained at `obtainedAt` and expiring at `expiresAt` is due for a
  /// refresh; nil when it does not expire.
  public static func refreshAt(obtainedAt: Date, expiresAt: Date?) -> Date? {
    guard let expiresAt else { return nil }
    return expiresAt.addingTimeInterval(-lead(lifetime: expiresAt.timeIntervalSince(obtainedAt)))
  }

  /// How long to wait after `failures` background refreshes failed in a row (1 after the
  /// first): 30 s, doubling, at most 5 minutes.
  public static func retryDelay(afterFailures failures: Int) -> TimeInterval {
    let doublings = min(max(failures, 1) - 1, 10)
    return min(firstRetry * Double(1 << doublings), longestRetry)
  }

  /// From when an account whose token cannot be refreshed says "sign in again before" its
  /// expiry: when a quarter of its lifetime remains, at most three days ahead (Hivesigner's
  /// 7-day token from its sixth day, Simkl's 5-year one three days before). Nil when it does
  /// not expire.
  public static func signInNoticeAt(obtainedAt: Date, expiresAt: Date?) -> Date? {
    guard let expiresAt else { return nil }
    let lifetime = max(expiresAt.timeIntervalSince(obtainedAt), 0)
    return expiresAt.addingTimeInterval(-min(lifetime / 4, maximumNotice))
  }

  /// By when an account needs a new sign-in, and from when it says so; nil when it never does.
  public struct SignInDeadline: Sendable, Equatable {
    /// Why the date is the last one.
    public enum Reason: Sendable, Equatable {
      /// The access token expires and there is no refresh token.
      case accessTokenExpires
      /// The refresh token stops working then (Google's "Testing" apps, GitHub's expiring
      /// user tokens): no refresh after it.
      case refreshTokenExpires
    }

    /// The last moment the tokens work without a new sign-in.
    public let date: Date
    /// From when the account says "sign in again before `date`" (`signInNoticeAt`'s rule).
    public let noticeAt: Date
    /// Why.
    public let reason: Reason
  }

  /// When an account must be signed in to again: for one that cannot be refreshed, when its
  /// access token expires; for one whose refresh token has a known end, that end. Nil when
  /// neither is known, so the account lasts until the provider says otherwise. Tokens obtained
  /// at an unknown time (an older agent's listing) count as long-lived: three days' notice.
  public static func signInDeadline(
    refreshable: Bool, obtainedAt: Date?, expiresAt: Date?, refreshValidity: DateInterval?
  ) -> SignInDeadline? {
    let obtainedAt = obtainedAt ?? .distantPast
    if refreshable {
      guard let refreshValidity,
        let noticeAt = signInNoticeAt(
          obtainedAt: refreshValidity.start, expiresAt: refreshValidity.end)
      else { return nil }
      return SignInDeadline(
        date: refreshValidity.end, noticeAt: noticeAt, reason: .refreshTokenExpires)
    }
    guard let expiresAt, let noticeAt = signInNoticeAt(obtainedAt: obtainedAt, expiresAt: expiresAt)
    else { return nil }
    return SignInDeadline(date: expiresAt, noticeAt: noticeAt, reason: .accessTokenExpires)
  }
}
