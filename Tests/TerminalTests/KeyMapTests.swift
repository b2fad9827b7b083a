import Terminal
import Testing

/// The key map: defaults, user overrides from config.json, and their validation.
@Suite struct KeyMapTests {
  enum Action: String, Sendable { case refresh, signOut = "sign-out", quit, down, filter }
  enum Screen: String, Sendable, CaseIterable { case list, details, filter }
  typealias Map = KeyMap<Action, Screen>

  let defaults: [Map.Binding] = [
    .init(.down, keys: [.down, .character("j")], in: [.list]),
    .init(.refresh, keys: [.character("r")], in: [.list, .details]),
    .init(.signOut, keys: [.character("d")], in: [.list, .details]),
    .init(.filter, keys: [.character("/")], in: [.list]),
    .init(.quit, keys: [.character("q")], in: [.list, .details]),
  ]

  @Test func mapsDefaultKeysPerScreen() throws {
    let map = try Map(defaults: defaults)
    #expect(map.action(for: .character("j"), in: .list) == .down)
    #expect(map.action(for: .character("r"), in: .details) == .refresh)
    #expect(map.action(for: .character("j"), in: .details) == nil)
    #expect(map.action(for: .character("q"), in: .filter) == nil)
  }

  @Test func anOverrideReplacesTheDefaultKeysOfItsAction() throws {
    let map = try Map(defaults: defaults, overrides: ["refresh": ["ctrl-r", "R"]])
    #expect(map.action(for: .control("r"), in: .list) == .refresh)
    #expect(map.action(for: .character("R"), in: .details) == .refresh)
    #expect(map.action(for: .character("r"), in: .list) == nil)
    #expect(map.keys(for: .refresh) == [.control("r"), .character("R")])
  }

  @Test func anEmptyOverrideUnbindsTheAction() throws {
    let map = try Map(defaults: defaults, overrides: ["sign-out": []])
    #expect(map.keys(for: .signOut).isEmpty)
    #expect(map.action(for: .character("d"), in: .list) == nil)
  }

  @Test func helpListsTheRowsOfAScreenInTableOrder() throws {
    let map = try Map(defaults: defaults)
    #expect(map.bindings(in: .details).map(\.action) == [.refresh, .signOut, .quit])
  }

  @Test func anUnknownActionIsAnErrorWithASuggestion() {
    #expect(
      throws: KeyMapError.unknownAction(
        "refersh", suggestion: "refresh", known: ["down", "refresh", "sign-out", "filter", "quit"])
    ) {
      try Map(defaults: defaults, overrides: ["refersh": ["r"]])
    }
    let problems = Map.problems(defaults: defaults, overrides: ["refersh": ["r"]])
    #expect(
      problems.map(\.description) == [
        "\"keys\" in config.json names an unknown action \"refersh\" (did you mean \"refresh\"? "
          + "the actions are: down, refresh, sign-out, filter, quit)"
      ])
  }

  @Test func anUnreadableKeyIsAnErrorNamingTheAction() {
    let problems = Map.problems(defaults: defaults, overrides: ["refresh": ["ctrl-1"]])
    #expect(
      problems == [
        .unreadableKey(action: "refresh", key: "ctrl-1", reason: .controlNeedsLetter("ctrl-1"))
      ])
    #expect(
      problems.first?.description
        == "\"keys\" in config.json, action \"refresh\": key \"ctrl-1\" cannot be typed: "
        + "\"ctrl-\" goes with a letter a–z, as in \"ctrl-r\"")
  }

  @Test func oneKeyForTwoActionsOnTheSameScreenIsAnError() {
    #expect(
      throws: KeyMapError.conflict(
        key: "d", actions: ["refresh", "sign-out"], contexts: ["details", "list"])
    ) {
      try Map(defaults: defaults, overrides: ["refresh": ["d"]])
    }
    #expect(
      KeyMapError.conflict(key: "d", actions: ["refresh", "sign-out"], contexts: ["list"])
        .description
        == "key \"d\" is bound to both \"refresh\" and \"sign-out\" on the list screen; give one "
        + "of them another key in \"keys\" in config.json")
  }

  @Test func theSameKeyOnDifferentScreensIsAllowed() throws {
    // "/" filters on the list; on the details screen nothing else uses it, so refresh may.
    let map = try Map(
      defaults: [
        .init(.filter, keys: [.character("/")], in: [.list]),
        .init(.refresh, keys: [.character("/")], in: [.details]),
      ])
    #expect(map.action(for: .character("/"), in: .list) == .filter)
    #expect(map.action(for: .character("/"), in: .details) == .refresh)
  }

  @Test func clashingDefaultsAreReportedToo() {
    let clashing = defaults + [.init(.filter, keys: [.character("q")], in: [.list])]
    #expect(
      Map.problems(defaults: clashing, overrides: [:]) == [
        .conflict(key: "q", actions: ["quit", "filter"], contexts: ["list"])
      ])
  }

  @Test func everyProblemIsListedInAStableOrder() {
    let problems = Map.problems(
      defaults: defaults, overrides: ["zzz": ["x"], "quit": ["ctrl-c"], "down": ["d"]])
    #expect(problems.count == 3)
    #expect(
      problems == [
        .unreadableKey(
          action: "quit", key: "ctrl-c",
          reason: .takenByTerminal("ctrl-c", purpose: "interrupt authtui")),
        .unknownAction(
          "zzz", suggestion: nil, known: ["down", "refresh", "sign-out", "filter", "quit"]),
        .conflict(key: "d", actions: ["down", "sign-out"], contexts: ["list"]),
      ])
  }
}
