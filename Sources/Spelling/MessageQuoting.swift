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
}
