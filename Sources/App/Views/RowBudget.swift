/// Hands out the rows of a short screen region by priority, for the views that must fit the
/// smallest screen: the rows `needed` (fields, a refusal) are counted first, then each `take`
/// gets its rows while enough are left, in the order asked, so what is asked for last gives
/// way first. What does not fit is left out whole, never cut.
struct RowBudget {
  /// The rows not handed out yet.
  private(set) var spare: Int

  /// A budget of `rows`, `needed` of them set aside.
  init(rows: Int, needed: Int) {
    spare = rows - needed
  }

  /// Takes `count` rows when that many are left; true when they were taken.
  mutating func take(_ count: Int) -> Bool {
    guard count <= spare else { return false }
    spare -= count
    return true
  }

  /// A blank row that gives way: 1 when it was taken, else 0.
  mutating func blank() -> Int {
    take(1) ? 1 : 0
  }
}
