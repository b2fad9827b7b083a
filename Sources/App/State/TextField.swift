/// One line of text the user types: a filter, a file path, a variable name, a passphrase, a
/// pasted URL. Editing happens at the end (typing appends, Backspace removes the last grapheme,
/// Ctrl-U clears), which is all these fields need.
public struct TextField: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// The text typed so far.
  public private(set) var text: String
  /// True for a passphrase: the screen shows one dot per character, descriptions show nothing.
  public let isSecret: Bool

  /// A field holding `text`.
  public init(_ text: String = "", isSecret: Bool = false) {
    self.text = text
    self.isSecret = isSecret
  }

  /// True when nothing is typed.
  public var isEmpty: Bool { text.isEmpty }

  /// Appends typed or pasted text; line breaks and other control characters are dropped (a
  /// field is one line).
  public mutating func insert(_ typed: String) {
    text += typed.filter { character in
      !character.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
    }
  }

  /// Removes the last grapheme.
  public mutating func deleteBackward() {
    if !text.isEmpty { text.removeLast() }
  }

  /// Empties the field.
  public mutating func clear() {
    text = ""
  }

  /// What the screen shows: the text, or a dot per character for a secret.
  public var shown: String {
    isSecret ? String(repeating: "•", count: text.count) : text
  }

  public var description: String { isSecret ? "TextField(secret)" : "TextField(\(text))" }
  public var customMirror: Mirror {
    isSecret ? Mirror(self, children: []) : Mirror(self, children: ["text": text])
  }
}
