/// How many terminal columns text occupies, so CJK and emoji labels keep columns aligned.
///
/// Follows the rules terminals and `wcwidth(3)` apply: combining marks, format characters and
/// zero-width joiners take no column; East Asian Wide and Fullwidth characters and emoji with
/// emoji presentation take two; everything else printable takes one.
public enum DisplayWidth {
  /// Columns taken by one scalar: 0, 1 or 2. Control characters count as 0: views never draw them.
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x7F { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format:
      return 0
    default:
      break
    }
    if value == 0x200B || (0xFE00...0xFE0F).contains(value) { return 0 }
    if scalar.properties.isEmojiPresentation || isEastAsianWide(value) { return 2 }
    return 1
  }

  /// Columns taken by a whole string, grapheme by grapheme: a grapheme takes the width of its
  /// widest scalar, so an emoji ZWJ sequence or a letter with accents is counted once.
  public static func of(_ text: some StringProtocol) -> Int {
    text.reduce(0) { total, character in total + of(character) }
  }

  /// Columns taken by one grapheme cluster.
  public static func of(_ character: Character) -> Int {
    var widest = 0
    for scalar in character.unicodeScalars {
      widest = max(widest, of(scalar))
    }
    // An emoji variation selector asks for emoji presentation (two columns).
    if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) {
      widest = max(widest, 2)
    }
    return widest
  }

  /// East Asian Wide (W) and Fullwidth (F) blocks of Unicode 15 (UAX #11), by range.
  private static func isEastAsianWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
      0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
      0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
      0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
      0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}
