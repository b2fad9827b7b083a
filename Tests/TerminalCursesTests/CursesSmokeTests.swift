import Foundation
import Spelling
import Terminal
import Testing

@testable import TerminalCurses

#if canImport(Glibc)
  import Glibc
#endif

/// The real curses back end without a terminal: `newterm` on /dev/null (or a pipe for keys),
/// draw, and read back what curses holds. Serialized: curses has one global screen.
@Suite(.serialized) struct CursesSmokeTests {
  /// Opens a screen writing to /dev/null, runs `body`, and always shuts it down.
  private func withScreen(
    term: String = "xterm-256color", colors: ColorMode = .automatic, inputFD: Int32? = nil,
    _ body: (CursesScreen) throws -> Void
  ) throws {
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    let screen = try CursesScreen(
      configuration: .init(
        term: term, inputFD: inputFD ?? null, outputFD: null, requiresTerminal: false,
        colors: colors, handlesSignals: false))
    defer { screen.shutdown() }
    try body(screen)
  }

  private func frame(_ size: Size, lines: [(String, Role)]) -> ScreenBuffer {
    var buffer = ScreenBuffer(size: size)
    for (row, line) in lines.enumerated() {
      buffer.write(line.0, at: Point(row: row, column: 0), role: line.1)
    }
    return buffer
  }

