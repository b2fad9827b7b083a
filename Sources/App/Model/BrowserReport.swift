import Foundation

/// What happened when the UI asked for a page to be opened in a browser.
public enum BrowserReport: Sendable, Equatable {
  /// The browser command was started (it is never waited for).
  case opened(command: String)
  /// The demo's approver (`authtui demo` without a browser) has the page; it answers as a
  /// person would after `after` seconds.
  case handedToDemoApprover(after: TimeInterval)
  /// No browser can be opened here (no `BROWSER`, no display); the message says what to do.
  case unavailable(String)
}
