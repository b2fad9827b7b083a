import App
import Foundation
import Terminal
import Testing

/// The action table and key overrides from config.json.
@Suite struct KeyBindingsTests {
  @Test func theDefaultTableHasEveryActionOnceAndNoClash() {
    #expect(
      KeyMap<Command, KeyContext>.problems(defaults: ActionTable.defaultBindings, overrides: [:])
        .isEmpty)
    #expect(
      ActionTable.rows.map(\.command).sorted { $0.rawValue < $1.rawValue }
        == Command.allCases.sorted { $0.rawValue < $1.rawValue })
    #expect(KeyBindings.defaults.problems.isEmpty)
    for context in KeyContext.allCases {
      #expect(
        !KeyBindings.defaults.keys(for: .back, in: context).isEmpty, "no way back on \(context)")
    }
  }

  @Test func theDesignsDefaultKeysAreBound() {
    let keys = KeyBindings.defaults
    let expected: [(KeyEvent, Command)] = [
      (.up, .moveUp), (.down, .moveDown), (.character("k"), .moveUp), (.character("j"), .moveDown),
      (.enter, .details), (.character("a"), .add), (.character("d"), .signOut),
      (.character("r"), .refresh), (.character("c"), .copy), (.character("e"), .export),
      (.character("/"), .filter), (.character("?"), .help), (.escape, .back),
      (.character("q"), .quit),
    ]
    for (key, command) in expected {
      #expect(keys.command(for: key, in: .list) == command, "\(key.displayName)")
    }
  }

  @Test func anOverrideReplacesTheDefaultKeys() {
    var driver = Driver(keys: KeyBindings(overrides: ["refresh": ["ctrl-r", "R"]]))
    driver.select("bob")
    #expect(driver.press(.character("r")).isEmpty)
    guard case .refresh = driver.press(.control("r")).first else {
      Issue.record("Ctrl-R did not refresh")
      return
    }
    driver.press(.character("?"))
    #expect(driver.text.contains("Ctrl-R R      refresh the account's access token now"))
  }

  @Test func badOverridesAreReportedWithFileAndLineAndTheRestStillApply() {
    let keys = KeyBindings(
      overrides: [
        "filter": ["/", "f"], "refersh": ["x"], "quit": ["ctrl-c"], "add": ["r"],
      ], file: "~/.config/authtui/config.json",
      lines: ["filter": 2, "refersh": 3, "quit": 4, "add": 5])
    #expect(
      keys.problems == [
        "~/.config/authtui/config.json:3: \"keys\" in config.json names an unknown action "
          + "\"refersh\" (did you mean \"refresh\"? the actions are: "
          + ActionTable.rows.map(\.command.rawValue).joined(separator: ", ") + ")",
        "~/.config/authtui/config.json:4: \"keys\" in config.json, action \"quit\": key "
          + "\"ctrl-c\" cannot be bound: the terminal uses it to interrupt authtui; choose another key",
        "~/.config/authtui/config.json:5: key \"r\" is bound to both \"add\" and \"refresh\" on the "
          + "list screen; give one of them another key in \"keys\" in config.json",
      ])
    // The good override works, the bad ones leave their defaults.
    #expect(keys.command(for: .character("f"), in: .list) == .filter)
    #expect(keys.command(for: .character("q"), in: .list) == .quit)
    #expect(keys.command(for: .character("a"), in: .list) == .add)
    #expect(keys.command(for: .character("r"), in: .list) == .refresh)
  }

  @Test func twoGoodOverridesThatClashKeepTheEarlierOne() {
    let keys = KeyBindings(
      overrides: ["copy": ["x"], "export": ["x"]], lines: ["copy": 2, "export": 3])
    #expect(
      keys.problems == [
        "config.json:3: key \"x\" is bound to both \"copy\" and \"export\" on the details, list "
          + "screens; give one of them another key in \"keys\" in config.json"
      ])
    #expect(keys.command(for: .character("x"), in: .list) == .copy)
    #expect(keys.command(for: .character("e"), in: .list) == .export)
  }

  @Test func problemsAreShownAtStart() {
    let driver = Driver(
      keys: KeyBindings(overrides: ["refresh": ["shift-r"]], lines: ["refresh": 7]))
    #expect(driver.state.context == .notices)
    #expect(driver.text.contains("config.json:7: \"keys\" in config.json, action \"refresh\""))
  }

  @Test func charactersTypeInTextFieldsWhateverTheyAreBoundTo() {
    let keys = KeyBindings(overrides: ["back": ["esc", "h"]])
    var driver = Driver(keys: keys)
    driver.press(.character("/"))
    driver.type("ha")
    #expect(driver.state.filter.text == "ha")
    #expect(keys.keys(for: .back, in: .filter) == [.escape])
    driver.press(.escape, .character("h"))
    #expect(driver.state.context == .list)
  }

  /// The user's guide's key table is generated from the action table: `RECORD_SNAPSHOTS=1`
  /// rewrites it, otherwise it must match.
  @Test func theUserGuidesKeyTableIsTheActionTable() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "docs/user-guide.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let begin = try #require(text.range(of: "<!-- keys:begin -->\n"))
    let end = try #require(
      text.range(of: "<!-- keys:end -->", range: begin.upperBound..<text.endIndex))
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      var updated = text
      updated.replaceSubrange(begin.upperBound..<end.lowerBound, with: ActionTable.markdown + "\n")
      try updated.write(to: readme, atomically: true, encoding: .utf8)
      return
    }
    #expect(String(text[begin.upperBound..<end.lowerBound]) == ActionTable.markdown + "\n")
  }
}
