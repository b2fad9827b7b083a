import AuthCore
import Terminal

/// Everything that can change the UI's state: what the user did, time passing, and the results
/// of background work coming back. `Reducer.reduce` takes one at a time.
public enum Action: Sendable {
  /// A key, a resize or a paste from the screen.
  case key(KeyEvent)
  /// An action of the table, as if its key was pressed in the current context.
  case command(Command)
  /// The terminal's size now (at start and after every resize).
  case resized(Size)
  /// Time passed: countdowns, spinners and message timeouts move on.
  case tick
  /// A sign-in attempt moved on, while its `.startSignIn` effect runs.
  case signInProgress(RequestID, SignInProgress)
  /// An effect ended: its answer.
  case response(Response)
  /// The process was asked to terminate (and no refresh is being stored): the UI ends now.
  case terminate
}
