import Foundation
import Loopback

/// The short pages the loopback listener shows in the browser. Each says what happened and
/// sends the user back to the terminal, where the real outcome is shown; none includes a code
/// or a token.
enum RedirectPages {
  /// Tokens received.
  static func signedIn(provider: String) -> HTTPResponse {
    page(
      status: 200, title: "Signed in",
      text: "You are signed in to \(provider). Return to the terminal; you can close this tab.")
  }

  /// The attempt ended without tokens (declined, refused, exchange failed).
  static func failed(_ error: AuthError) -> HTTPResponse {
    page(
      status: 200, title: "Sign-in did not complete",
      text: "\(error.message) Return to the terminal to try again.")
  }

  /// A redirect that does not belong to the attempt (wrong `state`, no code); the wait goes on.
  static func ignored(_ error: AuthError) -> HTTPResponse {
    page(
      status: 400, title: "Not for this sign-in",
      text: "\(error.message) The sign-in in the terminal is still waiting.")
  }

  /// A code that passed the `state` check but that the provider refused to exchange (a forged
  /// redirect, or a provider failure); the wait goes on, and the real redirect still counts.
  static func exchangeFailed(_ error: AuthError) -> HTTPResponse {
    page(
      status: 200, title: "Sign-in not finished",
      text: "This redirect's code could not be exchanged: \(error.message) The sign-in in the "
        + "terminal is still waiting for the provider's redirect until its countdown ends.")
  }

  /// A one-time address's first fetch: on to the URL it stands for. Not cached, and with no
  /// `Referer` for the next page, which would carry the address.
  static func oneTimeRedirect(to target: URL) -> HTTPResponse {
    HTTPResponse(
      status: 303,
      headers: [
        ("Location", target.absoluteString), ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
      ])
  }

  /// A sign-in's one-time address fetched again.
  static let signInLinkUsed = page(
    status: 410, title: "Link already used",
    text: "This sign-in link works once and has already been opened. Return to the terminal: "
      + "if another program opened it first, the sign-in there started again with a fresh link.")

  /// A sign-out's one-time address fetched again.
  static let signOutLinkUsed = page(
    status: 410, title: "Link already used",
    text: "This sign-out link works once and has already been opened; you can close this tab.")

  /// The provider's return after an RP-initiated logout, with the sign-out's `state`.
  static func signedOut(account: String?) -> HTTPResponse {
    let who = account.map { "\($0) is" } ?? "The account is"
    return page(
      status: 200, title: "Signed out",
      text: "\(who) signed out: the provider ended its session in this browser, and authtui "
        + "removed the account. You can close this tab.")
  }

  /// A return to the post-logout landing without the sign-out's `state` (or with another one):
  /// not the provider's answer to the sign-out authtui started, so it confirms nothing.
  static let signOutNotConfirmed = page(
    status: 400, title: "Sign-out not confirmed",
    text: "This page was opened without the state of the sign-out authtui started, so it does "
      + "not show that the provider signed you out. The account is removed from authtui; to "
      + "end the browser session at the provider, sign out on its site.")

  /// The attempt had already ended when this redirect arrived.
  static let alreadyFinished = page(
    status: 200, title: "Sign-in already finished",
    text: "This sign-in has already finished. Return to the terminal; you can close this tab.")

  /// Any path other than the redirect path.
  static let notFound = page(
    status: 404, title: "Not found",
    text: "This is authtui's sign-in listener; it only answers the provider's redirect.")

  /// A method other than GET on the redirect path.
  static var methodNotAllowed: HTTPResponse {
    var response = page(
      status: 405, title: "Method not allowed", text: "The sign-in redirect is a GET request.")
    response.headers.append(("Allow", "GET"))
    return response
  }

  private static func page(status: Int, title: String, text: String) -> HTTPResponse {
    .html(
      """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>authtui: \(HTTPResponse.escapingHTML(title))</title>
      <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;\
      line-height:1.5}</style></head>
      <body><h1>\(HTTPResponse.escapingHTML(title))</h1><p>\(HTTPResponse.escapingHTML(text))</p></body></html>

      """, status: status)
  }
}
