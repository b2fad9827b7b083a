import Terminal

/// The key map the UI runs with: the action table with the user's overrides from
/// `config.json`, and the problems the overrides had.
///
/// A broken override never stops authtui: the overrides that work are kept, each problem is
/// reported with the file and line of its entry, and the defaults stand for the rest.
public struct KeyBindings: Sendable {
  /// The map in use.
  public let map: KeyMap<Command, KeyContext>
  /// One line per problem: `FILE:LINE: message`.
  public let problems: [String]

  /// The defaults with no overrides.
  public static let defaults = KeyBindings(overrides: [:])

  /// Applies `overrides` (action name → key names, as `"keys"` in `config.json` has them).
  ///
  /// `file` names the settings file in messages and `lines` gives each action's line there.
  public init(
    overrides: [String: [String]], file: String = "config.json", lines: [String: Int] = [:]
  ) {
    typealias Map = KeyMap<Command, KeyContext>
    let defaults = ActionTable.defaultBindings
    func located(_ action: String?, _ message: String) -> String {
      guard let action, let line = lines[action] else { return "\(file): \(message)" }
      return "\(file):\(line): \(message)"
    }
    var problems: [String] = []
    var kept: [String: [String]] = [:]
    // Each override alone first, in file order: a bad one is reported and left out, the good
    // ones stay.
    let ordered = overrides.sorted { left, right in
      (lines[left.key] ?? .max, left.key) < (lines[right.key] ?? .max, right.key)
    }
    for (action, keys) in ordered {
      let own = Map.problems(defaults: defaults, overrides: [action: keys])
      if own.isEmpty {
        kept[action] = keys
      } else {
        problems += own.map { located(action, $0.description) }
      }
    }
    // Then together: two good overrides may still clash with each other.
    while !kept.isEmpty {
      let clashes = Map.problems(defaults: defaults, overrides: kept)
      guard let clash = clashes.first else { break }
      let culprit = Self.overriddenAction(in: clash, among: kept)
      problems.append(located(culprit, clash.description))
      guard let culprit else { break }
      kept[culprit] = nil
    }
    map = (try? Map(defaults: defaults, overrides: kept)) ?? Self.fallbackMap
    self.problems = problems
  }

  private static let fallbackMap: KeyMap<Command, KeyContext> = {
    // The defaults are checked by a test; this never fails.
    do {
      return try KeyMap(defaults: ActionTable.defaultBindings)
    } catch {
      preconditionFailure("the default key table is inconsistent: \(error)")
    }
  }()

  /// The last overridden action a conflict names (the one to drop).
  private static func overriddenAction(in error: KeyMapError, among kept: [String: [String]])
    -> String?
  {
    guard case .conflict(_, let actions, _) = error else { return nil }
    return actions.last { kept[$0] != nil }
  }

  /// The keys of `command` that work in `context`: in contexts that take text, keys that type
  /// a character are left out (they type).
  public func keys(for command: Command, in context: KeyContext) -> [KeyEvent] {
    map.bindings(in: context).filter { $0.action == command }.flatMap(\.keys).filter {
      !(context.takesText && $0.typesText)
    }
  }

  /// The action `key` triggers in `context`; nil for keys that type text in a text context.
  public func command(for key: KeyEvent, in context: KeyContext) -> Command? {
    if context.takesText && key.typesText { return nil }
    return map.action(for: key, in: context)
  }
}

extension KeyEvent {
  /// True for a key that types a character (and a paste).
  var typesText: Bool {
    switch self {
    case .character, .paste: return true
    default: return false
    }
  }
}
