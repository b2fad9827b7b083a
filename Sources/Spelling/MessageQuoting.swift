/// A name or value from a user's file, quoted for an error message: cut to a readable length
/// and with invisible characters escaped, so a hostile file cannot flood a terminal or send it
/// escape sequences through authtui's messages.
public enum MessageQuoting {
  /// The characters that reorder text on screen (U+202A–U+202E, U+2066–U+2069), which could
  /// make a message read as something else.
  static let bidiControls: Set<UInt32> = [
    0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
  ]

  /// `text` in `quote`s, at most `limit` characters of it (then `…`), with control and bidi
  /// characters written as `\u{1B}`.
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
      let invisible = character.unicodeScalars.contains { scalar in
        scalar.properties.generalCategory == .control || bidiControls.contains(scalar.value)
      }
      if invisible {
        result += character.unicodeScalars.map {
          "\\u{\(String($0.value, radix: 16, uppercase: true))}"
        }
        .joined()
      } else {
        result.append(character)
      }
    }
    return result
  }
}
