import Terminal
import Testing

/// Key names as `config.json` writes them, and back; help labels.
@Suite struct KeyEventNameTests {
  @Test(arguments: [
    ("r", KeyEvent.character("r")), ("R", .character("R")), ("?", .character("?")),
    ("/", .character("/")), (" ", .character(" ")), ("space", .character(" ")),
    ("ctrl-r", .control("r")), ("Ctrl+R", .control("r")), ("^r", .control("r")),
    ("enter", .enter), ("Return", .enter), ("esc", .escape), ("escape", .escape),
    ("up", .up), ("DOWN", .down), ("left", .left), ("right", .right), ("tab", .tab),
    ("shift-tab", .backtab), ("backspace", .backspace), ("del", .delete), ("insert", .insert),
    ("home", .home), ("end", .end), ("pgup", .pageUp), ("pagedown", .pageDown),
    ("f5", .function(5)), ("F12", .function(12)), ("é", .character("é")),
  ])
  func readsKeyNames(name: String, key: KeyEvent) throws {
    #expect(try KeyEvent(name: name) == key)
  }

  @Test func everyKeyNameReadsBackToTheSameKey() throws {
    let keys: [KeyEvent] = [
      .character("q"), .character("Q"), .character(" "), .character("?"), .control("x"), .up,
      .down, .left, .right, .enter, .escape, .backspace, .delete, .insert, .tab, .backtab, .home,
      .end, .pageUp, .pageDown, .function(1), .function(24),
    ]
    for key in keys {
      #expect(try KeyEvent(name: key.name) == key, "\(key.name)")
    }
  }

  @Test func helpLabelsAreShortAndReadable() {
    #expect(KeyEvent.control("r").displayName == "Ctrl-R")
    #expect(KeyEvent.up.displayName == "↑")
    #expect(KeyEvent.character(" ").displayName == "Space")
    #expect(KeyEvent.escape.displayName == "Esc")
    #expect(KeyEvent.pageDown.displayName == "PgDn")
    #expect(KeyEvent.function(5).displayName == "F5")
    #expect(KeyEvent.character("/").displayName == "/")
  }

  @Test func anEmptyNameIsRefused() {
    #expect(throws: KeyNameError.empty) { try KeyEvent(name: "") }
  }

  @Test func aMisspeltNameSuggestsTheRightOne() {
    #expect(throws: KeyNameError.unknown("entr", suggestion: "enter")) {
      try KeyEvent(name: "entr")
    }
    let error = KeyNameError.unknown("entr", suggestion: "enter")
    #expect(error.description.hasPrefix("unknown key \"entr\" (did you mean \"enter\"? keys are"))
  }

  @Test func shiftWithALetterSuggestsTheCapital() {
    #expect(throws: KeyNameError.unknown("shift-r", suggestion: "R")) {
      try KeyEvent(name: "shift-r")
    }
  }

  @Test func ctrlNeedsALetter() {
    #expect(throws: KeyNameError.controlNeedsLetter("ctrl-1")) { try KeyEvent(name: "ctrl-1") }
    #expect(
      KeyNameError.controlNeedsLetter("ctrl-1").description
        == "key \"ctrl-1\" cannot be typed: \"ctrl-\" goes with a letter a–z, as in \"ctrl-r\"")
  }

  @Test func ctrlLettersThatAreOtherKeysNameTheKeyToUse() {
    #expect(throws: KeyNameError.controlIsAnotherKey("ctrl-i", key: "tab")) {
      try KeyEvent(name: "ctrl-i")
    }
    #expect(
      KeyNameError.controlIsAnotherKey("ctrl-m", key: "enter").description
        == "key \"ctrl-m\" is the same key as \"enter\" on a terminal; write \"enter\" instead")
  }

  @Test func ctrlCAndCtrlZBelongToTheTerminal() {
    #expect(throws: KeyNameError.takenByTerminal("ctrl-c", purpose: "interrupt authtui")) {
      try KeyEvent(name: "ctrl-c")
    }
    #expect(
      KeyNameError.takenByTerminal("ctrl-z", purpose: "suspend authtui").description
        == "key \"ctrl-z\" cannot be bound: the terminal uses it to suspend authtui; choose "
        + "another key")
  }

  @Test func functionKeysStopAtF24() {
    #expect(throws: KeyNameError.functionOutOfRange("f25")) { try KeyEvent(name: "f25") }
    #expect(throws: KeyNameError.functionOutOfRange("f0")) { try KeyEvent(name: "f0") }
  }

  @Test func aControlCharacterIsNotAKeyName() {
    #expect(throws: KeyNameError.unknown("\u{7}", suggestion: nil)) { try KeyEvent(name: "\u{7}") }
  }
}
