/// A terminal the application draws on and reads keys from: the curses back end in the
/// product, `InMemoryScreen` in tests.
///
/// A screen belongs to one thread, the one running the application's loop (the real main
/// thread for the curses back end; see `CursesScreen`). Other threads and tasks reach that
/// loop only through `waker` (and a `Mailbox` built on it). The loop looks like:
///
/// ```swift
/// while running {
///   screen.render(view(state, screen.size), styles: theme.style(for:))
///   if let key = screen.readEvent(timeout: .milliseconds(250)) { /* key, resize or paste */ }
///   for action in mailbox.drain() { /* results of background work */ }
///   /* timers: countdowns advance on timeouts too */
/// }
/// screen.shutdown()
/// ```
public protocol Screen: AnyObject {
  /// The terminal's size in cells. Changes only when `readEvent` has returned `.resize`.
  var size: Size { get }

  /// Shows `buffer`, turning each cell's role into a style with `styles`.
  ///
  /// Only cells whose text or resolved style changed since the last frame are redrawn. A
  /// buffer of another size than `size` is clipped, or padded with blank `default` cells.
  func render(_ buffer: ScreenBuffer, styles: (Role) -> Style)

  /// Waits up to `timeout` for the user, and returns the key (or `.resize`, or `.paste`).
  ///
  /// Returns nil when the timeout passes or `waker` was used, which the loop treats alike:
  /// look at the mailbox and the clock, draw, and wait again.
  func readEvent(timeout: Duration) -> KeyEvent?

  /// Ends a `readEvent` wait early; usable from any thread or task.
  var waker: ScreenWaker { get }

  /// Makes the next `render` repaint every cell (Ctrl-L, or after another program used the
  /// terminal).
  func invalidate()

  /// Puts `text` on the user's clipboard through the terminal (OSC 52), which also works over
  /// SSH and in tmux with `set-clipboard on`. Terminals that do not support it ignore it.
  func copyToClipboard(_ text: String)

  /// Gives the terminal back as it was before the screen took it. Safe to call twice.
  func shutdown()
}
