import Foundation

/// A moment as `ISO8601DateFormatter` writes it by default (`2026-12-02T10:23:12Z`, RFC 3339
/// in UTC, whole seconds), at a tenth of its cost: `list` writes one or two for each of
/// possibly thousands of accounts.
enum InternetTime {
  private static let style = Date.ISO8601FormatStyle()
  /// From 1970 up to the end of year 9999, where both write four-digit years.
  private static let plainRange: Range<TimeInterval> = 0..<253_402_300_800

  /// `ISO8601DateFormatter().string(from: date)`, character for character.
  static func text(_ date: Date) -> String {
    guard plainRange.contains(date.timeIntervalSince1970) else {
      return ISO8601DateFormatter().string(from: date)
    }
    // The formatter (ICU) first takes the moment to the nearest millisecond since 1970,
    // halves upwards, then drops the milliseconds; the format style drops the fraction as it
    // is. Rounded alike, the two agree.
    let milliseconds = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
    return style.format(Date(timeIntervalSince1970: milliseconds / 1000))
  }
}
