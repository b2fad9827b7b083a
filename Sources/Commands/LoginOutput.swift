import Accounts
import AuthCore
import Foundation
import JSON
import QRCode
import Spelling
import System
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// What `authtui login` shows while it waits: the address or the code, a live countdown on
/// standard error when that is a terminal, and the result, in words or (`--json`) as event
/// lines on standard output.
actor LoginOutput {
  private let console: Console
  private let json: Bool
  private let liveCountdown: Bool
  private var deadline: Date?
  private var waitingFor = "the provider"
  private var finished = false
  private var countdownShown = false
  private var ignoredRedirects = 0
  private var pollTrouble: PollTrouble?
  private var failedExchanges = 0
  private var restarts = 0
  private var pasteReader: Thread?
  private var browser: BrowserLauncher?
  private var session: SignInSession?

  init(console: Console, json: Bool) {
    self.console = console
    self.json = json
    self.liveCountdown = console.stderrIsTerminal
  }

  /// A line of explanation on standard error, above the countdown.
  nonisolated func note(_ text: String) {
    Task { await self.say(text) }
  }

  private func say(_ text: String) {
    clearCountdownLine()
    console.err(text)
  }

  /// Like `say`, for text that carries authtui's own control sequences (the code in bold):
  /// every part of it from outside was cleaned by the caller.
  private func sayStyled(_ text: String) {
    clearCountdownLine()
    console.errRaw(text + "\n")
  }

  /// The first progress with an address or a code: tell the user what to do, open the browser.
  func announce(_ progress: SignInProgress, browser: BrowserLauncher?, session: SignInSession)
    async
  {
    self.browser = browser
    self.session = session
    if let url = progress.authorizationURL {
      await announceBrowser(url, progress: progress, event: "authorize")
    } else if let code = progress.userCode {
      announceCode(code, progress: progress, browser: browser)
    }
  }

  /// The browser flow's address. The browser command is given the one-time loopback address
  /// (its argv is readable by every local user); the terminal shows the authorization URL
  /// itself, which a person may copy to a browser on another machine, where the one-time
  /// address (on this machine's 127.0.0.1) would not work.
  private func announceBrowser(_ url: URL, progress: SignInProgress, event: String) async {
    var opened = false
    if let browser, let address = await session?.browserAddress() {
      opened = browser.open(address)
    }
    if json {
      // When a browser was started, a program reading the events gets an address of its own:
      // opening the browser's too would look like a second fetch and restart the sign-in.
      let shown = opened ? await session?.browserAddress() : progress.browserURL
      var members: [(String, OrderedJSON)] = [("event", .string(event))]
      if event == "restarted", case .restarted? = progress.notice {
        members += [
          ("reason", .string("address_fetched_twice")),
          ("message", .string(SignInProgress.Notice.restarted.message)),
        ]
      }
      members.append(("url", .string(url.absoluteString)))
      members.append(("one_time_url", shown.map { .string($0.absoluteString) } ?? .null))
      console.out(OrderedJSON.object(members).text)
    }
    waitingFor = "the browser"
    if opened, let browser {
      say(
        "Opening the sign-in page with \(browser.name). If it does not open, visit:\n  \(url.absoluteString)"
      )
      return
    }
    let redirect = progress.redirectURI ?? "the redirect address"
    var lines = [
      "Open this address in a browser to sign in:", "  \(url.absoluteString)", "",
    ]
    if let port = URL(string: redirect)?.port {
      lines += [
        "If that browser runs on another computer, forward the redirect to this one first:",
        "  ssh -L \(port):127.0.0.1:\(port) \(Self.hostName())", "",
      ]
    }
    lines.append(
      "Or, after approving, paste here the address the browser ends on (it starts with \(redirect)) and press Enter."
    )
    say(lines.joined(separator: "\n"))
    if let session { startPasteReader(session) }
  }

  private func announceCode(_ code: String, progress: SignInProgress, browser: BrowserLauncher?) {
    if json {
      console.out(
        OrderedJSON.object([
          ("event", .string("user_code")), ("user_code", .string(code)),
          (
            "verification_uri", progress.verificationURI.map { .string($0.absoluteString) } ?? .null
          ),
          (
            "verification_uri_complete",
            progress.verificationURIComplete.map { .string($0.absoluteString) } ?? .null
          ),
          ("expires_in", progress.expiresIn.map { .int(Int(clamping: $0)) } ?? .null),
        ]).text)
    }
    waitingFor = "approval"
    // What the provider sent is cleaned here: on a terminal the lines go out with authtui's
    // own sequences (the code in bold, the QR code's colours), which `say` would clean too.
    let page = TerminalText.cleaned(
      progress.verificationURI?.absoluteString ?? "the provider's page")
    let shownCode = TerminalText.cleaned(code)
    let codeLine = "    " + (liveCountdown ? "\u{1B}[1m\(shownCode)\u{1B}[0m" : shownCode)
    var lines = ["To sign in, open \(page) on any device and enter the code", "", codeLine, ""]
    if let complete = progress.verificationURIComplete {
      lines.append("(or open \(TerminalText.cleaned(complete.absoluteString)), which fills it in)")
    }
    // On a terminal with room, the address as a QR code for a phone's camera.
    if liveCountdown, let target = progress.verificationURIComplete ?? progress.verificationURI,
      let code = try? QRCode(text: target.absoluteString),
      code.columns() <= (console.stderrColumns ?? 0)
    {
      lines += ["", "or scan:"] + code.halfBlockLines() + [""]
    }
    if liveCountdown {
      sayStyled(lines.joined(separator: "\n"))
    } else {
      say(lines.joined(separator: "\n"))
    }
    if let browser, let target = progress.verificationURIComplete ?? progress.verificationURI {
      browser.open(target)
    }
  }

  /// Keeps the countdown's deadline, mentions refused redirects and failed exchanges, and
  /// opens the browser again when the attempt restarted with a fresh link.
  func update(_ progress: SignInProgress) async {
    deadline = progress.deadline ?? deadline
    if progress.ignoredRedirects > ignoredRedirects {
      ignoredRedirects = progress.ignoredRedirects
      let reason = progress.lastIgnoredRedirect.map { $0.message } ?? "it did not belong here"
      say("A redirect was refused (\(reason)); still waiting.")
    }
    if progress.failedExchanges > failedExchanges, case .exchangeFailed? = progress.notice {
      failedExchanges = progress.failedExchanges
      say(progress.notice?.message ?? "")
    }
    switch progress.phase {
    case .exchangingCode: waitingFor = "the provider's answer"
    case .waitingForBrowser: waitingFor = "the browser"
    default: break
    }
    if progress.restarts > restarts, let url = progress.authorizationURL {
      restarts = progress.restarts
      say(SignInProgress.Notice.restarted.message)
      await announceBrowser(url, progress: progress, event: "restarted")
    }
    if progress.pollTrouble != pollTrouble {
      reportPollTrouble(progress.pollTrouble)
    }
  }

  /// A poll got no answer (or the provider answers again): one line, and a `retrying` event.
  private func reportPollTrouble(_ trouble: PollTrouble?) {
    pollTrouble = trouble
    guard let trouble else {
      say("The provider answers again; still waiting.")
      return
    }
    let message = "provider unreachable, retrying (\(trouble))"
    if json {
      console.out(
        OrderedJSON.object([
          ("event", .string("retrying")), ("reason", .string(trouble.code)),
          ("message", .string(message)),
        ]).text)
    }
    say("Provider unreachable, retrying (\(trouble)); the code stays valid until it expires.")
  }

  /// Redraws `M:SS left` once a second until the sign-in ends (a terminal only).
  func runCountdown() async {
    while !finished && !Task.isCancelled {
      if liveCountdown, let deadline {
        let left = max(0, Int(clamping: deadline.timeIntervalSinceNow.rounded(.up)))
        let what =
          pollTrouble.map { "provider unreachable, retrying (\($0))" }
          ?? "waiting for \(waitingFor)"
        let clock = "\(left / 60):\(String(format: "%02d", left % 60))"
        console.errRaw(
          "\r\u{1B}[K  \(TerminalText.cleaned(what)): \(clock) left (Ctrl-C to cancel)")
        countdownShown = true
      }
      try? await Task.sleep(nanoseconds: 1_000_000_000)
    }
  }

  /// Stops the countdown and clears its line.
  func endCountdown() {
    finished = true
    clearCountdownLine()
  }

  private func clearCountdownLine() {
    if countdownShown {
      console.errRaw("\r\u{1B}[K")
      countdownShown = false
    }
  }

  func signedIn(_ signedIn: SignedInAccount) {
    let tokens = signedIn.record.tokens
    endCountdown()
    let expiry = tokens.expiresAt.map { ISO8601DateFormatter().string(from: $0) }
    if tokens.expiryWasCut, let expiry {
      console.err(
        "authtui: the provider gave the token a lifetime of more than ten years, which is not "
          + "plausible; authtui takes it as ten years (until \(expiry)).")
    }
    if json {
      console.out(
        OrderedJSON.object([
          ("event", .string("signed_in")), ("account", .string(signedIn.name.description)),
          ("expires_at", expiry.map { .string($0) } ?? .null),
        ]).text)
      return
    }
    let validity: String
    if let expiry {
      validity =
        tokens.refreshToken == nil
        ? "The token is valid until \(expiry); sign in again after that (this provider gives no refresh token)."
        : "The token is valid until \(expiry) and is refreshed when needed."
    } else {
      validity = "The token does not expire."
    }
    console.out("Signed in as \(signedIn.name). \(validity)")
  }

  func failed(_ failure: CommandFailure) {
    endCountdown()
    if json {
      console.out(
        OrderedJSON.object([
          ("event", .string("error")), ("error", .string(failure.code)),
          ("message", .string(failure.message)),
        ]).text)
    }
    console.err(failure.line)
  }

  /// Reads pasted redirect addresses from standard input on a thread of its own (a blocking
  /// read), handing each line to the attempt.
  private func startPasteReader(_ session: SignInSession) {
    guard pasteReader == nil else { return }
    let thread = Thread { [weak self] in
      while let line = readLine(strippingNewline: true) {
        let pasted = line.trimmingCharacters(in: .whitespaces)
        guard !pasted.isEmpty else { continue }
        Task {
          do throws(AuthError) {
            try await session.submitRedirect(pasted)
          } catch {
            await self?.say(
              "That address was not accepted: \(error.message) Paste it again, or wait.")
          }
        }
      }
    }
    pasteReader = thread
    thread.start()
  }

  static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return "THIS-HOST" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
