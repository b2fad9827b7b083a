import Foundation

/// Debug and test builds only: a number of seconds a test sets in a variable in place of one of
/// the program's own waits, so that a test of a denial does not take a minute, or a test of a
/// failure does not race a deadline on a busy machine (`AUTHTUI_TEST_CONFIRM_WINDOW`,
/// `AUTHTUI_TEST_AGENT_READ_TIMEOUT`, `AUTHTUI_TEST_CLIPBOARD_DEADLINE`; docs/testing.md).
public enum TestSeconds {
  /// The seconds `variable` holds in `environment`, when it holds a number above zero and this
  /// is a debug build; nil otherwise (always in a release build).
  public static func value(of variable: String, in environment: [String: String])
    -> TimeInterval?
  {
    #if DEBUG
      if let text = environment[variable], let seconds = TimeInterval(text), seconds > 0 {
        return seconds
      }
    #endif
    return nil
  }
}
