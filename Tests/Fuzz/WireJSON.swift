import JSON

extension JSONValue {
  /// The value as JSON that authtui writes, members sorted by name, for round trips through the
  /// writer: `OrderedJSON(parsed).text` read back must give `parsed` again.
  var ordered: OrderedJSON {
    switch self {
    case .string(let text): return .string(text)
    case .number(let number): return .double(number)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    case .array(let elements): return .array(elements.map(\.ordered))
    case .object(let members):
      return .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.ordered) })
    }
  }
}
