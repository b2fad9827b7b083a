/// Text from outside authtui (a provider's file or answer, the agent, git, the vault of an
/// older version) made safe to reach a terminal: the one place that says which characters may
/// not, as OpenSSH prints banners and host names it did not write (`snmprintf()` in `utf8.c`).
///
/// A terminal acts on control characters instead of showing them (ESC starts a sequence that
/// can retitle the window, move the cursor or fill the clipboard; BEL rings; CR overwrites
/// the line), and the Unicode direction controls reorder the text after them, so a provider
/// name or an error message could read as something it is not. Each such character is shown
/// as a visible escape (`\u{1B}`) instead, so the reader sees that it was there.
///
/// The command line cleans what it prints (`Console`); the UI's `ScreenBuffer` draws each
/// grapheme holding one as U+FFFD, as a cell holds one grapheme. Machine outputs (a token,
/// git's answer, JSON) are not cleaned: they stay exact, and are checked or escaped instead.
public enum TerminalText {
  /// True for a scalar that must not reach a terminal as it is: the C0 controls (U+0000–U+001F),
  /// DEL, the C1 controls (U+0080–U+009F), and the direction controls (U+061C, U+200E, U+200F,
  /// U+202A–U+202E, U+2066–U+2069).
  public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
    return isDirectionControl(value)
  }

  /// True for a scalar that does not show, or reorders what follows it: a control character,
  /// a line or paragraph separator, a bidirectional control, or a format character (a byte
  /// order mark, a zero-width space, a soft hyphen…) other than the zero-width joiner that
  /// emoji sequences such as 👩‍💻 are made with. A name a person types and reads back (an
  /// account label, a provider's display name) holds none: it is refused, not cleaned, so
  /// that what is stored is what was meant.
  public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    let category = scalar.properties.generalCategory
    return category == .control || category == .lineSeparator
      || category == .paragraphSeparator || scalar.properties.isBidiControl
      || (category == .format && scalar != zeroWidthJoiner)
  }

  private static let zeroWidthJoiner: Unicode.Scalar = "\u{200D}"

  /// The marks, embeddings, overrides and isolates of the Unicode bidirectional algorithm
  /// (UAX #9): they take no column and reorder the characters around them.
  static func isDirectionControl(_ value: UInt32) -> Bool {
    value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
      || (0x2066...0x2069).contains(value)
  }

  /// `text` with every unsafe scalar except those in `allowed` written as `\u{1B}` (its
  /// hexadecimal number in braces). `allowed` holds what the place allows: a line break and a
  /// tab in a message of several lines, nothing in a table cell or a one-line field.
  public static func cleaned(_ text: some StringProtocol, keeping allowed: Set<Unicode.Scalar> = [])
    -> String
  {
    let unwanted = { (scalar: Unicode.Scalar) in isUnsafe(scalar) && !allowed.contains(scalar) }
    guard text.unicodeScalars.contains(where: unwanted) else { return String(text) }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if unwanted(scalar) {
        result.append(contentsOf: escaped(scalar).unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// Line breaks and tabs: what a message of several lines keeps.
  public static let lineBreaksAndTabs: Set<Unicode.Scalar> = ["\n", "\t"]

  /// True when `text` holds no unsafe scalar at all: a token or another value that goes out
  /// exactly as it is, and is refused rather than cleaned.
  public static func isClean(_ text: some StringProtocol) -> Bool {
    !text.unicodeScalars.contains(where: isUnsafe)
  }

  /// `\u{1B}`: how an unsafe scalar is shown.
  static func escaped(_ scalar: Unicode.Scalar) -> String {
    "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
  }
}
