/// One thing the user did at the keyboard (or to the terminal window), as a `Screen` reports
/// it and as key names in `config.json` describe it (`KeyEvent(name:)`, `name`).
public enum KeyEvent: Hashable, Sendable {
  /// A key that types text: `r`, `R`, `?`, `/`, a space, `é`, `あ`. Shifted letters arrive as
  /// their capital.
  case character(Character)
  /// Ctrl held with a letter, stored lowercase (`ctrl-r` is `.control("r")`). Ctrl-I, Ctrl-M,
  /// Ctrl-H and Ctrl-[ send the same bytes as Tab, Enter, Backspace and Esc, so they arrive
  /// as those keys.
  case control(Character)
  /// Arrow up.
  case up
  /// Arrow down.
  case down
  /// Arrow left.
  case left
  /// Arrow right.
  case right
  /// Enter or Return.
  case enter
  /// Esc. Arrives after the back end's short escape delay (25 ms in the curses back end).
  case escape
  /// Backspace.
  case backspace
  /// Delete (forward delete).
  case delete
  /// Insert.
  case insert
  /// Tab.
  case tab
  /// Shift-Tab.
  case backtab
  /// Home.
  case home
  /// End.
  case end
  /// Page Up.
  case pageUp
  /// Page Down.
  case pageDown
  /// A function key, F1–F24.
  case function(Int)
  /// The terminal changed size: read `Screen.size` and draw a new frame. Has no key name.
  case resize
  /// Text pasted in one go (bracketed paste), newlines included. Has no key name.
  case paste(String)
  /// The terminal hung up (its window was closed, its SSH connection dropped): no key will
  /// come again, and the UI ends as when asked to terminate. Has no key name.
  case hangup
}
