import AuthCore
import Foundation
import Spelling
import System

/// The provider's end-session page (OIDC RP-Initiated Logout) after a sign-out. Its URL
/// carries the account's id_token (`id_token_hint`: the user's name and email), so neither a
/// browser's argv nor the terminal ever sees it: both get a one-time loopback address
/// (`OneTimeRedirect`) that redirects to it once, and that lives only until it is fetched or a
/// short wait ends.
package enum SignOutPage {
  /// How long a browser that was started has to fetch the address: a browser that is there
  /// fetches it within a few seconds, and one that never will must not hold logout up.
  static let browserWait: TimeInterval = 10
  /// How long a printed address waits for the person to open it.
  static let printedWait: TimeInterval = 120
  /// How long, once the page was opened, the landing waits for the provider to send the
  /// browser back (the person may first have to confirm the sign-out there). The UI's page:
  /// Session's `SignOutPageOffer`.
  static let returnWait: TimeInterval = 120

  /// `logout`: opens the address with `browser`, or prints it when there is none (or
  /// `--no-browser`), and waits for the fetch, then for the provider's return to the landing
  /// authtui serves (when it sends a `post_logout_redirect_uri` of its own); Ctrl-C ends a
  /// wait. An address is printed (and waited for) only on a terminal, where a person can open
  /// it: a script's logout must not wait minutes for nobody. `account` names the account on
  /// the landing page.
  static func show(_ url: URL, account: String, browser: BrowserLauncher?, console: Console)
    async
  {
    let link: OneTimeRedirect
    do {
      link = try await OneTimeRedirect(to: url, account: account)
    } catch {
      console.err(
        "The provider's sign-out page could not be offered (\(error.message)) Sign out on its "
          + "site to end the browser session there too.")
      return
    }
    if let port = link.unservedLandingPort {
      console.err(
        "Port \(port) is in use by another program, so authtui cannot show the page the "
          + "provider returns to after signing out; the provider keeps its own page open instead.")
    }
    if let browser, browser.open(link.address) {
      // Said before the wait, so that a browser that never fetches the page is not taken
      // for a logout that hangs.
      console.err(
        "Waiting up to \(Int(clamping: browserWait)) seconds for \(browser.name) to open the "
          + "provider's sign-out page (Ctrl-C skips)…")
      await waitForOpening(
        link, within: browserWait, console: console,
        opened: "Opened the provider's sign-out page with \(browser.name).",
        notOpened: "\(browser.name) did not open the provider's sign-out page within "
          + "\(Int(clamping: browserWait)) seconds; sign out on the provider's site to end the "
          + "browser session there too.")
      return
    }
    guard console.stderrIsTerminal else {
      await link.stop()
      console.err(
        "The provider's sign-out page was not opened (no browser, and no terminal to show its "
          + "one-time address on); sign out on the provider's site to end the browser session "
          + "there too.")
      return
    }
    console.err(
      "To end the browser session at the provider too, open this address in a browser on this "
        + "computer within \(Int(clamping: printedWait / 60)) minutes (it works once; Ctrl-C "
        + "skips):\n  "
        + link.address.absoluteString)
    await waitForOpening(
      link, within: printedWait, console: console,
      opened: "The provider's sign-out page was opened.",
      notOpened: "The sign-out address was not opened; it no longer works.")
  }

  /// Waits up to `seconds` (Ctrl-C ends it sooner) for the one-time address to be fetched:
  /// says `opened` and waits for the browser's return when it was, `notOpened` when not.
  private static func waitForOpening(
    _ link: OneTimeRedirect, within seconds: TimeInterval, console: Console, opened: String,
    notOpened: String
  ) async {
    let (fetched, _) = await waitInterruptibly {
      await link.waitUntilFetched(deadline: Date().addingTimeInterval(seconds))
    }
    if fetched {
      console.err(opened)
      await waitForReturn(link, console: console)
    } else {
      console.err(notOpened)
    }
  }

  /// After the page was opened: waits for the provider to return the browser to authtui's
  /// landing, and says how it went. Nothing to wait for without a landing.
  private static func waitForReturn(_ link: OneTimeRedirect, console: Console) async {
    guard link.landingURI != nil else { return }
    let (returned, interrupted) = await waitInterruptibly {
      await link.waitForReturn(deadline: Date().addingTimeInterval(returnWait))
    }
    if returned {
      console.err("The provider signed the browser out and sent it back to authtui.")
    } else if interrupted {
      console.err("Stopped waiting for the provider to send the browser back.")
    } else {
      console.err(
        "The provider did not send the browser back within "
          + "\(Int(clamping: returnWait / 60)) minutes; if its sign-out page is still open, "
          + "finish signing out there.")
    }
  }

  /// Runs `wait`; Ctrl-C cancels it early. Returns its answer and whether Ctrl-C ended it.
  private static func waitInterruptibly(_ wait: @escaping @Sendable () async -> Bool) async
    -> (Bool, interrupted: Bool)
  {
    let task = Task { await wait() }
    let interrupt = CtrlC.catching { task.cancel() }
    defer { interrupt.release() }
    let answer = await task.value
    return (answer, task.isCancelled)
  }
}
