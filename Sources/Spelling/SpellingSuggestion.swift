/// "Did you mean …?" for names people type: commands, accounts, provider fields, key names,
/// action names, theme roles. A leaf module so every layer can use the one implementation.
public enum SpellingSuggestion {
  /// Every candidate at most `maximumDistance` edits from `name`, closest first (ties keep the
  /// candidates' order), for errors that list several close matches.
  public static func close(
    to name: String, among candidates: some Sequence<String>, maximumDistance: Int = 2
  ) -> [String] {
    let length = name.count
    return candidates.enumerated()
      .filter { abs($0.element.count - length) <= maximumDistance }
      .map { (offset: $0.offset, name: $0.element, distance: distance(name, $0.element)) }
      .filter { $0.distance <= maximumDistance }
      .sorted { ($0.distance, $0.offset) < ($1.distance, $1.offset) }
      .map(\.name)
  }

  /// The candidate closest to `name` by edit distance, if one is at most `maximumDistance`
  /// edits away (ties go to the earlier candidate).
  public static func closest(
    to name: String, among candidates: some Sequence<String>, maximumDistance: Int = 2
  ) -> String? {
    var best: (name: String, distance: Int)?
    let length = name.count
    // The lengths' difference is a lower bound of the distance: a long name (a hostile file's
    // 200,000-character key) is not compared letter by letter with every candidate.
    for candidate in candidates where abs(candidate.count - length) <= maximumDistance {
      let distance = distance(name, candidate)
      if distance <= maximumDistance, distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// How far `name` is from `candidate` for a suggestion: the edit distance of their lowercase
  /// forms, so that `SANDBOX/ALICE` or a provider id typed `Work` finds `sandbox/alice` and
  /// `work` (ids and most names are lowercase; the caps lock and the shift key are slips).
  static func distance(_ name: String, _ candidate: String) -> Int {
    editDistance(name.lowercased(), candidate.lowercased())
  }

  /// Levenshtein distance between two strings, counted in characters.
  public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let left = Array(lhs)
    let right = Array(rhs)
    guard !left.isEmpty else { return right.count }
    guard !right.isEmpty else { return left.count }
    var previous = Array(0...right.count)
    for (row, leftCharacter) in left.enumerated() {
      var current = [row + 1] + Array(repeating: 0, count: right.count)
      for (column, rightCharacter) in right.enumerated() {
        let substitution = previous[column] + (leftCharacter == rightCharacter ? 0 : 1)
        current[column + 1] = min(previous[column + 1] + 1, current[column] + 1, substitution)
      }
      previous = current
    }
    return previous[right.count]
  }
}
