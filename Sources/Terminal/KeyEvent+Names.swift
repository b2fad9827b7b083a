import Spelling

/// Key names: what `config.json` writes (`"ctrl-r"`, `"enter"`, `"?"`) and what help screens
/// show (`Ctrl-R`, `Enter`, `↑`).
extension KeyEvent {
  /// Named keys: the canonical config name first, then accepted aliases, and the help label.
  private static let namedKeys: [(names: [String], event: KeyEvent, display: String)] = [
    (["up"], .up, "↑"),
    (["down"], .down, "↓"),
    (["left"], .left, "←"),
    (["right"], .right, "→"),
    (["enter", "return"], .enter, "Enter"),
    (["esc", "escape"], .escape, "Esc"),
    (["backspace", "bs"], .backspace, "Backspace"),
    (["delete", "del"], .delete, "Del"),
    (["insert", "ins"], .insert, "Ins"),
    (["tab"], .tab, "Tab"),
    (["backtab", "shift-tab"], .backtab, "Shift-Tab"),
    (["home"], .home, "Home"),
    (["end"], .end, "End"),
    (["pageup", "pgup", "page-up"], .pageUp, "PgUp"),
    (["pagedown", "pgdn", "page-down"], .pageDown, "PgDn"),
    (["space"], .character(" "), "Space"),
  ]

  /// Every name `init(name:)` reads besides single characters, `ctrl-` letters and `f1`–`f24`.
  public static let keyNames: [String] =
    namedKeys.map { $0.names[0] } + ["f1…f24", "ctrl-a…ctrl-z"]

  /// Ctrl combinations that reach the program as another key.
  private static let controlAliases: [Character: String] = [
    "i": "tab", "m": "enter", "j": "enter", "h": "backspace", "[": "esc",
  ]

  /// Ctrl combinations the terminal turns into signals.
  private static let controlSignals: [Character: String] = [
    "c": "interrupt authtui", "z": "suspend authtui",
  ]

  /// Reads a key name from the configuration.
  ///
  /// One character stands for itself and is case-sensitive (`"r"`, `"R"`, `"?"`, `"/"`, `" "`);
  /// names are not (`"Enter"`, `"PGUP"`). `ctrl-r`, `ctrl+r` and `^r` are Ctrl-R; `f5` is F5.
  public init(name: String) throws(KeyNameError) {
    guard !name.isEmpty else { throw .empty }
    if name.count == 1, let character = name.first {
      guard ScreenBuffer.displayable(character) == character else {
        throw .unknown(name, suggestion: nil)
      }
      self = .character(character)
      return
    }
    let lowered = name.lowercased()
    if let named = Self.namedKeys.first(where: { $0.names.contains(lowered) }) {
      self = named.event
      return
    }
    for prefix in ["ctrl-", "ctrl+", "^"] where lowered.hasPrefix(prefix) {
      self = try Self.control(name: name, rest: String(lowered.dropFirst(prefix.count)))
      return
    }
    if lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()) {
      guard (1...24).contains(number) else { throw .functionOutOfRange(name) }
      self = .function(number)
      return
    }
    if lowered.hasPrefix("shift-"), lowered.count == "shift-".count + 1, let letter = name.last {
      throw .unknown(name, suggestion: letter.uppercased())
    }
    let candidates = Self.namedKeys.flatMap(\.names) + ["ctrl-" + lowered.suffix(1)]
    throw .unknown(name, suggestion: SpellingSuggestion.closest(to: lowered, among: candidates))
  }

  private static func control(name: String, rest: String) throws(KeyNameError) -> KeyEvent {
    guard rest.count == 1, let letter = rest.first else { throw .controlNeedsLetter(name) }
    if let other = controlAliases[letter] { throw .controlIsAnotherKey(name, key: other) }
    if let purpose = controlSignals[letter] { throw .takenByTerminal(name, purpose: purpose) }
    guard letter.isASCII, letter.isLetter else { throw .controlNeedsLetter(name) }
    return .control(letter)
  }

  /// The name `config.json` uses for this key; `KeyEvent(name:)` reads it back. `.resize` and
  /// `.paste` are not keys and give `resize` and `paste`, which do not read back.
  public var name: String {
    switch self {
    case .character(" "): return "space"
    case .character(let character): return String(character)
    case .control(let letter): return "ctrl-" + String(letter)
    case .function(let number): return "f\(number)"
    case .resize: return "resize"
    case .paste: return "paste"
    default: return Self.namedKeys.first { $0.event == self }?.names[0] ?? "?"
    }
  }

  /// The label help screens and the status line show: `r`, `?`, `Ctrl-R`, `Enter`, `↑`, `F5`.
  public var displayName: String {
    switch self {
    case .character(" "): return "Space"
    case .character(let character): return String(character)
    case .control(let letter): return "Ctrl-" + letter.uppercased()
    case .function(let number): return "F\(number)"
    case .resize: return "Resize"
    case .paste: return "Paste"
    default: return Self.namedKeys.first { $0.event == self }?.display ?? "?"
    }
  }
}
