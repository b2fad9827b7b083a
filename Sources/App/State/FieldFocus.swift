extension Array where Element: Equatable {
  /// The field `step` places after `current` in this focus order, wrapping around at either
  /// end (Tab on the last field goes back to the first); the first field when `current` is not
  /// in the order. The array must not be empty.
  func cycling(from current: Element, by step: Int) -> Element {
    let index = firstIndex(of: current) ?? 0
    return self[((index + step) % count + count) % count]
  }
}
