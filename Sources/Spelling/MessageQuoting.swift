/// A name or value from a user's file, quoted for an error message: cut to a readable length
/// and with invisible characters escaped, so a hostile file cannot flood a terminal or send it
/// escape sequences through authtui's messages.
public enum MessageQuoting {
  /// `text` in `quote`s, at most `limit` characters of it (then `…`), with control and bidi
  /// characters written as `\u{1B}` (`TerminalText`).
  public static func quoted(_ text: String, quote: Character = "\"", limit: Int = 64) -> String {
    String(quote) + shown(text, limit: limit) + String(quote)
  }

  /// `text` as `quoted` shows it, without the quotes (for field names before a colon).
  public static func shown(_ text: String, limit: Int = 64) -> String {
    var result = ""
    var count = 0
    for character in text {
      guard count < limit else {
        result += "…"
        break
      }
      count += 1
      if character.unicodeScalars.contains(where: TerminalText.isUnsafe) {
        result += character.unicodeScalars.map { TerminalText.escaped($0) }.joined()
      } else {
        result.append(character)
      }
    }
    return result
  }

  /// `text` as one word of a command a message tells the user to run: as it is when every
  /// character is a letter, a digit, or one of `-_.@+` and `extra`; else in single quotes
  /// (`'it'\''s'`), which a POSIX shell takes as written. Control characters should be
  /// escaped first (`shown`): a message is text, not a script to paste blindly.
  public static func shellWord(_ text: String, keeping extra: String = "") -> String {
    let plain =
      !text.isEmpty
      && text.allSatisfy {
        $0.isLetter || $0.isNumber || "-_.@+".contains($0) || extra.contains($0)
      }
    guard !plain else { return text }
    return "'"
      + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
      + "'"
  }
}
