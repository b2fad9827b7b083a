import Foundation
import Isolation
import Loopback

/// A browser with a person in front of it who does what the script says, over real HTTP and
/// with nothing but what a browser has (`authtui demo` approves with it when there is no
/// browser, and tests play the user with it): it loads the page, reads its form, fills the user name
/// (and the user code on a verification page), presses Approve or Deny, and follows every
/// redirect, the last one to the app's loopback redirect URI included. It knows no back door:
/// no `/_sandbox/` hook, no server state.
///
/// Only `http://127.0.0.1` (or `localhost`) URLs are visited. The log names methods, paths
/// and status codes, never a query, a code or a token.
public struct ScriptedBrowser: Sendable {
  /// What the person does with a consent or approval page.
  public enum Action: String, Sendable {
    /// Presses the button meaning yes (Approve, Allow, Yes, Continue, Sign out…).
    case approve
    /// Presses the button meaning no (Deny, No, Cancel…).
    case deny
    /// Looks at the first form and closes the tab.
    case ignore
  }

  /// What the person will do.
  public struct Script: Sendable {
    public var action: Action
    /// Typed into the user name field; nil keeps what the page suggests.
    public var username: String?
    /// Typed into a code field; nil keeps a prefilled code.
    public var userCode: String?
    /// A file to wait for that will hold the user code (when the code is only known later).
    public var userCodeFile: String?
    /// Time spent "reading" before the first request.
    public var delay: TimeInterval
    /// The whole visit gives up after this.
    public var timeout: TimeInterval
    /// The browser runs on another computer (the SSH case): the app's loopback redirect is out
    /// of its reach, so the visit ends on that address (`Outcome.finalURL`), which the person
    /// then pastes into the app.
    public var onAnotherMachine: Bool

    public init(
      action: Action = .approve, username: String? = nil, userCode: String? = nil,
      userCodeFile: String? = nil, delay: TimeInterval = 0, timeout: TimeInterval = 60,
      onAnotherMachine: Bool = false
    ) {
      self.action = action
      self.username = username
      self.userCode = userCode
      self.userCodeFile = userCodeFile
      self.delay = delay
      self.timeout = timeout
      self.onAnotherMachine = onAnotherMachine
    }

    /// The script `authtui-test-browser` reads from its environment:
    /// `AUTHTUI_TEST_BROWSER_ACTION` (approve, deny, ignore; default approve),
    /// `AUTHTUI_TEST_BROWSER_USER`, `AUTHTUI_TEST_BROWSER_USER_CODE`,
    /// `AUTHTUI_TEST_BROWSER_USER_CODE_FILE`, `AUTHTUI_TEST_BROWSER_DELAY_MS`,
    /// `AUTHTUI_TEST_BROWSER_TIMEOUT_MS` (default 60000), `AUTHTUI_TEST_BROWSER_REMOTE=1`.
    public static func fromEnvironment(_ environment: [String: String]) throws -> Script {
      var script = Script()
      if let text = environment["AUTHTUI_TEST_BROWSER_ACTION"], !text.isEmpty {
        guard let action = Action(rawValue: text.lowercased()) else {
          throw ScriptError("AUTHTUI_TEST_BROWSER_ACTION is approve, deny or ignore, not \(text)")
        }
        script.action = action
      }
      script.username = environment["AUTHTUI_TEST_BROWSER_USER"].flatMap { $0.isEmpty ? nil : $0 }
      script.userCode = environment["AUTHTUI_TEST_BROWSER_USER_CODE"].flatMap {
        $0.isEmpty ? nil : $0
      }
      script.userCodeFile = environment["AUTHTUI_TEST_BROWSER_USER_CODE_FILE"].flatMap {
        $0.isEmpty ? nil : $0
      }
      script.onAnotherMachine = environment["AUTHTUI_TEST_BROWSER_REMOTE"] == "1"
      for (name, apply) in [
        ("AUTHTUI_TEST_BROWSER_DELAY_MS", { (value: Int) in script.delay = Double(value) / 1000 }),
        ("AUTHTUI_TEST_BROWSER_TIMEOUT_MS", { script.timeout = Double($0) / 1000 }),
      ] as [(String, (Int) -> Void)] {
        guard let text = environment[name], !text.isEmpty else { continue }
        guard let value = Int(text), value >= 0 else {
          throw ScriptError("\(name) takes a whole number of milliseconds, not \(text)")
        }
        apply(value)
      }
      return script
    }
  }

