/// "Did you mean …?" for mistyped names: commands, fields, providers, accounts.
public enum NameSuggestion {
  /// The candidates within `maxDistance` edits of `name`, closest first (ties keep their order).
  public static func close(to name: String, in candidates: [String], maxDistance: Int = 2)
    -> [String]
  {
    candidates.map { ($0, distance($0, name)) }
      .filter { $0.1 <= maxDistance }
      .enumerated()
      .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
      .map(\.element.0)
  }

  /// The single closest candidate within `maxDistance` edits, if any.
  public static func closest(to name: String, in candidates: [String], maxDistance: Int = 2)
    -> String?
  {
    close(to: name, in: candidates, maxDistance: maxDistance).first
  }

  /// Levenshtein distance between two short strings.
  public static func distance(_ lhs: String, _ rhs: String) -> Int {
    let left = Array(lhs)
    let right = Array(rhs)
    if left.isEmpty { return right.count }
    if right.isEmpty { return left.count }
    var previous = Array(0...right.count)
    for (i, leftCharacter) in left.enumerated() {
      var current = [i + 1] + Array(repeating: 0, count: right.count)
      for (j, rightCharacter) in right.enumerated() {
        let substitution = previous[j] + (leftCharacter == rightCharacter ? 0 : 1)
        current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, substitution)
      }
      previous = current
    }
    return previous[right.count]
  }
}
