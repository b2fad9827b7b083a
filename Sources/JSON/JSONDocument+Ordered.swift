extension JSONDocument {
  /// The document as `OrderedJSON`, with every object's members in the order the file gives
  /// them: how a file authtui changes (a provider file the UI adds a `client_id` to) is written
  /// back with the user's fields where they were. A number without a fraction comes back as an
  /// integer, so `"redirect_port": 8765` stays `8765`.
  public var ordered: OrderedJSON {
    Self.ordered(root, positions)
  }

  private static func ordered(_ value: JSONValue, _ positions: JSONPositions) -> OrderedJSON {
    switch value {
    case .string(let text): return .string(text)
    case .number(let number):
      if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
        return .int(Int(number))
      }
      return .double(number)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    case .array(let elements):
      return .array(
        elements.enumerated().map { index, element in
          let position =
            positions.elements.indices.contains(index)
            ? positions.elements[index] : JSONPositions(start: positions.start)
          return ordered(element, position)
        })
    case .object(let members):
      let placed = members.map { name, member in
        (name, member, positions.members[name] ?? JSONPositions(start: positions.start))
      }
      return .object(
        placed.sorted { $0.2.start < $1.2.start }.map { name, member, position in
          (name, ordered(member, position))
        })
    }
  }
}
