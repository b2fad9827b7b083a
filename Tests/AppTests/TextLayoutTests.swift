import Foundation
import Testing

@testable import App

/// The small text tools of the views: durations, dates, wrapping and the large code font.
@Suite struct TextLayoutTests {
  @Test func durationsReadShortAndLineUp() {
    #expect(TimeText.duration(42.9) == "42s")
    #expect(TimeText.duration(245) == "4m 05s")
    #expect(TimeText.duration(3 * 3600 + 5 * 60) == "3h 05m")
    #expect(TimeText.duration(12 * 86400 + 4 * 3600) == "12d 04h")
    #expect(TimeText.duration(2 * 365 * 86400 + 15 * 86400) == "2y 15d")
    #expect(TimeText.duration(-5) == "0s")
  }

  @Test func countdownsRoundUpSoZeroMeansDone() {
    #expect(TimeText.countdown(299.2) == "5:00")
    #expect(TimeText.countdown(0.5) == "0:01")
    #expect(TimeText.countdown(0) == "0:00")
    #expect(TimeText.countdown(-3) == "0:00")
    #expect(TimeText.countdown(3723) == "1:02:03")
  }

  @Test func datesAreShownInTheConfiguredZone() throws {
    let zone = try #require(TimeZone(identifier: "Asia/Tokyo"))
    #expect(
      TimeText.date(Date(timeIntervalSince1970: 1_750_000_000), in: zone) == "2025-06-16 00:06")
  }

  @Test func wrappingBreaksAtSpacesAndInsideLongWordsByDisplayWidth() {
    #expect(TextWrap.lines("one two three", width: 7) == ["one two", "three"])
    #expect(TextWrap.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    #expect(TextWrap.lines("日本語のテキスト", width: 6) == ["日本語", "のテキ", "スト"])
    #expect(TextWrap.lines("a\nb", width: 10) == ["a", "b"])
  }

  @Test func theLargeCodeIsFourRowsAndSixColumnsACharacter() throws {
    let lines = try #require(BigText.lines("AB-1", width: 80))
    #expect(lines.count == 4)
    #expect(lines.allSatisfy { $0.count == 4 * 6 - 1 })
    #expect(lines[0].hasPrefix("▄▀▀▀▄ █▀▀▀▄"))
    // Too wide, or a character the font lacks: the caller shows the plain code instead.
    #expect(BigText.lines("ABCDEFGHIJKL", width: 60) == nil)
    #expect(BigText.lines("AB+1", width: 80) == nil)
  }
}
