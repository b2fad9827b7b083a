import Foundation

/// A JSON value as a provider sent it over the network, for answers whose members are not all
/// known in advance (unknown token response members, error bodies, userinfo claims). Distinct
/// from `Providers.JSONValue`, which keeps source positions for configuration files.
public enum JSONWireValue: Sendable, Equatable, Decodable {
  /// A string.
  case string(String)
  /// A number (JSON does not tell integers apart).
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null
  /// An array.
  case array([JSONWireValue])
  /// An object; with a duplicate member name, which one is kept is unspecified.
  case object([String: JSONWireValue])

  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONWireValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: JSONWireValue].self))
    }
  }

  /// Parses `data` as a JSON object; nil for anything else (an array, a bare value, not JSON).
  public static func object(from data: Data) -> [String: JSONWireValue]? {
    guard case .object(let members)? = try? JSONDecoder().decode(JSONWireValue.self, from: data)
    else { return nil }
    return members
  }

  /// The string, if this is one.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The number, if this is one or a string that spells one (some providers quote
  /// `expires_in`).
  public var numberValue: Double? {
    switch self {
    case .number(let number): return number
    case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces))
    default: return nil
    }
  }
}
