import Foundation
import Testing

@testable import Commands

/// `list`'s dates (`InternetTime.text`) are written as `ISO8601DateFormatter` writes them,
/// character for character, however close a moment falls to the next second.
@Suite struct InternetTimeTests {
  static let moments: [TimeInterval] = [
    0, 1, 1_750_000_000, 1_750_000_000.25, 1.999999, 0.9995, 0.99949, 59.9996, 1_750_000_059.9995,
    1_750_000_059.9994, 86_399.9999, 951_782_400, 4_102_444_800.75, 253_402_300_799.9,
    253_402_300_800, -0.5, -0.0004, -1_000_000_000.0005, 1e12,
  ]

  @Test func writesWhatTheFormatterWrites() {
    let formatter = ISO8601DateFormatter()
    for seconds in Self.moments {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(InternetTime.text(date) == formatter.string(from: date), "\(seconds)")
    }
    // Moments within a millisecond of a whole second, where rounding matters.
    var generator = SystemRandomNumberGenerator()
    let differing = (0..<20_000).map { _ in
      let whole = Double(Int.random(in: 0...4_000_000_000, using: &generator))
      return Date(
        timeIntervalSince1970: whole + Double.random(in: -0.001...0.001, using: &generator))
    }.filter { InternetTime.text($0) != formatter.string(from: $0) }
    #expect(differing.isEmpty, "\(differing.prefix(5).map(\.timeIntervalSince1970))")
  }

  /// Any moment up to the year 9999, leap days and century years included, is written with
  /// the formatter's date and time.
  @Test func writesEveryDateOfTheCalendarAsTheFormatterDoes() {
    let formatter = ISO8601DateFormatter()
    let leapDays: [TimeInterval] = [
      68_169_600, 951_782_400, 4_107_542_400, 4_107_542_399, 13_574_563_200, 253_402_214_400,
      253_402_300_799,
    ]
    var generator = SystemRandomNumberGenerator()
    let moments =
      leapDays
      + (0..<20_000).map { _ in
        Double(Int.random(in: 0..<253_402_300_800, using: &generator))
          + Double.random(in: 0..<1, using: &generator)
      }
    let differing = moments.map { Date(timeIntervalSince1970: $0) }
      .filter { InternetTime.text($0) != formatter.string(from: $0) }
    #expect(differing.isEmpty, "\(differing.prefix(5).map(\.timeIntervalSince1970))")
  }
}
