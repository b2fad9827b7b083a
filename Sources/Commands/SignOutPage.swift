import AuthCore
import Foundation
import System

/// The provider's end-session page (OIDC RP-Initiated Logout) after a sign-out. Its URL
/// carries the account's id_token (`id_token_hint`: the user's name and email), so neither a
/// browser's argv nor the terminal ever sees it: both get a one-time loopback address
/// (`OneTimeRedirect`) that redirects to it once, and that lives only until it is fetched or a
/// short wait ends.
package enum SignOutPage {
  /// How long a browser that was started has to fetch the address.
  static let browserWait: TimeInterval = 30
  /// How long a printed address waits for the person to open it.
  static let printedWait: TimeInterval = 120

  /// `logout`: opens the address with `browser`, or prints it when there is none (or
  /// `--no-browser`), and waits for the fetch; Ctrl-C ends the wait. An address is printed
  /// (and waited for) only on a terminal, where a person can open it: a script's logout must
  /// not wait minutes for nobody.
  static func show(_ url: URL, browser: BrowserLauncher?, console: Console) async {
    let link: OneTimeRedirect
    do {
      link = try await OneTimeRedirect(to: url)
    } catch {
      console.err(
        "The provider's sign-out page could not be offered (\(error.message)) Sign out on its "
          + "site to end the browser session there too.")
      return
    }
    if let browser, browser.open(link.address) {
      if await waitInterruptibly(link, seconds: browserWait) {
        console.err("Opened the provider's sign-out page with \(browser.name).")
      } else {
        console.err(
          "\(browser.name) did not open the provider's sign-out page within "
            + "\(Int(browserWait)) seconds; sign out on the provider's site to end the browser "
            + "session there too.")
      }
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
        + "computer within \(Int(printedWait / 60)) minutes (it works once; Ctrl-C skips):\n  "
        + link.address.absoluteString)
    if await waitInterruptibly(link, seconds: printedWait) {
      console.err("The provider's sign-out page was opened.")
    } else {
      console.err("The sign-out address was not opened; it no longer works.")
    }
  }

  /// The UI: opens the address with `open` and keeps the listener in the background until it
  /// is fetched or `browserWait` passes. Returns what `open` reported.
  package static func open<Report: Sendable>(
    _ url: URL, with open: @Sendable (String) -> Report
  ) async -> Report? {
    guard let link = try? await OneTimeRedirect(to: url) else { return nil }
    let report = open(link.address.absoluteString)
    Task { _ = await link.waitUntilFetched(deadline: Date().addingTimeInterval(browserWait)) }
    return report
  }

  /// Waits for the fetch for up to `seconds`; Ctrl-C ends the wait early (false).
  private static func waitInterruptibly(_ link: OneTimeRedirect, seconds: TimeInterval) async
    -> Bool
  {
    let wait = Task { await link.waitUntilFetched(deadline: Date().addingTimeInterval(seconds)) }
    let interrupt = CtrlC.catching { wait.cancel() }
    defer { interrupt.release() }
    return await wait.value
  }
}