  /// A script that cannot be followed.
  public struct ScriptError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }

  /// How the visit ended.
  public struct Outcome: Sendable {
    /// True when the visit ended on a page without a form (or the script said to ignore it).
    public var succeeded: Bool
    /// `METHOD /path STATUS` for each request.
    public var steps: [String]
    /// The decision pressed on the last decision form (`approve` / `deny`), if any.
    public var decision: Action?
    /// The last URL requested (for tests: it may carry a code, so it is never logged).
    public var finalURL: String
    /// The last status, 0 when no answer came.
    public var finalStatus: Int
    /// The last body.
    public var finalBody: String
    /// Why the visit failed.
    public var failure: String?
  }

  public let script: Script
  private let log: @Sendable (String) -> Void

  public init(script: Script, log: @escaping @Sendable (String) -> Void = { _ in }) {
    self.script = script
    self.log = log
  }

  /// Visits `url` and plays the script, on a thread of its own.
  public func visit(_ url: String) async -> Outcome {
    await onOwnThread { visitBlocking(url) }
  }

  /// Visits `url` and plays the script, blocking the calling thread.
  public func visitBlocking(_ url: String) -> Outcome {
    var outcome = Outcome(
      succeeded: false, steps: [], decision: nil, finalURL: url, finalStatus: 0, finalBody: "",
      failure: nil)
    func fail(_ reason: String) -> Outcome {
      log("stopped: \(reason)")
      outcome.failure = reason
      return outcome
    }
    let deadline = Date().addingTimeInterval(script.timeout)
    if script.delay > 0 { Thread.sleep(forTimeInterval: script.delay) }
    guard var current = LoopbackURL(url) else {
      return fail("only http://127.0.0.1 URLs can be visited")
    }
    var method = "GET"
    var body: String?
    for _ in 0..<20 {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return fail("timed out") }
      var headers = ["User-Agent: authtui-test-browser/1.0", "Accept: text/html, */*"]
      if body != nil { headers.append("Content-Type: application/x-www-form-urlencoded") }
      let response = LoopbackHTTP.request(
        method, current.target, port: current.port, headers: headers, body: body,
        timeout: remaining)
      let step = "\(method) \(current.path) \(response.status)"
      outcome.steps.append(step)
      outcome.finalURL = current.description
      outcome.finalStatus = response.status
      outcome.finalBody = response.body
      log(step)
      guard response.status != 0 else {
        return fail("no answer from 127.0.0.1:\(current.port)\(current.path)")
      }
      if (300..<400).contains(response.status) {
        guard let location = response.header("Location") else {
          return fail("a redirect without Location")
        }
        guard let next = current.resolving(location) else {
          return fail("the redirect leaves the loopback address")
        }
        if script.onAnotherMachine && next.port != current.port {
          outcome.finalURL = next.description
          outcome.succeeded = true
          log("ended on the app's redirect address, out of reach from another machine")
          return outcome
        }
        current = next
        method = "GET"
        body = nil
        continue
      }
      guard response.status < 400 else { return fail("the page answered \(response.status)") }
      let forms = HTMLForm.forms(in: response.body)
      guard let form = forms.first(where: { $0.method == "post" }) ?? forms.first else {
        outcome.succeeded = true
        log("done")
        return outcome
      }
      if script.action == .ignore {
        outcome.succeeded = true
        log("left the page unanswered")
        return outcome
      }
      let submission: Submission
      switch fill(form, deadline: deadline) {
      case .success(let filled): submission = filled
      case .failure(let reason): return fail(reason)
      }
      if let decision = submission.decision { outcome.decision = decision }
      guard let target = current.resolving(form.action.isEmpty ? current.target : form.action)
      else { return fail("the form posts away from the loopback address") }
      let encoded = submission.pairs.map { escape($0.0) + "=" + escape($0.1) }
        .joined(separator: "&")
      if form.method == "post" {
        method = "POST"
        body = encoded
        current = target
      } else {
        method = "GET"
        body = nil
        current = target.withQuery(encoded)
      }
    }
    return fail("too many pages in a row")
  }

  private struct Submission {
    var pairs: [(String, String)]
    var decision: Action?
  }

  private enum Filling {
    case success(Submission)
    case failure(String)
  }

  private func fill(_ form: HTMLForm, deadline: Date) -> Filling {
    var pairs: [(String, String)] = []
    for field in form.fields {
      switch field.type {
      case "hidden":
        pairs.append((field.name, field.value))
      case "checkbox", "radio":
        if field.checked { pairs.append((field.name, field.value.isEmpty ? "on" : field.value)) }
      case "submit", "button", "image", "reset", "file":
        continue
      default:
        if field.name.lowercased().contains("code") {
          guard let code = script.userCode ?? nonEmpty(field.value) ?? waitForCodeFile(deadline)
          else {
            return .failure(
              "the page asks for a user code: set AUTHTUI_TEST_BROWSER_USER_CODE or "
                + "AUTHTUI_TEST_BROWSER_USER_CODE_FILE, or open verification_uri_complete")
          }
          log("entered the user code")
          pairs.append((field.name, code))
        } else {
          let value = script.username ?? field.value
          log("typed \(field.name)=\(value)")
          pairs.append((field.name, value))
        }
      }
    }
    var decision: Action?
    let button: HTMLForm.Button?
    switch form.buttons.count {
    case 0:
      button = nil
    case 1:
      button = form.buttons[0]
    default:
      let words =
        script.action == .deny
        ? ["deny", "no", "cancel", "reject", "decline", "stay"]
        : ["approve", "allow", "yes", "accept", "continue", "confirm", "authorize", "sign out"]
      button = form.buttons.first { button in
        words.contains(button.value.lowercased()) || words.contains(button.label.lowercased())
      }
      guard button != nil else {
        return .failure("no button on the page means \(script.action.rawValue)")
      }
      decision = script.action
    }
    if let button {
      log("pressed \"\(button.label)\"")
      if let name = button.name { pairs.append((name, button.value)) }
    }
    return .success(Submission(pairs: pairs, decision: decision))
  }

  private func waitForCodeFile(_ deadline: Date) -> String? {
    guard let path = script.userCodeFile else { return nil }
    while Date() < deadline {
      if let text = try? String(contentsOfFile: path, encoding: .utf8),
        let code = nonEmpty(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        return code
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return nil
  }

  private func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

  /// Form encoding: everything but the unreserved characters is escaped (a browser would
  /// use `+` for spaces; both decode the same).
  private func escape(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
  }
}

extension ScriptedBrowser.Outcome: CustomStringConvertible {
  /// The steps and the result, not the final URL or body: they may carry a code.
  public var description: String {
    "\(succeeded ? "succeeded" : "failed: \(failure ?? "")") after \(steps.joined(separator: ", "))"
  }
}
