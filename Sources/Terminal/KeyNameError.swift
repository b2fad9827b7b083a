import Spelling

/// Why a key name from the configuration could not be read; the message names the fix.
public enum KeyNameError: Error, Hashable, Sendable, CustomStringConvertible {
  /// An empty string.
  case empty
  /// Neither a single character nor a known key name.
  case unknown(String, suggestion: String?)
  /// `ctrl-` with something other than a letter.
  case controlNeedsLetter(String)
  /// `ctrl-i`, `ctrl-m`, `ctrl-h`, `ctrl-[`, `ctrl-j`: the terminal sends the same bytes as
  /// another key, which must be named instead.
  case controlIsAnotherKey(String, key: String)
  /// A function key outside F1–F24.
  case functionOutOfRange(String)
  /// Ctrl-C and Ctrl-Z: the terminal turns them into signals (interrupt, suspend) before any
  /// program sees a key.
  case takenByTerminal(String, purpose: String)

  public var description: String {
    switch self {
    case .empty:
      return "an empty key name; write a character such as \"r\" or a name such as \"enter\""
    case .unknown(let name, let suggestion):
      let hint = suggestion.map { "did you mean \"\($0)\"? " } ?? ""
      return
        "unknown key \(MessageQuoting.quoted(name)) (\(hint)keys are one character such as \"r\" or \"?\", "
        + "\"ctrl-\" and a letter, or one of: \(KeyEvent.keyNames.joined(separator: ", ")))"
    case .controlNeedsLetter(let name):
      return
        "key \(MessageQuoting.quoted(name)) cannot be typed: \"ctrl-\" goes with a letter a–z, as in \"ctrl-r\""
    case .controlIsAnotherKey(let name, let key):
      return
        "key \(MessageQuoting.quoted(name)) is the same key as \"\(key)\" on a terminal; write \"\(key)\" instead"
    case .functionOutOfRange(let name):
      return
        "key \(MessageQuoting.quoted(name)) does not exist; function keys go from \"f1\" to \"f24\""
    case .takenByTerminal(let name, let purpose):
      return
        "key \(MessageQuoting.quoted(name)) cannot be bound: the terminal uses it to \(purpose); choose another key"
    }
  }
}
