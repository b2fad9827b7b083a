import Foundation
import Terminal
import Testing
import Theme

/// The theme file format: palette, styles, fallback, and every error with its line.
@Suite struct ThemeParserTests {
  private func parse(_ text: String) throws(ThemeFileError) -> Theme {
    try Theme(parsing: text, name: "test", source: "test.theme")
  }

  /// The problem and line a text fails with.
  private func failure(_ text: String) -> (line: Int, problem: ThemeFileError.Problem)? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return (error.line, error.problem)
    }
  }

  @Test func readsPaletteNamesColoursAndAttributes() throws {
    let theme = try parse(
      """
      # a comment
      [palette]
      accent = 39   # trailing comments are fine
      night  = #1c1c1c

      [styles]
      default       = 252 night
      list.selected = bright-white accent bold underline
      status.hint   = dim
      title         = red default none
      """)
    #expect(theme.palette == ["accent": .indexed(39), "night": .indexed(234)])
    #expect(
      theme.style(for: .default) == Style(foreground: .indexed(252), background: .indexed(234)))
    #expect(
      theme.style(for: "list.selected")
        == Style(
          foreground: .indexed(15), background: .indexed(39), attributes: [.bold, .underline]))
    #expect(theme.style(for: "status.hint") == Style(attributes: [.dim]))
    #expect(theme.style(for: "title") == Style(foreground: .indexed(1)))
  }

  @Test func readsAFileWithCRLFLineEndsAsItsLFTwin() throws {
    let text =
      "# saved on Windows\n[palette]\naccent = 39\n\n[styles]\nlist.selected = white accent bold\n"
    let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
    #expect(try parse(crlf) == parse(text))
    #expect(failure("[styles]\r\nnot.a.role = red\r\n")?.line == 2)
  }

  @Test func rolesFallBackToTheirParentThenDefault() throws {
    let theme = try parse(
      """
      [styles]
      default = white black
      list = yellow black
      """)
    #expect(theme.style(for: "list.selected") == theme.style(for: "list"))
    #expect(theme.style(for: "badge.valid") == theme.style(for: .default))
    #expect(try parse("").style(for: "list") == .plain)
  }

  @Test func thePaletteMayComeAfterTheStyles() throws {
    let theme = try parse(
      """
      [styles]
      title = accent default
      [palette]
      accent = 33
      """)
    #expect(theme.style(for: "title").foreground == .indexed(33))
  }

  @Test func anUnknownRoleIsAnErrorWithItsLineAndASuggestion() {
    let text = """
      [styles]
      default = white black
      list.selectd = black white
      """
    #expect(failure(text)?.line == 3)
    #expect(failure(text)?.problem == .unknownRole("list.selectd", suggestion: "list.selected"))
    do {
      _ = try parse(text)
    } catch {
      #expect(
        error.description
          == "test.theme:3: unknown role \"list.selectd\" (did you mean \"list.selected\"? the "
          + "roles are listed in docs/configuration.md \"Themes and keys\" and in Themes/default.theme)"
      )
    }
  }

  @Test func anUnknownColourIsAnErrorThatListsWhatIsAllowed() {
    let text = "[styles]\n\ntitle = purple black"
    #expect(failure(text)?.line == 3)
    #expect(failure(text)?.problem == .unknownColor("purple", suggestion: nil))
    #expect(
      ThemeFileError.Problem.unknownColor("purple", suggestion: nil).description
        == "unknown colour \"purple\" (use default, black, red, green, yellow, blue, magenta, "
        + "cyan, white, bright-red (and the other bright- names), a number 0–255, #rrggbb, or a "
        + "name from [palette])")
    #expect(failure("[styles]\ntitle = 256")?.problem == .unknownColor("256", suggestion: nil))
    #expect(failure("[styles]\ntitle = bleu")?.problem == .unknownColor("bleu", suggestion: "blue"))
  }

  @Test func aMisspeltAttributeIsAnError() {
    #expect(
      failure("[styles]\ntitle = red blue bld")?.problem
        == .unknownAttribute("bld", suggestion: "bold"))
    #expect(
      ThemeFileError.Problem.unknownAttribute("bld", suggestion: "bold").description
        == "unknown attribute \"bld\" (did you mean \"bold\"? the attributes are bold, dim, "
        + "underline, reverse, italic)")
  }

  @Test func moreThanTwoColoursIsAnError() {
    let result = failure("[styles]\ntitle = red blue green")
    #expect(result?.line == 2)
    #expect(result?.problem == .tooManyColors("red blue green"))
  }

  @Test func anEmptyStyleIsAnError() {
    #expect(failure("[styles]\ntitle =")?.problem == .emptyStyle("title"))
  }

  @Test func aRoleStyledTwiceNamesTheFirstLine() {
    let result = failure("[styles]\ntitle = red\n# again\ntitle = blue")
    #expect(result?.line == 4)
    #expect(result?.problem == .duplicateRole("title", firstLine: 2))
  }

  @Test func anUnknownSectionIsAnError() {
    let result = failure("[colours]\naccent = 1")
    #expect(result?.line == 1)
    #expect(result?.problem == .unknownSection("colours"))
    #expect(
      result?.problem.description
        == "unknown section [colours]; a theme has only [palette] and [styles]")
  }

  @Test func anEntryBeforeAnySectionIsAnError() {
    let result = failure("# header\ntitle = red")
    #expect(result?.line == 2)
    #expect(result?.problem == .outsideSection)
  }

  @Test func aLineWithoutAnEqualsSignIsAnError() {
    let result = failure("[styles]\ntitle red")
    #expect(result?.line == 2)
    #expect(result?.problem == .notAnEntry("title red"))
  }

  @Test func paletteNamesMustBeNewWordsAndUnique() {
    #expect(failure("[palette]\nbold = 1")?.problem == .unusablePaletteName("bold"))
    #expect(failure("[palette]\nred = 1")?.problem == .unusablePaletteName("red"))
    #expect(failure("[palette]\n9lives = 1")?.problem == .unusablePaletteName("9lives"))
    #expect(
      failure("[palette]\naccent = 1\naccent = 2")?.problem
        == .duplicatePaletteName("accent", firstLine: 2))
    #expect(failure("[palette]\naccent = 1 2")?.problem == .paletteNeedsOneColor("1 2"))
  }
}
