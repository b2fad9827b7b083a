import Foundation
import Providers
import Spelling
import Terminal
import Theme

/// The setup form of a provider without a client id: where to register an application and
/// what to register (application type, redirect URI, scopes), the client id field, the client
/// secret field where the provider wants one (Google), the redirect port field when the
/// registration fixes one, and the file the answer is saved to.
enum ProviderSetupView {
  static func draw(
    _ form: ProviderSetupForm, state: AppState, body: Rect, now: Date,
    in buffer: inout ScreenBuffer
  ) {
    buffer.fill(body, role: .default)
    let name = form.provider.name
    let setup = form.setup
    let wanted = setup.asksClientSecret ? "client id and secret" : "client id"
    Chrome.titleBar("Set up \(name)", detail: setup.missing, in: &buffer)
    let area = Rect(
      row: body.top + 1, column: 2, rows: body.size.rows - 1, columns: body.size.columns - 4)
    // On a short screen the fields and the problem come first: the explanation gives way.
    let roomy = area.size.rows >= 18
    var page = Page(area)
    page.line([("\(name) needs a \(wanted) of your own", .listGroup)], in: &buffer)
    if roomy {
      page.skip()
      page.wrapped(
        "authtui signs in as an application you register with \(name): "
          + (setup.asksClientSecret
            ? "an installed application, whose client secret \(name) still wants at its token "
              + "endpoint although it is not confidential."
            : "a public client, with no client secret."),
        role: .details, in: &buffer)
    }
    page.skip()
    if let url = setup.registrationURL {
      let lead = "1. Register an application at "
      if DisplayWidth.of(lead + url) <= area.size.columns {
        page.line([(lead, .details), (url, .url)], in: &buffer)
      } else {
        // The address is never cut: it goes on lines of its own.
        page.line([("1. Register an application at", .details)], in: &buffer)
        page.wrapped(url, role: .url, indent: 3, limit: 2, in: &buffer)
      }
    } else {
      page.wrapped("1. Ask \(name) for a public (PKCE) client id.", role: .details, in: &buffer)
    }
    // What to register (application type, redirect URI, scopes) when there is room; the
    // provider's own note follows.
    if roomy {
      for fact in setup.guide.facts {
        page.wrapped(
          "\(fact.label): \(fact.value)", role: .listSecondary, indent: 3, limit: 2, in: &buffer)
      }
    }
    if let note = setup.registrationNote {
      page.wrapped(note, role: .listSecondary, indent: 3, limit: roomy ? 3 : 2, in: &buffer)
    }
    page.line([("2. Type or paste the \(wanted) it gives:", .details)], in: &buffer)
    if roomy { page.skip() }
    let labelWidth = 15
    var cursor: Point?
    func input(_ label: String, _ field: TextField, placeholder: String, focused: Bool) {
      guard !page.isFull else { return }
      let end = InputLine.draw(
        label, field, placeholder: placeholder, row: page.row, column: area.left,
        labelWidth: labelWidth, width: min(area.size.columns - labelWidth, 44), in: &buffer)
      if focused { cursor = end }
      page.skip()
    }
    input(
      "Client id", form.clientID, placeholder: "the application's client id",
      focused: form.focus == .clientID)
    if let secret = form.clientSecret {
      input(
        "Client secret", secret, placeholder: "the application's client secret",
        focused: form.focus == .clientSecret)
    }
    if let port = form.redirectPort {
      input(
        "Redirect port", port, placeholder: "1024-65535", focused: form.focus == .redirectPort)
      if roomy {
        page.line(
          [("the port of the redirect URI you registered", .listSecondary)], indent: labelWidth,
          in: &buffer)
      }
    }
    page.skip()
    if let problem = form.problem {
      page.wrapped(
        "✗ " + problem, role: .statusError, limit: max(1, min(3, page.remaining)), in: &buffer)
    } else if form.pending != nil {
      page.line([(Chrome.spinner(at: now), .spinner), (" Saving…", .statusBusy)], in: &buffer)
    } else {
      page.wrapped(
        "Enter saves it to \(setup.file) (mode 0600; the file's other fields stay) and signs "
          + "in.", role: .listSecondary, limit: max(1, min(3, page.remaining)), in: &buffer)
    }
    buffer.cursor = cursor
  }
}
