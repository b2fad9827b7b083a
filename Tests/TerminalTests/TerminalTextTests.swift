import Spelling
import Testing

/// The one cleaning of outside text before a terminal sees it, and the one safe conversion of
/// seconds to whole numbers.
@Suite struct TerminalTextTests {
  @Test func controlAndDirectionCharactersBecomeVisibleEscapes() {
    let name = "Evil\u{1B}]0;title\u{07} \u{202E}Name"
    #expect(TerminalText.cleaned(name) == #"Evil\u{1B}]0;title\u{7} \u{202E}Name"#)
    for scalar: Unicode.Scalar in [
      "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9B}", "\u{9F}", "\u{61C}", "\u{200E}",
      "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}",
      "\u{2067}", "\u{2068}", "\u{2069}",
    ] {
      #expect(TerminalText.isUnsafe(scalar), "U+\(String(scalar.value, radix: 16))")
      #expect(!TerminalText.cleaned("a\(scalar)b").unicodeScalars.contains(scalar))
      #expect(!TerminalText.isClean("a\(scalar)b"))
    }
  }

  @Test func printableTextStaysAsItIs() {
    for text in ["", "plain", "émile 🦊 日本", "a\u{200D}b", "e\u{301}", "\u{A0}x", "\u{2028}"] {
      #expect(TerminalText.cleaned(text) == text)
      #expect(TerminalText.isClean(text))
    }
  }

  @Test func aPlaceKeepsTheControlsItAllows() {
    let message = "line one\n\tline two\r\u{1B}[2J"
    #expect(
      TerminalText.cleaned(message, keeping: TerminalText.lineBreaksAndTabs)
        == "line one\n\tline two\\u{D}\\u{1B}[2J")
    #expect(TerminalText.cleaned(message) == #"line one\u{A}\u{9}line two\u{D}\u{1B}[2J"#)
  }

  @Test func secondsBeyondAnIntegersRangeClampInsteadOfCrashing() {
    #expect(Int(clamping: 1e300) == Int.max)
    #expect(Int(clamping: 9.3e18) == Int.max)
    #expect(Int(clamping: Double(Int.max)) == Int.max)
    #expect(Int(clamping: -1e300) == Int.min)
    #expect(Int(clamping: Double.infinity) == Int.max)
    #expect(Int(clamping: -Double.infinity) == Int.min)
    #expect(Int(clamping: Double.nan) == 0)
    #expect(Int(clamping: 42.9) == 42)
    #expect(Int(clamping: -42.9) == -42)
    #expect(Int32(clamping: 3e9) == Int32.max)
    #expect(Int32(clamping: 2_147_483_646.5) == 2_147_483_646)
    #expect(UInt64(clamping: -1.0) == 0)
    #expect(UInt64(clamping: 2e19) == UInt64.max)
  }
}
