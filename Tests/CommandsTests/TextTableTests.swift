import Spelling
import Testing

@testable import Commands

/// The command line's tables (`TextTable.render`): columns padded by terminal columns, two
/// spaces between them, nothing at either end of a line.
@Suite struct TextTableTests {
  @Test func padsEachColumnToItsWidestCell() {
    let table = TextTable.render(
      header: ["ID", "NAME", "STATE"],
      rows: [["simkl", "Simkl", "ready"], ["hivesigner", "Hivesigner", "needs a client id"]])
    #expect(
      table == """
        ID          NAME        STATE
        simkl       Simkl       ready
        hivesigner  Hivesigner  needs a client id
        """)
  }

  @Test func emptyLastCellsLeaveNoTrailingSpaces() {
    let table = TextTable.render(
      header: ["ACCOUNT", "SCOPES", "NOTE"], rows: [["work/alice", "", ""], ["b", "x", " "]])
    #expect(table == "ACCOUNT     SCOPES  NOTE\nwork/alice\nb           x")
  }

  @Test func whitespaceAtEitherEndOfALineGoesUnicodeSpacesToo() {
    // U+3000, the ideographic space, is two columns wide and whitespace (Zs).
    let table = TextTable.render(
      header: ["A", "B", "C"], rows: [["\u{3000}x", "y", "\u{3000}"], [" a", "b", " "]])
    #expect(table == "A    B  C\nx  y\na   b")
  }

  @Test func wideCharactersAndEscapesAreMeasuredAsTheyShow() {
    let table = TextTable.render(
      header: ["A", "B"],
      rows: [["日本", "x"], ["🔑ab", "y"], ["a\u{1B}", "z"], ["e\u{301}", "w"]])
    let lines = table.split(separator: "\n").map(String.init)
    // The second column starts at the same terminal column on every line.
    let starts = lines.map { line in DisplayWidth.of(line.dropLast()) }
    #expect(starts.allSatisfy { $0 == starts[0] }, "\(lines)")
    #expect(lines[3].hasPrefix(#"a\u{1B}"#), "\(lines)")
  }
}
