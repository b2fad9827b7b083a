import Spelling
import Terminal
import Testing

/// Writing into the buffer: clipping by display width, wide graphemes at edges, ellipsis.
@Suite struct ScreenBufferTests {
  private func buffer(columns: Int, rows: Int = 1) -> ScreenBuffer {
    ScreenBuffer(size: Size(rows: rows, columns: columns))
  }

  /// A ten-column row of `background`, with `text` written over it from `column` within
  /// `maxWidth` columns.
  private func overwriting(
    _ background: String, with text: String, atColumn column: Int = 0, maxWidth: Int,
    truncation: ScreenBuffer.Truncation = .clip
  ) -> ScreenBuffer {
    var screen = buffer(columns: 10)
    screen.write(background, at: .origin, role: .default)
    screen.write(
      text, at: Point(row: 0, column: column), role: "list", maxWidth: maxWidth,
      truncation: truncation)
    return screen
  }

  @Test func writesTextAndReturnsTheColumnAfterIt() {
    var screen = buffer(columns: 10)
    let end = screen.write("hello", at: Point(row: 0, column: 2), role: "list")
    #expect(end == 7)
    #expect(screen.textLines() == ["  hello"])
    #expect(screen.roleLines(legend: [.default: ".", "list": "l"]) == ["..lllll..."])
  }

  @Test func clipsAtTheRightEdge() {
    var screen = buffer(columns: 5)
    let end = screen.write("overflowing", at: Point(row: 0, column: 1), role: "list")
    #expect(end == 5)
    #expect(screen.textLines() == [" over"])
  }

  @Test func clipsAtMaxWidthWithoutTouchingCellsBeyondIt() {
    let screen = overwriting("xxxxxxxxxx", with: "abcdef", atColumn: 2, maxWidth: 3)
    #expect(screen.textLines() == ["xxabcxxxxx"])
  }

  @Test func endsLongTextWithAnEllipsisInsideItsRoom() {
    var screen = buffer(columns: 10)
    let end = screen.write(
      "account-name", at: .origin, role: "list", maxWidth: 6, truncation: .ellipsis)
    #expect(end == 6)
    #expect(screen.textLines() == ["accou…"])
  }

  @Test func leavesTextThatFitsAloneEvenWithEllipsis() {
    var screen = buffer(columns: 10)
    screen.write("short", at: .origin, role: "list", maxWidth: 6, truncation: .ellipsis)
    #expect(screen.textLines() == ["short"])
  }

  @Test func wideGraphemesTakeTwoCellsAndAppearOnceInText() {
    var screen = buffer(columns: 8)
    let end = screen.write("日本|", at: .origin, role: "list")
    #expect(end == 5)
    #expect(screen.textLines() == ["日本|"])
    #expect(screen[0, 0].grapheme == "日")
    #expect(screen[0, 1].isContinuation)
    #expect(screen[0, 2].grapheme == "本")
    #expect(screen[0, 4].grapheme == "|")
    #expect(screen.roleLines(legend: ["list": "l", .default: "."]) == ["lllll..."])
  }

  @Test func neverSplitsAWideGraphemeAtTheRightEdge() {
    var screen = buffer(columns: 5)
    screen.write("xxxxx", at: .origin, role: .default)
    let end = screen.write("ab日本", at: .origin, role: "list")
    #expect(end == 5)
    // "日" fits in columns 2–3; "本" would need columns 4–5, so column 4 is blanked.
    #expect(screen.textLines(trimmingTrailingSpaces: false) == ["ab日 "])
    #expect(!screen[0, 4].isContinuation)
    #expect(screen[0, 4].role == "list")
  }

  @Test func neverSplitsAWideGraphemeAtMaxWidth() {
    let screen = overwriting("|||||||||", with: "日本語", atColumn: 1, maxWidth: 3)
    #expect(screen.textLines() == ["|日 |||||"])
  }

  @Test func ellipsisAfterWideGraphemesKeepsTheRoomExactlyFilled() {
    let screen = overwriting("||||||||||", with: "日本語です", maxWidth: 6, truncation: .ellipsis)
    // "語" no longer fits before the ellipsis: "日本" (4 columns), "…", and one blank.
    #expect(screen.textLines() == ["日本… ||||"])
    #expect(DisplayWidth.of(screen.textLines()[0]) == 10)
  }

