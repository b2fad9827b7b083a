import Foundation
import Spelling
import Testing

/// Trimming spaces and tabs as Foundation's `CharacterSet.whitespaces` does, without it.
@Suite struct HorizontalSpaceTests {
  @Test(arguments: [
    "", " ", "\t", "3600", " 3600 ", "\t 36 00\t", "\u{00A0}42\u{3000}", "\n3600\n", " \r\n x ",
    "\u{2009}\u{200A}", "é\u{0301} ", "\u{200B}x",
  ])
  func trimsWhatCharacterSetWhitespacesTrims(_ text: String) {
    #expect(text.trimmingHorizontalSpace == text.trimmingCharacters(in: .whitespaces))
    #expect(text[...].trimmingHorizontalSpace == text.trimmingCharacters(in: .whitespaces))
  }

  @Test func agreesOnEveryScalarOfTheBasicPlane() {
    let differing = (0..<0x1_0000).compactMap(Unicode.Scalar.init).filter { scalar in
      let text = String(scalar) + "x" + String(scalar)
      return text.trimmingHorizontalSpace != text.trimmingCharacters(in: .whitespaces)
    }
    #expect(differing.isEmpty, "\(differing.map { String($0.value, radix: 16) })")
  }
}
