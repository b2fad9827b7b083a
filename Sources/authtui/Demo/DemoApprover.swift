import App
import Foundation
import Sandbox

/// The person at the browser for `authtui demo` on a machine without one (over SSH): after a
/// pause long enough to read the sign-in screen, it loads the sandbox's own consent or
/// verification page, types the user name (and the code), presses Approve and follows the
/// redirects back to authtui, exactly as a browser would. No back door is used.
struct DemoApprover: Sendable {
  /// The user name typed on the pages (it becomes the account's label).
  let username: String
  /// Seconds between the page being shown and the approval.
  let pause: TimeInterval

  init(username: String = "demo-user", pause: TimeInterval = 4) {
    self.username = username
    self.pause = pause
  }

  /// Approves the page at `url` in the background; `userCode` is typed where a code is asked.
  func approve(_ url: String, userCode: String?) -> BrowserReport {
    let browser = ScriptedBrowser(
      script: ScriptedBrowser.Script(
        action: .approve, username: username, userCode: userCode, delay: pause))
    Thread { _ = browser.visitBlocking(url) }.start()
    return .opened(
      command: "the demo's approver: it approves as \(username) in \(Int(pause)) s")
  }
}
