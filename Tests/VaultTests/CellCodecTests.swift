import Foundation
import Testing

@testable import Vault

/// The text of sealed cells reads back as it always has: the standard library's UTF-8
/// decoding (`CellCodec.decodeText`) agrees with Foundation's `String(bytes:encoding:)`, which
/// it replaced for speed, on every kind of input, a leading byte order mark included.
@Suite struct CellCodecTests {
  static let inputs: [[UInt8]] = [
    [], Array("alice".utf8), Array("日本語のアカウント 🔑".utf8), [0x61, 0x00, 0x62],
    [0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0x61], [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x61],
    [0x61, 0xEF, 0xBB, 0xBF], [0xEF, 0xBB], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
    [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x61, 0x80, 0x62],
    Array("é".decomposedStringWithCanonicalMapping.utf8),
    // Longer than 64 bytes, as tokens are: the other path.
    Array(String(repeating: "eyJhbGciOi", count: 60).utf8),
    [0xEF, 0xBB, 0xBF] + Array(String(repeating: "t", count: 65).utf8),
    Array(String(repeating: "t", count: 65).utf8) + [0x80],
    Array(String(repeating: "t", count: 300).utf8) + [0xED, 0xA0, 0x80] + Array("end".utf8),
    Array(String(repeating: "日本語", count: 30).utf8), Array(repeating: 0, count: 70),
  ]

  @Test(arguments: inputs)
  func textReadsAsFoundationReadIt(bytes: [UInt8]) {
    #expect(CellCodec.decodeText(bytes) == String(bytes: bytes, encoding: .utf8))
  }

  @Test func listsOfTextReadAsFoundationReadThem() {
    for bytes in Self.inputs {
      let list = CellCodec.bigEndian(UInt32(bytes.count)) + bytes + CellCodec.encode(["x"])
      let expected = String(bytes: bytes, encoding: .utf8).map { [$0, "x"] }
      #expect(CellCodec.decodeList(list) == expected, "\(bytes)")
    }
  }

  @Test func optionalValuesReadBack() {
    let date = Date(timeIntervalSinceReferenceDate: 123_456.789)
    let interval = DateInterval(start: date, duration: 604_800)
    #expect(CellCodec.decodeOptionalDate(CellCodec.encode(date, CellCodec.encode)) == .some(date))
    #expect(
      CellCodec.decodeOptionalInterval(CellCodec.encode(interval, CellCodec.encode))
        == .some(interval))
    #expect(CellCodec.decodeOptionalText(CellCodec.encode("ok", CellCodec.encode)) == .some("ok"))
    #expect(CellCodec.decodeOptionalText([0]) == .some(nil))
    #expect(CellCodec.decodeOptionalText([0, 0]) == nil)
    #expect(CellCodec.decodeOptionalText([1, 0xFF]) == nil)
    #expect(CellCodec.decodeOptionalDate([1, 0, 0]) == nil)
  }
}
