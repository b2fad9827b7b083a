import Foundation
import Providers
import Spelling
import Terminal
import Theme

/// The "Other provider…" form: the issuer URL and an optional client id; once discovered, what
/// the server offers (the facts `authtui providers add` prints), whether authtui can register
/// itself there, and the provider's id; the spinner while it works, or the one line that says
/// what failed and the fix.
enum OtherProviderView {
  static func draw(
    _ form: IssuerForm, state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer
  ) {
    buffer.fill(body, role: .default)
    Chrome.titleBar("Other provider", detail: "from its issuer URL", in: &buffer)
    let area = Rect(
      row: body.top + 1, column: 2, rows: body.size.rows - 1, columns: body.size.columns - 4)
    // On a short screen the fields, the verdict and the last line come first: the blank
    // lines and the explanation give way, and the facts run on as one text.
    let roomy = area.size.rows >= 18
    var page = Page(area)
    let labelWidth = 14
    let fieldWidth = min(area.size.columns - labelWidth, 56)
    var cursor: Point?
    func input(
      _ label: String, _ field: TextField, _ placeholder: String, _ which: IssuerForm.Field
    ) {
      guard !page.isFull else { return }
      let end = InputLine.draw(
        label, field, placeholder: placeholder, row: page.row, column: area.left,
        labelWidth: labelWidth, width: fieldWidth, in: &buffer)
      if form.focus == which && form.pending == nil { cursor = end }
      page.skip()
    }
    if roomy {
      page.line(
        [("Any OpenID Connect or OAuth 2 server, from its issuer URL", .listGroup)], in: &buffer)
      page.skip()
      if form.discovery == nil {
        page.wrapped(
          "authtui reads what the server publishes, registers itself there where the server "
            + "allows it (RFC 7591), saves the provider to a file of yours, and signs in.",
          role: .details, in: &buffer)
        page.skip()
      }
    }
    input(
      "Issuer URL", form.issuer, state.configuration.issuerSuggestion ?? "https://id.example.com",
      .issuer)
    input("Client id", form.clientID, "optional: authtui registers itself", .clientID)
    if roomy { page.skip() }
    // The last line (the problem, the spinner or what Enter does) keeps its rows.
    let last = lastLine(form, state: state, now: now, width: area.size.columns)
    if let summary = form.discovery {
      let (verdict, verdictRole) = Self.verdict(form)
      let verdictLines = TextWrap.lines(verdict, width: area.size.columns)
      // The verdict, the id and the last line keep their rows; the facts take what is left.
      let reserved = verdictLines.count + 1 + last.lines.count + (roomy ? 2 : 0)
      let facts = summary.facts
      let room = page.remaining - reserved
      if roomy && room >= facts.count + 1 {
        page.line([("What \(summary.issuer) offers:", .details)], in: &buffer)
        let width = (facts.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2
        for fact in facts {
          page.line(
            [
              (fact.label.padding(toLength: width, withPad: " ", startingAt: 0), .detailsLabel),
              (fact.value, .details),
            ], indent: 2, in: &buffer)
        }
      } else if room > 0 {
        page.wrapped(
          facts.map { "\($0.label): \($0.value)" }.joined(separator: "; "), role: .details,
          limit: room, in: &buffer)
      }
      for line in verdictLines { page.line([(line, verdictRole)], in: &buffer) }
      if roomy { page.skip() }
      input("Provider id", form.providerID, "lowercase letters, digits and -", .providerID)
    }
    if roomy { page.skip() }
    let bottom = Page(
      Rect(
        row: max(page.row, area.bottom - last.lines.count), column: area.left,
        rows: last.lines.count, columns: area.size.columns))
    var lastPage = bottom
    for (index, line) in last.lines.enumerated() {
      if index == 0, let spinner = last.spinner {
        lastPage.line([(spinner, .spinner), (" " + line, last.role)], in: &buffer)
      } else {
        lastPage.line([(line, last.role)], in: &buffer)
      }
    }
    buffer.cursor = cursor
  }

  /// Whether authtui can register itself there, as one sentence, and its role.
  static func verdict(_ form: IssuerForm) -> (String, Role) {
    guard let summary = form.discovery else { return ("", .details) }
    if let clientID = form.givenClientID {
      return ("✓ authtui signs in as the client \(clientID) you gave.", .statusSuccess)
    }
    if summary.registration {
      return (
        "✓ authtui can register itself there, as a public client (RFC 7591).", .statusSuccess
      )
    }
    return (
      "✗ It lets no application register itself: type a client id its administrator gives "
        + "you, or save now and add one later.", .statusWarning
    )
  }

  /// The form's last line: why the last step failed, the work under way (with the spinner),
  /// or what Enter does.
  static func lastLine(_ form: IssuerForm, state: AppState, now: Date, width: Int)
    -> (lines: [String], role: Role, spinner: String?)
  {
    if let problem = form.problem {
      return (TextWrap.lines("✗ " + problem, width: width, limit: 7), .statusError, nil)
    }
    let issuer = form.issuer.text.trimmingCharacters(in: .whitespaces)
    switch form.pending {
    case .discovering?:
      let text = "Discovering \(issuer)…"
      return (
        TextWrap.lines(text, width: width - 2, limit: 2), .statusBusy, Chrome.spinner(at: now)
      )
    case .adding?:
      let text = form.registers ? "Registering authtui and saving…" : "Saving…"
      return ([text], .statusBusy, Chrome.spinner(at: now))
    case nil:
      break
    }
    guard form.discovery != nil else {
      return (
        TextWrap.lines(
          "Enter discovers what the server offers; nothing is saved yet.", width: width,
          limit: 2), .listSecondary, nil
      )
    }
    let id = form.providerID.text.isEmpty ? "ID" : form.providerID.text
    let file = "\(state.configuration.configDirectory)/providers/\(id).json"
    let text =
      (form.registers ? "Enter registers authtui, saves " : "Enter saves ") + file
      + (form.givenClientID == nil && !form.registers ? "." : " and signs in.")
    return (TextWrap.lines(text, width: width, limit: 2), .listSecondary, nil)
  }
}
