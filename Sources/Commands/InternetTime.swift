import Foundation

/// A moment as `ISO8601DateFormatter` writes it by default (`2026-12-02T10:23:12Z`, RFC 3339
/// in UTC, whole seconds), written by hand for the years 1970 to 9999, without a formatter
/// call for each: `list` writes one or two for each of possibly thousands of accounts.
enum InternetTime {
  /// From 1970 up to the end of year 9999, where both write four-digit years.
  private static let plainRange: Range<TimeInterval> = 0..<253_402_300_800

  /// `ISO8601DateFormatter().string(from: date)`, character for character.
  static func text(_ date: Date) -> String {
    guard plainRange.contains(date.timeIntervalSince1970) else {
      return ISO8601DateFormatter().string(from: date)
    }
    // The formatter (ICU) first takes the moment to the nearest millisecond since 1970,
    // halves upwards, then drops the milliseconds.
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down))
    return text(secondsSince1970: milliseconds / 1000)
  }

  /// `seconds` (at least 0, before the year 10000) in the proleptic Gregorian calendar, UTC,
  /// written out by hand: the date from the day count as in Howard Hinnant's
  /// `civil_from_days` (days since 1970 shifted to an era of 400 years that begins on
  /// 1 March, so the leap day falls last).
  private static func text(secondsSince1970 seconds: Int64) -> String {
    let days = seconds / 86_400
    let secondOfDay = Int(seconds % 86_400)
    let shifted = days + 719_468
    let era = shifted / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
    let month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
    let year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    return String(unsafeUninitializedCapacity: 20) { text in
      func put(_ value: Int, digits: Int, at offset: Int) {
        var rest = value
        for place in stride(from: offset + digits - 1, through: offset, by: -1) {
          text[place] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
      }
      put(year, digits: 4, at: 0)
      text[4] = UInt8(ascii: "-")
      put(month, digits: 2, at: 5)
      text[7] = UInt8(ascii: "-")
      put(day, digits: 2, at: 8)
      text[10] = UInt8(ascii: "T")
      put(secondOfDay / 3600, digits: 2, at: 11)
      text[13] = UInt8(ascii: ":")
      put(secondOfDay / 60 % 60, digits: 2, at: 14)
      text[16] = UInt8(ascii: ":")
      put(secondOfDay % 60, digits: 2, at: 17)
      text[19] = UInt8(ascii: "Z")
      return 20
    }
  }
}
