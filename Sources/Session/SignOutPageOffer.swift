import AuthCore
import Foundation

/// The UI's way to the provider's end-session page after a sign-out (OIDC RP-Initiated
/// Logout). Its URL carries the account's id_token, so the browser gets a one-time loopback
/// address (`OneTimeRedirect`) that redirects to it once; the listener stays in the background
/// until the address is fetched and the provider has sent the browser back, or the waits end.
/// (`logout` on the command line shows the same page with `SignOutPage.show`.)
enum SignOutPageOffer {
  /// How long a browser that was started has to fetch the address.
  static let browserWait: TimeInterval = 30
  /// How long, once the page was opened, the landing waits for the provider to send the
  /// browser back (the person may first have to confirm the sign-out there).
  static let returnWait: TimeInterval = 120

  /// Opens the one-time address of `url` with `open`; where authtui serves a landing,
  /// `returned` hears whether the provider sent the browser back to it once the page was
  /// opened. `account` names the account on the landing. Returns what `open` reported, or nil
  /// when no address could be offered.
  static func open<Report: Sendable>(
    _ url: URL, account: String,
    returned: @escaping @Sendable (Bool) async -> Void,
    with open: @Sendable (String) -> Report
  ) async -> Report? {
    guard let link = try? await OneTimeRedirect(to: url, account: account) else { return nil }
    let report = open(link.address.absoluteString)
    Task {
      guard await link.waitUntilFetched(deadline: Date().addingTimeInterval(browserWait)) else {
        return
      }
      let back = await link.waitForReturn(deadline: Date().addingTimeInterval(returnWait))
      if link.landingURI != nil { await returned(back) }
    }
    return report
  }
}
