import AccountFacts
import Foundation
import Spelling

/// How durations and dates read on screen: short, fixed formats that line up in columns.
enum TimeText {
  /// `42s`, `4m 05s`, `3h 05m`, `12d 04h`, `2y 015d`.
  static func duration(_ interval: TimeInterval) -> String {
    let seconds = max(0, Int(clamping: interval.rounded(.down)))
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    switch seconds {
    case ..<60: return "\(seconds)s"
    case ..<3600: return "\(seconds / 60)m \(two(seconds % 60))s"
    case ..<86400: return "\(seconds / 3600)h \(two(seconds % 3600 / 60))m"
    case ..<(365 * 86400): return "\(seconds / 86400)d \(two(seconds % 86400 / 3600))h"
    default: return "\(seconds / (365 * 86400))y \(seconds % (365 * 86400) / 86400)d"
    }
  }

  /// A countdown: `4:05`, `1:02:03`; never negative.
  static func countdown(_ interval: TimeInterval) -> String {
    let seconds = max(0, Int(clamping: interval.rounded(.up)))
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    if seconds >= 3600 {
      return "\(seconds / 3600):\(two(seconds % 3600 / 60)):\(two(seconds % 60))"
    }
    return "\(seconds / 60):\(two(seconds % 60))"
  }

  /// The expiry column: `in 4m 05s`, `3m 10s ago`, `never`.
  static func expiry(of account: AccountSummary, now: Date) -> String {
    if account.needsSignIn || !account.hasAccessToken { return "—" }
    guard let expiresAt = account.expiresAt else { return "never" }
    let remaining = expiresAt.timeIntervalSince(now)
    return remaining > 0 ? "in " + duration(remaining) : duration(-remaining) + " ago"
  }

  /// `2025-03-01 14:05` in `timeZone`.
  static func date(_ date: Date, in timeZone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    func two(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : String(value)
    }
    return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) "
      + "\(two(parts.hour)):\(two(parts.minute))"
  }
}
