import AccountFacts
import Foundation
import Terminal
import Theme

/// The rename dialog over the list, and the label prompt that takes the sign-in's place when
/// the provider named the new account only by an opaque identifier (a page of its own, so
/// the list, where the account is not yet, stays out of sight).
enum RenameView {
  static func draw(
    _ form: RenameForm, state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer
  ) {
    if let signedIn = form.signedIn {
      drawPrompt(form, signedIn, state: state, body: body, now: now, in: &buffer)
      return
    }
    let width = min(body.size.columns - 4, 64)
    let provider = form.account.provider.rawValue
    let note = TextWrap.lines(
      "The label follows the provider in \(provider)/LABEL, the name `authtui token` and the "
        + "other commands take.", width: width - 4, limit: 2)
    let last = lastLines(form, state: state, now: now, width: width - 4)
    let inner = Chrome.dialog(
      "Rename \(form.account)",
      size: Size(rows: 2 + note.count + 1 + 1 + 1 + last.count + 2, columns: width), in: body,
      buffer: &buffer)
    var page = Page(inner)
    page.skip()
    for line in note { page.line([(line, .dialog)], in: &buffer) }
    page.skip()
    let cursor = InputLine.draw(
      "Label", form.label, placeholder: "the new label", row: page.row, column: inner.left,
      labelWidth: 7, width: inner.size.columns - 7, in: &buffer)
    page.skip(2)
    for (text, role) in last { page.line([(text, role)], in: &buffer) }
    buffer.cursor = form.pending == nil ? cursor : nil
  }

  /// The page that asks for a label after a sign-in.
  private static func drawPrompt(
    _ form: RenameForm, _ account: AccountSummary, state: AppState, body: Rect, now: Date,
    in buffer: inout ScreenBuffer
  ) {
    buffer.fill(body, role: .default)
    Chrome.titleBar("Name the account", detail: account.providerName, in: &buffer)
    let area = Rect(
      row: body.top + 1, column: 2, rows: body.size.rows - 1, columns: body.size.columns - 4)
    let roomy = area.size.rows >= 18
    var page = Page(area)
    let name = account.name
    page.line([("Signed in to \(account.providerName).", .listGroup)], in: &buffer)
    if roomy { page.skip() }
    page.wrapped(
      "\(account.providerName) names you only by an opaque number, so the account would be "
        + "\(name). Choose a label you will recognise: it names the account as "
        + "\(name.provider)/LABEL in the list and in `authtui token`.", role: .details,
      limit: 4, in: &buffer)
    page.skip()
    let cursor = InputLine.draw(
      "Label", form.label, placeholder: "such as work", row: page.row, column: area.left,
      labelWidth: 7, width: min(area.size.columns - 7, 40), in: &buffer)
    page.skip(2)
    for (text, role) in lastLines(form, state: state, now: now, width: area.size.columns) {
      page.line([(text, role)], in: &buffer)
    }
    buffer.cursor = form.pending == nil ? cursor : nil
  }

  /// Under the field: why the label was refused, the rename under way, or what the keys do.
  private static func lastLines(
    _ form: RenameForm, state: AppState, now: Date, width: Int
  ) -> [(String, Role)] {
    if let problem = form.problem {
      return TextWrap.lines("✗ " + problem, width: width, limit: 4).map { ($0, .statusError) }
    }
    if form.pending != nil {
      return [(Chrome.spinner(at: now) + " Renaming…", .statusBusy)]
    }
    let confirm = state.keyName(.confirm, in: .rename)
    let back = state.keyName(.back, in: .rename)
    let text =
      form.signedIn == nil
      ? "\(confirm) renames it; \(back) keeps its label."
      : "\(confirm) gives it this label; \(back) keeps \(form.account)."
    return TextWrap.lines(text, width: width, limit: 2).map { ($0, .listSecondary) }
  }
}
