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
      <title>authtui: \(escape(title))</title>
      <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;\
      line-height:1.5}</style></head>
      <body><h1>\(escape(title))</h1><p>\(escape(text))</p></body></html>

      """, status: status)
  }

  /// HTML text escaping: provider texts end up in these pages.
  static func escape(_ text: String) -> String {
    var output = ""
    for character in text {
      switch character {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      default: output.append(character)
      }
    }
    return output
  }
}
