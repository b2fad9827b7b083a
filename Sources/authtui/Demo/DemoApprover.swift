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

  /// Answers the page at `url` in the background as `answer` says (nil: approves as
  /// `username`); `userCode` is typed where a code is asked.
  func answer(_ url: String, userCode: String?, with answer: DemoAnswer?) -> BrowserReport {
    let action: ScriptedBrowser.Action
    var name = username
    switch answer ?? .approve(as: nil) {
    case .approve(let chosen):
      action = .approve
      name = chosen ?? username
    case .deny:
      action = .deny
    case .ignore:
      action = .ignore
    }
    let browser = ScriptedBrowser(
      script: ScriptedBrowser.Script(
        action: action, username: name, userCode: userCode, delay: pause))
    Thread { _ = browser.visitBlocking(url) }.start()
    // The screens say what it does and count down to it (a fixed "in 4 s" would go stale).
    return .handedToDemoApprover(after: pause)
  }
}