  @Test func refusesToStartWhenOutputIsNotATerminal() {
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    #expect(throws: CursesError.unusableTerminal(.notATerminal)) {
      try CursesScreen(configuration: .init(term: "xterm-256color", inputFD: null, outputFD: null))
    }
  }

  @Test func refusesAnUnknownTerminalTypeWithTheFix() {
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    #expect(throws: CursesError.unusableTerminal(.unknownTerm("no-such-terminal"))) {
      try CursesScreen(
        configuration: .init(
          term: "no-such-terminal", inputFD: null, outputFD: null, requiresTerminal: false,
          handlesSignals: false))
    }
    #expect(
      CursesError.unusableTerminal(.unknownTerm("no-such-terminal")).description
        == "this machine has no terminfo entry for TERM=no-such-terminal; install it (`apt-get "
        + "install ncurses-term`) or use a common type, for example `TERM=xterm-256color authtui`")
  }

  @Test func refusesATerminalThatCannotMoveItsCursor() {
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    for term in ["dumb"] {
      #expect(throws: CursesError.unusableTerminal(.cannotAddressCursor(term))) {
        try CursesScreen(
          configuration: .init(
            term: term, inputFD: null, outputFD: null, requiresTerminal: false,
            handlesSignals: false))
      }
    }
    #expect(TerminfoProbe.terminfoProblem("xterm-256color") == nil)
    #expect(TerminfoProbe.terminfoProblem("linux") == nil)
    #expect(
      CursesError.unusableTerminal(.cannotAddressCursor("dumb")).description
        == "a terminal of type TERM=dumb cannot move its cursor, which the interactive UI needs; "
        + "run `authtui` in a terminal emulator (in Emacs, `M-x term` rather than `M-x shell`), "
        + "or for scripts use `authtui list`, `authtui token ACCOUNT` or `authtui login PROVIDER`")
  }

  @Test func drawsCJKAndEmojiAndReadsThemBackAligned() throws {
    try withScreen { screen in
      let buffer = frame(
        screen.size,
        lines: [
          ("名前: 日本語のラベル|", "title"), ("🔑 key 👍 ok|", "list"), ("plain ascii|", "list"),
          ("한국어 ｶﾀｶﾅ Ａ|", "list"),
        ])
      screen.render(buffer) { _ in .plain }
      let drawn = screen.textLines()
      #expect(drawn.count == screen.size.rows)
      #expect(Array(drawn.prefix(4)) == Array(buffer.textLines().prefix(4)))
      #expect(drawn[0] == "名前: 日本語のラベル|")
      #expect(drawn[1] == "🔑 key 👍 ok|")
    }
  }

  @Test func redrawsNothingForAnUnchangedFrameAndOnlyChangedCellsOtherwise() throws {
    try withScreen { screen in
      let size = screen.size
      var buffer = frame(size, lines: [("status 日本", "status"), ("list", "list")])
      screen.render(buffer) { _ in .plain }
      // The first frame paints every cell but the two continuation cells.
      #expect(screen.lastRenderChangedCells == size.rows * size.columns - 2)
      screen.render(buffer) { _ in .plain }
      #expect(screen.lastRenderChangedCells == 0)
      buffer.write("X", at: Point(row: 1, column: 0), role: "list")
      screen.render(buffer) { _ in .plain }
      #expect(screen.lastRenderChangedCells == 1)
      buffer.write("語", at: Point(row: 0, column: 7), role: "status")
      screen.render(buffer) { _ in .plain }
      #expect(screen.lastRenderChangedCells == 1)
      #expect(screen.textLines()[0] == "status 語本")
      // A style change alone redraws the cells of that role.
      screen.render(buffer) { $0 == "list" ? Style(attributes: [.bold]) : .plain }
      #expect(screen.lastRenderChangedCells == 4)
      screen.invalidate()
      screen.render(buffer) { $0 == "list" ? Style(attributes: [.bold]) : .plain }
      #expect(screen.lastRenderChangedCells == size.rows * size.columns - 2)
    }
  }

  @Test func stylesCellsWithTheThemesColoursAndAttributes() throws {
    try withScreen { screen in
      #expect(screen.colorCount == 256)
      let buffer = frame(screen.size, lines: [("title", "title"), ("plain", .default)])
      let title = Style(foreground: .indexed(231), background: .indexed(18), attributes: [.bold])
      screen.render(buffer) { $0 == "title" ? title : .plain }
      let look = screen.drawnLook(row: 0, column: 0)
      #expect(look.attributes == [.bold])
      #expect(look.foreground == 231)
      #expect(look.background == 18)
      let plain = screen.drawnLook(row: 1, column: 0)
      #expect(plain.attributes.isEmpty)
      #expect(plain.foreground == -1)
      #expect(plain.background == -1)
    }
  }

  @Test func degradesColoursToTheBasicEightOnAnEightColourTerminal() throws {
    try withScreen(term: "xterm") { screen in
      #expect(screen.colorCount == 8)
      let buffer = frame(screen.size, lines: [("title", "title")])
      let title = Style(foreground: .indexed(231), background: .indexed(18), attributes: [.bold])
      screen.render(buffer) { _ in title }
      let look = screen.drawnLook(row: 0, column: 0)
      #expect(look.foreground == 7)
      #expect(look.background == 4)
      #expect(look.attributes == [.bold])
    }
  }

  @Test func aMonochromeScreenKeepsAttributesAndDropsColours() throws {
    try withScreen(colors: .monochrome) { screen in
      #expect(screen.colorCount == 0)
      let buffer = frame(screen.size, lines: [("selected", "list.selected")])
      screen.render(buffer) { _ in
        Style(foreground: .indexed(231), background: .indexed(26), attributes: [.reverse])
      }
      let look = screen.drawnLook(row: 0, column: 0)
      #expect(look.attributes == [.reverse])
      #expect(look.foreground == -1)
      #expect(look.background == -1)
    }
  }

  @Test func aSecondScreenIsRefusedWhileOneIsOpen() throws {
    try withScreen { _ in
      #expect(throws: CursesError.alreadyOpen) {
        try withScreen { _ in }
      }
    }
    // Once the first is shut down, a new one opens.
    try withScreen { screen in #expect(screen.size.rows > 0) }
  }

  @Test func decodesKeysEscapeSequencesAndABracketedPaste() throws {
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)
    defer { close(ends[1]) }
    let typed =
      "r" + "\u{12}" + "é" + "\r" + "\u{1B}OA" + "\u{1B}[Z" + "\u{1B}[15~" + "\u{7F}" + "\t"
      + "\u{1B}[200~one\r\ntwo\rthree\u{1B}[201~" + "\u{1B}"
    let bytes = Array(typed.utf8)
    #expect(write(ends[1], bytes, bytes.count) == bytes.count)
    try withScreen(inputFD: ends[0]) { screen in
      var events: [KeyEvent] = []
      for _ in 0..<11 {
        guard let event = screen.readEvent(timeout: .seconds(5)) else { break }
        events.append(event)
      }
      #expect(
        events == [
          .character("r"), .control("r"), .character("é"), .enter, .up, .backtab, .function(5),
          .backspace, .tab, .paste("one\ntwo\nthree"), .escape,
        ])
    }
    close(ends[0])
  }

  @Test func theCLibraryMeasuresLikeDisplayWidth() throws {
    CursesScreen.selectUTF8Locale()
    let samples: [Unicode.Scalar] = [
      "a", "~", "é", "\u{301}", "\u{200B}", "\u{FE0F}", "日", "語", "한", "ｶ", "Ａ", "🔑", "👍",
      "😀", "\u{1F1EF}", "─", "…", "�", "\u{1100}", "\u{1160}",
    ]
    for scalar in samples {
      #expect(
        CursesScreen.libraryWidth(of: scalar) == DisplayWidth.of(scalar),
        "U+\(String(scalar.value, radix: 16, uppercase: true))")
    }
  }
}
