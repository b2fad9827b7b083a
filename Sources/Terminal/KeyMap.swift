import Spelling

/// Which action a key triggers on which screen: the application's default table with the
/// user's overrides (`"keys": {"refresh": ["r", "ctrl-r"]}` in `config.json`) applied.
///
/// `Action` and `Context` are the application's own types (typically `String`-backed enums:
/// the action ids, and the screens or modes where a key means something); their raw values
/// are the names users write and error messages show.
///
/// An override replaces all default keys of its action (an empty list unbinds it). The map
/// refuses unknown action names, unreadable key names, and a key that would trigger two
/// actions in the same context, whether the clash comes from the defaults or an override.
public struct KeyMap<Action, Context>: Sendable
where
  Action: RawRepresentable & Hashable & Sendable, Action.RawValue == String,
  Context: RawRepresentable & Hashable & Sendable, Context.RawValue == String
{
  /// One row of the table: an action, its keys, and the contexts where the keys trigger it.
  public struct Binding: Hashable, Sendable {
    /// The action the keys trigger.
    public var action: Action
    /// The keys, in the order help screens list them.
    public var keys: [KeyEvent]
    /// Where the keys trigger the action.
    public var contexts: Set<Context>

    /// A row binding `keys` to `action` in `contexts`.
    public init(_ action: Action, keys: [KeyEvent], in contexts: Set<Context>) {
      self.action = action
      self.keys = keys
      self.contexts = contexts
    }
  }

  /// The effective rows, in the order of the default table, overrides applied.
  public let bindings: [Binding]
  private let lookup: [Context: [KeyEvent: Action]]

  /// The default table with `overrides` (action name → key names) applied; throws the first
  /// problem `problems(defaults:overrides:)` finds.
  public init(defaults: [Binding], overrides: [String: [String]] = [:]) throws(KeyMapError) {
    let (bindings, problems) = Self.resolve(defaults: defaults, overrides: overrides)
    if let first = problems.first { throw first }
    self.bindings = bindings
    var lookup: [Context: [KeyEvent: Action]] = [:]
    for binding in bindings {
      for context in binding.contexts {
        for key in binding.keys {
          lookup[context, default: [:]][key] = binding.action
        }
      }
    }
    self.lookup = lookup
  }

  /// Every problem with `overrides` (and with `defaults`), in a stable order, so a settings
  /// screen or `authtui` at start-up can report them all at once.
  public static func problems(defaults: [Binding], overrides: [String: [String]]) -> [KeyMapError] {
    resolve(defaults: defaults, overrides: overrides).problems
  }

  /// The action `key` triggers in `context`, if any.
  public func action(for key: KeyEvent, in context: Context) -> Action? {
    lookup[context]?[key]
  }

  /// Every key bound to `action`, in table order, without repeats.
  public func keys(for action: Action) -> [KeyEvent] {
    var keys: [KeyEvent] = []
    for binding in bindings where binding.action == action {
      for key in binding.keys where !keys.contains(key) {
        keys.append(key)
      }
    }
    return keys
  }

  /// The rows that apply in `context`, in table order: what a help screen lists.
  public func bindings(in context: Context) -> [Binding] {
    bindings.filter { $0.contexts.contains(context) }
  }

  private static func resolve(
    defaults: [Binding], overrides: [String: [String]]
  ) -> (bindings: [Binding], problems: [KeyMapError]) {
    var problems: [KeyMapError] = []
    var bindings = defaults
    let actionNames = uniqueNames(defaults.map(\.action.rawValue))
    for (name, keyNames) in overrides.sorted(by: { $0.key < $1.key }) {
      guard actionNames.contains(name) else {
        problems.append(
          .unknownAction(
            name, suggestion: SpellingSuggestion.closest(to: name, among: actionNames),
            known: actionNames))
        continue
      }
      var keys: [KeyEvent] = []
      for keyName in keyNames {
        do {
          let key = try KeyEvent(name: keyName)
          if !keys.contains(key) { keys.append(key) }
        } catch {
          problems.append(.unreadableKey(action: name, key: keyName, reason: error))
        }
      }
      for index in bindings.indices where bindings[index].action.rawValue == name {
        bindings[index].keys = keys
      }
    }
    return (bindings, problems + conflicts(in: bindings))
  }

  /// Keys that trigger two actions in one context, each clash reported once with every
  /// context where it happens.
  private static func conflicts(in bindings: [Binding]) -> [KeyMapError] {
    var owners: [Context: [KeyEvent: Action]] = [:]
    var clashes: [(key: KeyEvent, first: Action, second: Action, contexts: [String])] = []
    for binding in bindings {
      for context in binding.contexts.sorted(by: { $0.rawValue < $1.rawValue }) {
        for key in binding.keys {
          guard let owner = owners[context]?[key] else {
            owners[context, default: [:]][key] = binding.action
            continue
          }
          guard owner != binding.action else { continue }
          if let index = clashes.firstIndex(where: {
            $0.key == key && $0.first == owner && $0.second == binding.action
          }) {
            clashes[index].contexts.append(context.rawValue)
          } else {
            clashes.append((key, owner, binding.action, [context.rawValue]))
          }
        }
      }
    }
    return clashes.map {
      .conflict(
        key: $0.key.name, actions: [$0.first.rawValue, $0.second.rawValue], contexts: $0.contexts)
    }
  }

  private static func uniqueNames(_ names: [String]) -> [String] {
    var seen: Set<String> = []
    return names.filter { seen.insert($0).inserted }
  }
}
