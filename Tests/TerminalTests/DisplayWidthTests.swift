import Spelling
import Terminal
import Testing

/// Column widths, which decide alignment of CJK and emoji labels.
@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("abc", 3), ("日本語", 6), ("한국어", 6), ("ｶﾀｶﾅ", 4), ("ＡＢ", 4), ("🔑", 2), ("👍🏽", 2),
    ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("e\u{301}", 1), ("", 0), ("\u{200B}", 0),
  ])
  func measuresTextTheWayTerminalsDraw(text: String, columns: Int) {
    #expect(DisplayWidth.of(text) == columns)
  }

  @Test func joinedEmojiAreDrawnAsTheirFirstPart() {
    #expect(DisplayWidth.drawnScalars(of: "👨‍👩‍👧") == ["👨"])
    #expect(DisplayWidth.drawnScalars(of: "🇯🇵") == ["\u{1F1EF}", "\u{1F1F5}"])
    #expect(DisplayWidth.drawnScalars(of: "e\u{301}") == ["e", "\u{301}"])
  }
}
