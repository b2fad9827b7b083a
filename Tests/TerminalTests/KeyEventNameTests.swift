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

  /// The error `KeyEvent(name:)` refuses `name` with; nil when it reads the name.
  private func refusal(of name: String) -> KeyNameError? {
    do {
      _ = try KeyEvent(name: name)
      return nil
    } catch {
      return error
    }
  }

  @Test func anEmptyNameIsRefused() {
    #expect(refusal(of: "") == KeyNameError.empty)
  }

  @Test func aMisspeltNameSuggestsTheRightOne() {
    #expect(refusal(of: "entr") == KeyNameError.unknown("entr", suggestion: "enter"))
    let error = KeyNameError.unknown("entr", suggestion: "enter")
    #expect(error.description.hasPrefix("unknown key \"entr\" (did you mean \"enter\"? keys are"))
  }

  @Test func shiftWithALetterSuggestsTheCapital() {
    #expect(refusal(of: "shift-r") == KeyNameError.unknown("shift-r", suggestion: "R"))
  }

  @Test func ctrlNeedsALetter() {
    #expect(refusal(of: "ctrl-1") == KeyNameError.controlNeedsLetter("ctrl-1"))
    #expect(
      KeyNameError.controlNeedsLetter("ctrl-1").description
        == "key \"ctrl-1\" cannot be typed: \"ctrl-\" goes with a letter a–z, as in \"ctrl-r\"")
  }

  @Test func ctrlLettersThatAreOtherKeysNameTheKeyToUse() {
    #expect(refusal(of: "ctrl-i") == KeyNameError.controlIsAnotherKey("ctrl-i", key: "tab"))
    #expect(
      KeyNameError.controlIsAnotherKey("ctrl-m", key: "enter").description
        == "key \"ctrl-m\" is the same key as \"enter\" on a terminal; write \"enter\" instead")
  }

  @Test func ctrlCAndCtrlZBelongToTheTerminal() {
    #expect(
      refusal(of: "ctrl-c") == KeyNameError.takenByTerminal("ctrl-c", purpose: "interrupt authtui"))
    #expect(
      KeyNameError.takenByTerminal("ctrl-z", purpose: "suspend authtui").description
        == "key \"ctrl-z\" cannot be bound: the terminal uses it to suspend authtui; choose "
        + "another key")
  }

  @Test func functionKeysStopAtF24() {
    #expect(refusal(of: "f25") == KeyNameError.functionOutOfRange("f25"))
    #expect(refusal(of: "f0") == KeyNameError.functionOutOfRange("f0"))
  }

  @Test func aControlCharacterIsNotAKeyName() {
    #expect(refusal(of: "\u{7}") == KeyNameError.unknown("\u{7}", suggestion: nil))
  }
}
