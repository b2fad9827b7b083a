/// The damaged-accounts screen: which one is selected, and a removal asked or under way.
public struct DamagedState: Sendable, Equatable {
  /// The index into `AppState.damagedAccounts`.
  public var selected = 0
  /// True while "remove it?" waits for y or n.
  public var confirming = false
  /// The removal in flight.
  public var working: RequestID?

  /// The screen at its first account.
  public init() {}
}
