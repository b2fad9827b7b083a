/// A JSON value as it was read: a provider's answer over the network (token response members,
/// error bodies, userinfo claims, discovery, keys), an agent line, or a configuration file
/// (with `JSONDocument` keeping where each value starts).
public enum JSONValue: Sendable, Equatable {
  /// A string.
  case string(String)
  /// A number (JSON does not tell integers apart).
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null
  /// An array.
  case array([JSONValue])
  /// An object. Read from the network, a repeated member name keeps its last value; a
  /// configuration file with one is refused.
  case object([String: JSONValue])

  /// Parses `bytes` (UTF-8) as a JSON object; nil for anything else (an array, a bare value,
  /// not JSON).
  public static func object(from bytes: some Sequence<UInt8>) -> [String: JSONValue]? {
    guard case .object(let members)? = try? JSONParser.parseWire(bytes) else { return nil }
    return members
  }

  /// Parses the UTF-8 of `line` as a JSON object, as `object(from:)` does; nil for anything
  /// else. Not generic, so the parser runs specialized for the caller (an agent line is read
  /// in every `authtui token`, where the runtime's work for generic code is most of the cost).
  public static func object(fromLine line: String) -> [String: JSONValue]? {
    object(from: Array(line.utf8))
  }
}
