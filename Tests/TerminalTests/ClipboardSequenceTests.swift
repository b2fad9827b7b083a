import Terminal
import Testing

@Suite struct ClipboardSequenceTests {
  @Test func osc52CarriesTheTextInBase64() {
    #expect(ClipboardSequence.osc52(copying: "token") == "\u{1B}]52;c;dG9rZW4=\u{07}")
  }
}