  @Test func cjkAndEmojiLabelsLineUpWithAsciiColumns() {
    var screen = buffer(columns: 20, rows: 3)
    let labels = ["alice", "山田太郎", "🔑 keys"]
    for (row, label) in labels.enumerated() {
      screen.write(label, at: Point(row: row, column: 0), role: "list", maxWidth: 10)
      screen.write("|valid", at: Point(row: row, column: 10), role: "badge.valid")
    }
    for line in screen.textLines() {
      let bar = line.firstIndex(of: "|").map { line[..<$0] } ?? ""
      #expect(DisplayWidth.of(bar) == 10, "\(line)")
    }
    #expect(screen.textLines() == ["alice     |valid", "山田太郎  |valid", "🔑 keys   |valid"])
  }

  @Test func overwritingHalfOfAWideGraphemeBlanksTheOtherHalf() {
    var screen = buffer(columns: 6)
    screen.write("日本語", at: .origin, role: "list")
    screen.write("x", at: Point(row: 0, column: 1), role: "status")
    #expect(screen.textLines() == [" x本語"])
    screen.write("y", at: Point(row: 0, column: 2), role: "status")
    #expect(screen.textLines() == [" xy 語"])
    #expect(!screen[0, 3].isContinuation)
  }

  @Test func writingAWideGraphemeOverTheStartOfAnotherBlanksItsRightHalf() {
    var screen = buffer(columns: 6)
    screen.write("x日本", at: .origin, role: "list")
    screen.write("語", at: Point(row: 0, column: 0), role: "list")
    // "語" covers columns 0–1, cutting "日" (1–2): its right half at column 2 becomes blank.
    #expect(screen.textLines() == ["語 本"])
  }

  @Test func controlCharactersShowAsReplacementCharacters() {
    var screen = buffer(columns: 12)
    screen.write("a\u{1B}[31mb\tc", at: .origin, role: .default)
    #expect(screen.textLines() == ["a�[31mb c"])
  }

  @Test func directionControlsAndC1ControlsShowAsReplacementCharacters() {
    // A provider's name "Evil ESC]0;title BEL RLO Name": nothing of it acts on the terminal,
    // and the right-to-left override shows instead of turning the rest of the line around.
    var screen = buffer(columns: 30)
    screen.write(
      "Evil\u{1B}]0;title\u{07} \u{202E}Name\u{2066}\u{200F}\u{9B}", at: .origin, role: .default)
    #expect(screen.textLines() == ["Evil�]0;title� �Name���"])
  }

  @Test func ignoresRowsOutsideTheBuffer() {
    var screen = buffer(columns: 4, rows: 1)
    #expect(screen.write("x", at: Point(row: 1, column: 0), role: .default) == 0)
    #expect(screen.write("x", at: Point(row: -1, column: 2), role: .default) == 2)
    #expect(screen.textLines() == [""])
  }

  @Test func fillRestyleAndClearCoverTheirRegionOnly() {
    var screen = buffer(columns: 5, rows: 3)
    screen.fill(Rect(row: 1, column: 1, rows: 5, columns: 3), with: "#", role: "dialog")
    #expect(screen.textLines() == ["", " ###", " ###"])
    screen.restyle(Rect(row: 2, column: 0, rows: 1, columns: 2), role: "list.selected")
    #expect(
      screen.roleLines(legend: [.default: ".", "dialog": "d", "list": "l"])
        == [".....", ".ddd.", "lldd."])
    screen.clear()
    #expect(screen.textLines() == ["", "", ""])
  }

  @Test func fillingWithAWideGraphemeBlanksAnOddLastColumn() {
    var screen = buffer(columns: 5)
    screen.fill(Rect(row: 0, column: 0, rows: 1, columns: 5), with: "語", role: .default)
    #expect(screen.textLines(trimmingTrailingSpaces: false) == ["語語 "])
  }

  @Test func drawsABorderAlongTheEdgeOfARegion() {
    var screen = buffer(columns: 6, rows: 3)
    screen.drawBorder(Rect(row: 0, column: 0, rows: 3, columns: 5), role: "border")
    #expect(screen.textLines() == ["┌───┐", "│   │", "└───┘"])
  }

  @Test func roleLinesFallBackThroughTheDottedChainAndMarkUnknownRoles() {
    var screen = buffer(columns: 4)
    screen.write("a", at: .origin, role: "list.selected")
    screen.write("b", at: Point(row: 0, column: 1), role: "badge.valid")
    #expect(screen.roleLines(legend: ["list": "l"]) == ["l???"])
  }
}
