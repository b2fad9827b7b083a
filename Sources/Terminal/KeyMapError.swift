import Spelling

/// A problem with the key bindings of `config.json` (`"keys"`); the message names the fix.
public enum KeyMapError: Error, Hashable, Sendable, CustomStringConvertible {
  /// An override names an action the application does not have.
  case unknownAction(String, suggestion: String?, known: [String])
  /// An override lists a key name that cannot be read.
  case unreadableKey(action: String, key: String, reason: KeyNameError)
  /// One key would trigger two actions in the same contexts (screens).
  case conflict(key: String, actions: [String], contexts: [String])

  public var description: String {
    switch self {
    case .unknownAction(let name, let suggestion, let known):
      let hint = suggestion.map { "did you mean \"\($0)\"? " } ?? ""
      return
        "\"keys\" in config.json names an unknown action \(MessageQuoting.quoted(name)) (\(hint)the actions are: "
        + "\(known.joined(separator: ", ")))"
    case .unreadableKey(let action, _, let reason):
      return "\"keys\" in config.json, action \(MessageQuoting.quoted(action)): \(reason)"
    case .conflict(let key, let actions, let contexts):
      let names = actions.map { "\"\($0)\"" }.joined(separator: " and ")
      let screens = contexts.count == 1 ? "screen" : "screens"
      return
        "key \"\(key)\" is bound to both \(names) on the \(contexts.joined(separator: ", ")) "
        + "\(screens); give one of them another key in \"keys\" in config.json"
    }
  }
}
