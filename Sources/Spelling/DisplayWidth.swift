/// How many terminal columns text occupies, so CJK and emoji labels keep columns aligned.
///
/// The widths follow `wcwidth(3)` of the C library, because that is what curses measures with
/// and what terminals and tmux follow: combining marks, format characters and zero-width
/// joiners take no column; East Asian Wide and Fullwidth characters and emoji with emoji
/// presentation take two; everything else printable takes one.
///
/// A grapheme cluster is measured by the scalars a back end actually draws for it
/// (`drawnScalars(of:)`): its first scalar and the zero-width marks that follow, or both halves
/// of a flag. Emoji sequences joined with ZWJ or skin-tone modifiers are drawn as their first
/// emoji, because terminals disagree on how wide the joined forms are and curses counts each
/// part; drawing the first part keeps every column after it where the layout put it.
public enum DisplayWidth {
  /// Columns taken by one scalar: 0, 1 or 2. Control characters count as 0: views never draw
  /// them (`ScreenBuffer` shows them as U+FFFD).
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x7F { return 1 }
    if isPrependedConcatenationMark(value) { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format:
      return 0
    default:
      break
    }
    if value == 0x200B || (0xFE00...0xFE0F).contains(value) || isConjoiningJamo(value) {
      return 0
    }
    // Regional indicators are one column each; a flag is a pair of them.
    if (0x1F1E6...0x1F1FF).contains(value) { return 1 }
    if scalar.properties.isEmojiPresentation || isEastAsianWide(value) { return 2 }
    return 1
  }

  /// Columns taken by a whole string: the sum of its graphemes' widths.
  public static func of(_ text: some StringProtocol) -> Int {
    text.reduce(0) { total, character in total + of(character) }
  }

  /// Columns taken by one grapheme cluster: the width of the scalars drawn for it.
  public static func of(_ character: Character) -> Int {
    drawnScalars(of: character).reduce(0) { $0 + of($1) }
  }

  /// The scalars a terminal back end draws for a grapheme: the first scalar plus the
  /// zero-width scalars right after it (accents, variation selectors), or both regional
  /// indicators of a flag. Whatever follows a zero-width joiner or a second visible scalar is
  /// left out (see the type's documentation).
  public static func drawnScalars(of character: Character) -> [Unicode.Scalar] {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return [] }
    var drawn = [first]
    var rest = scalars.dropFirst()
    if (0x1F1E6...0x1F1FF).contains(first.value), let second = rest.first,
      (0x1F1E6...0x1F1FF).contains(second.value)
    {
      drawn.append(second)
      rest = rest.dropFirst()
    }
    for scalar in rest {
      guard scalar.value != 0x200D, of(scalar) == 0 else { break }
      drawn.append(scalar)
    }
    return drawn
  }

  /// Format characters that print a visible sign ahead of a number (Arabic, Syriac, Kaithi).
  private static func isPrependedConcatenationMark(_ value: UInt32) -> Bool {
    switch value {
    case 0xAD, 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x110BD, 0x110CD:
      return true
    default:
      return false
    }
  }

  /// Hangul medial vowels and final consonants, which join the initial consonant's two columns.
  private static func isConjoiningJamo(_ value: UInt32) -> Bool {
    (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value)
  }

  /// East Asian Wide (W) and Fullwidth (F) blocks of Unicode 15 (UAX #11), by range.
  private static func isEastAsianWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
      0x3400...0x4DFF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
      0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
      0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x18D08, 0x1AFF0...0x1AFFE,
      0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}
