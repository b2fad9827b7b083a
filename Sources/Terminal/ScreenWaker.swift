/// A handle that ends a `Screen.readEvent` wait early, from any thread or task: background
/// work uses it to get its result drawn without waiting for a key or a timeout.
public struct ScreenWaker: Sendable {
  private let action: @Sendable () -> Void

  /// A waker that runs `action`, which must be cheap, non-blocking and safe on any thread.
  public init(_ action: @escaping @Sendable () -> Void) {
    self.action = action
  }

  /// A waker that does nothing (a screen that never waits).
  public static let none = ScreenWaker {}

  /// Ends the screen's current or next wait.
  public func wake() { action() }
}
