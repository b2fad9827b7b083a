import AuthCore
import Loopback

/// The HTML pages a person sees: consent, code entry, approval of a device, sign-out
/// confirmation, and plain messages. Plain HTML with real `<form method="post">`s and no
/// script, so a test can play the user exactly as a browser would: read the form, fill it,
/// press a button.
///
/// Every decision form has a `username` field and two buttons named `decision`, valued
/// `approve` and `deny`.
enum Pages {
  /// What the consent or approval page shows and sends back.
  struct Consent: Sendable {
    var provider: String
    var title = "Allow access?"
    /// The asking application, as the person should recognise it.
    var appName: String
    var clientID: String
    /// Each requested scope and what it lets the app do.
    var scopes: [(name: String, meaning: String)]
    /// Where the browser goes afterwards (shown, not used).
    var redirectTarget: String?
    /// The form's `action`.
    var action: String
    /// Fields the form sends back untouched.
    var hiddenFields: [(name: String, value: String)]
    var approveLabel = "Approve"
    var denyLabel = "Deny"
    /// A problem with the previous submission.
    var error: String?
  }

  /// The consent (or device approval) page.
  static func consent(_ consent: Consent, status: Int = 200) -> HTTPResponse {
    var body = "<p><strong>\(escape(consent.appName))</strong> (client <code>"
    body += "\(escape(consent.clientID))</code>) asks to use your \(escape(consent.provider))"
    body += " account.</p>\n"
    if !consent.scopes.isEmpty {
      body += "<p>It will be able to:</p>\n<ul>\n"
      for scope in consent.scopes {
        body += "<li><code>\(escape(scope.name))</code>: \(escape(scope.meaning))</li>\n"
      }
      body += "</ul>\n"
    }
    if let target = consent.redirectTarget {
      body += "<p>After you answer, your browser goes to <code>\(escape(target))</code>.</p>\n"
    }
    body += errorParagraph(consent.error)
    body += "<form method=\"post\" action=\"\(escape(consent.action))\">\n"
    body += hidden(consent.hiddenFields)
    body += "<label for=\"username\">User name</label>\n"
    body += "<input type=\"text\" id=\"username\" name=\"username\" value=\""
    body += "\(UserName.suggested)\" autocomplete=\"username\" required>\n"
    body += "<div class=\"actions\">\n"
    body += "<button type=\"submit\" name=\"decision\" value=\"approve\">"
    body += "\(escape(consent.approveLabel))</button>\n"
    body += "<button type=\"submit\" name=\"decision\" value=\"deny\" formnovalidate>"
    body += "\(escape(consent.denyLabel))</button>\n"
    body += "</div>\n</form>\n"
    return .html(page(provider: consent.provider, title: consent.title, body: body), status: status)
  }

  /// The page where a person types the code their device shows (RFC 8628 §3.3).
  static func codeEntry(
    provider: String, action: String, prefill: String?, error: String? = nil, status: Int = 200
  ) -> HTTPResponse {
    var body = "<p>Enter the code shown on your device.</p>\n"
    body += errorParagraph(error)
    body += "<form method=\"post\" action=\"\(escape(action))\">\n"
    body += "<label for=\"user_code\">Code</label>\n"
    body += "<input type=\"text\" id=\"user_code\" name=\"user_code\" value=\""
    body += "\(escape(prefill ?? ""))\" autocomplete=\"off\" autocapitalize=\"characters\""
    body += " spellcheck=\"false\" required>\n"
    body += "<div class=\"actions\"><button type=\"submit\">Continue</button></div>\n</form>\n"
    return .html(page(provider: provider, title: "Connect a device", body: body), status: status)
  }

  /// A page with a title and a sentence, no form.
  static func message(provider: String, title: String, text: String, status: Int = 200)
    -> HTTPResponse
  {
    .html(page(provider: provider, title: title, body: "<p>\(escape(text))</p>\n"), status: status)
  }

  /// A confirmation with two buttons and no user name (the end-session page).
  static func confirmation(
    provider: String, title: String, text: String, action: String,
    hiddenFields: [(name: String, value: String)], approveLabel: String, denyLabel: String
  ) -> HTTPResponse {
    var body = "<p>\(escape(text))</p>\n"
    body += "<form method=\"post\" action=\"\(escape(action))\">\n"
    body += hidden(hiddenFields)
    body += "<div class=\"actions\">\n"
    body += "<button type=\"submit\" name=\"decision\" value=\"approve\">"
    body += "\(escape(approveLabel))</button>\n"
    body += "<button type=\"submit\" name=\"decision\" value=\"deny\">"
    body += "\(escape(denyLabel))</button>\n</div>\n</form>\n"
    return .html(page(provider: provider, title: title, body: body))
  }

  /// Escapes text for HTML content and quoted attribute values.
  static func escape(_ text: String) -> String {
    HTTPResponse.escapingHTML(text)
  }

  private static func hidden(_ fields: [(name: String, value: String)]) -> String {
    fields.map {
      "<input type=\"hidden\" name=\"\(escape($0.name))\" value=\"\(escape($0.value))\">\n"
    }.joined()
  }

  private static func errorParagraph(_ error: String?) -> String {
    error.map { "<p class=\"error\" role=\"alert\">\(escape($0))</p>\n" } ?? ""
  }

  static func page(provider: String, title: String, body: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(escape(title)) · \(escape(provider)) (sandbox)</title>
    <style>
    body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;\
    color:#1d1d1f;line-height:1.5}
    .provider{color:#666;font-size:.85rem;text-transform:uppercase;letter-spacing:.06em}
    .error{background:#fdecea;border:1px solid #e0a39c;padding:.5rem .75rem}
    label{display:block;margin:1rem 0 .25rem;font-weight:600}
    input[type=text]{font-size:1.1rem;padding:.4rem;width:100%;box-sizing:border-box}
    .actions{margin-top:1.5rem;display:flex;gap:.75rem}
    button{font-size:1rem;padding:.5rem 1.25rem}
    </style>
    </head>
    <body>
    <p class="provider">\(escape(provider)) · local sandbox</p>
    <h1>\(escape(title))</h1>
    \(body)</body>
    </html>

    """
  }
}
