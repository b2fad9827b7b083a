import Spelling

extension JSONValue {
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
    case .string(let text): return Double(text.trimmingHorizontalSpace)
    default: return nil
    }
  }

  /// The elements, if this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The strings, if this is an array of strings only.
  public var stringArrayValue: [String]? {
    guard case .array(let elements) = self else { return nil }
    let strings = elements.compactMap(\.stringValue)
    return strings.count == elements.count ? strings : nil
  }

  /// The elements as `read` makes them, if this is an array of objects `read` accepts all
  /// of; nil when any element is not an object or not accepted (as `stringArrayValue` is all
  /// or nothing).
  public func objectArrayValue<Element>(_ read: ([String: JSONValue]) -> Element?) -> [Element]? {
    guard case .array(let elements) = self else { return nil }
    var values: [Element] = []
    for element in elements {
      guard case .object(let members) = element, let value = read(members) else { return nil }
      values.append(value)
    }
    return values
  }

  /// The members, if this is an object.
  public var objectValue: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// The number, if this is a JSON number (a quoted number does not count: JWT dates and
  /// identifiers must have their JSON type).
  public var strictNumberValue: Double? {
    if case .number(let number) = self { return number }
    return nil
  }

  /// A string, or a number written as a whole number where it is one (`12345`, not
  /// `12345.0`): how an account name or id reads in a label.
  public var textValue: String? {
    switch self {
    case .string(let text):
      return text
    case .number(let number):
      if let whole = Int64(exactly: number) { return String(whole) }
      return number.isFinite ? String(number) : nil
    default:
      return nil
    }
  }
}

extension Dictionary where Key == String, Value == JSONValue {
  /// The value at a dotted member path (`user.name`, `accounts.0.id`): each segment is a member
  /// name, or an index into an array. Nil when any step is missing.
  public func value(atPath path: String) -> JSONValue? {
    var segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !segments.isEmpty else { return nil }
    var current = self[segments.removeFirst()]
    for segment in segments {
      switch current {
      case .object(let members)?:
        current = members[segment]
      case .array(let elements)?:
        guard let index = Int(segment), elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }
}
