import AccountFacts
import Foundation
import Spelling
import Terminal
import Theme

/// The dialogs drawn over the list: sign-out, export, and the configuration problems.
enum DialogViews {
  static func drawSignOut(
    _ dialog: SignOutState, state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer
  ) {
    let width = min(body.size.columns - 4, 64)
    var lines: [(String, Role)] = []
    func add(_ text: String, _ role: Role) {
      for line in TextWrap.lines(text, width: width - 4) { lines.append((line, role)) }
    }
    switch dialog.step {
    case .confirm:
      let name = dialog.providerName
      switch dialog.canRevoke {
      case true?:
        add(
          "\(name) offers token revocation: authtui asks it to revoke the tokens, then deletes "
            + "the account from the vault.", .dialog)
      case nil:
        if dialog.learning != nil {
          lines.append(
            (Chrome.spinner(at: now) + " Reading \(name)'s discovery document…", .statusBusy))
        } else {
          let problem = dialog.factsProblem ?? "no answer"
          add(
            "\(name)'s discovery document could not be read (\(problem)): authtui tries to "
              + "revoke the tokens and says whether it could, then deletes the account from the "
              + "vault.", .dialogWarning)
        }
      case false?:
        add(
          "\(dialog.providerName) cannot revoke tokens from here: they stay valid there until they "
            + "expire, if they ever do.", .dialogWarning)
        add(
          "authtui deletes the account from the vault; withdraw its access "
            + Revocation.accessSettingsPlace(dialog.accessSettingsURL) + ".", .dialog)
      }
      switch dialog.hasSignOutPage {
      case true?:
        add(
          "\(name) has a sign-out page: once signed out, "
            + "\(state.keyName(.openBrowser, in: .signOut)) opens it to end its browser session "
            + "too.", .dialog)
      case false?:
        add(
          "\(name) has no sign-out page: a browser session there stays open until you sign "
            + "out in the browser.", .dialog)
      case nil:
        break
      }
      lines.append(("", .dialog))
      add("Sign out of \(dialog.account)?", .dialog)
    case .working:
      lines.append((Chrome.spinner(at: now) + " Signing out…", .statusBusy))
      add("You can close this; the sign-out goes on.", .dialog)
    case .done(let result):
      let report = try? result.get()
      if case .failure(let failure) = result {
        add(failure.message, .statusError)
      } else {
        add("Signed out of \(dialog.account).", .dialog)
      }
      // An account that could not be removed reads as one whose provider cannot revoke.
      switch report?.revocation ?? .unsupported {
      case .revoked: add("The tokens were revoked at \(dialog.providerName).", .dialog)
      case .unsupported, .skipped, .providerMissing:
        add(
          "\(dialog.providerName) cannot revoke tokens from here: withdraw authtui's access "
            + Revocation.accessSettingsPlace(dialog.accessSettingsURL) + ".", .dialogWarning)
      case .failed(_, let message): add("Revocation failed: \(message)", .dialogWarning)
      }
      if report?.endSessionURL != nil {
        add(
          "\(dialog.providerName)'s own browser session may still be open: "
            + "\(state.keyName(.openBrowser, in: .signOut)) opens its sign-out page.", .dialog)
      }
    }
    let inner = Chrome.dialog(
      "Sign out of \(dialog.account)", size: Size(rows: lines.count + 4, columns: width),
      in: body, buffer: &buffer)
    var page = Page(inner)
    page.skip()
    for (text, role) in lines { page.line([(text, role)], in: &buffer) }
  }

  static func drawExport(
    _ form: ExportForm, state: AppState, body: Rect, in buffer: inout ScreenBuffer
  ) {
    let width = min(body.size.columns - 4, 72)
    let noteText: String
    if form.destination == .envFile {
      let variable = form.variable.text.isEmpty ? "NAME" : form.variable.text
      noteText =
        "Writes \(variable)='…' and \(variable)_EXPIRES_AT, mode 0600; other lines of the "
        + "file stay."
    } else {
      noteText =
        "Copies the token through the terminal (OSC 52, also over SSH) and wl-copy or xclip; "
        + "cleared after \(Int(clamping: state.configuration.clipboardClearAfter)) s if unchanged."
    }
    let note = TextWrap.lines(noteText, width: width - 4)
    let problem = form.problem.map { TextWrap.lines($0, width: width - 4) } ?? []
    let rows = 3 + (form.destination == .envFile ? 2 : 0) + 1 + note.count + problem.count + 2
    let inner = Chrome.dialog(
      "Export \(form.account)", size: Size(rows: rows, columns: width), in: body, buffer: &buffer)
    var page = Page(inner)
    page.skip()
    let labelWidth = 10
    var cursor: Point?
    // Destination: two choices, the chosen one marked.
    let row = page.row
    buffer.write("To", at: Point(row: row, column: inner.left), role: .inputLabel)
    let choiceRole: Role = form.focus == .destination ? .dialogButtonSelected : .dialogButton
    let env = (form.destination == .envFile ? "(•)" : "( )") + " env file"
    let clip = (form.destination == .clipboard ? "(•)" : "( )") + " clipboard"
    buffer.write(
      env + "   " + clip, at: Point(row: row, column: inner.left + labelWidth), role: choiceRole,
      maxWidth: inner.size.columns - labelWidth)
    page.skip()
    func input(_ label: String, _ field: TextField, focused: Bool) {
      let row = page.row
      buffer.write(label, at: Point(row: row, column: inner.left), role: .inputLabel)
      let fieldWidth = inner.size.columns - labelWidth
      buffer.fill(
        Rect(row: row, column: inner.left + labelWidth, rows: 1, columns: fieldWidth), role: .input)
      var shown = field.text
      while DisplayWidth.of(shown) > fieldWidth - 1 { shown.removeFirst() }
      let end = buffer.write(
        shown, at: Point(row: row, column: inner.left + labelWidth), role: .input)
      if focused { cursor = Point(row: row, column: end) }
      page.skip()
    }
    if form.destination == .envFile {
      input("File", form.path, focused: form.focus == .path)
      input("Variable", form.variable, focused: form.focus == .variable)
    }
    page.skip()
    for line in note { page.line([(line, .dialog)], in: &buffer) }
    for line in problem { page.line([(line, .dialogWarning)], in: &buffer) }
    buffer.cursor = cursor
  }

  static func drawNotices(
    _ state: AppState, scroll: Int, body: Rect, in buffer: inout ScreenBuffer
  ) {
    let width = min(body.size.columns - 4, 76)
    var lines: [String] = []
    for notice in state.notices.dropFirst(scroll) {
      lines += TextWrap.lines(notice, width: width - 4)
    }
    let more = TextWrap.lines(
      "↓ shows more. The rest of the configuration is in use.", width: width - 4)
    let done = TextWrap.lines(
      "The rest of the configuration is in use; fix these and restart.", width: width - 4)
    let rows = min(body.size.rows, lines.count + 4 + done.count)
    let inner = Chrome.dialog(
      "Problems in your configuration", size: Size(rows: rows, columns: width), in: body,
      buffer: &buffer)
    var page = Page(inner)
    page.skip()
    let fitsAll = lines.count <= max(0, inner.size.rows - 2 - done.count)
    let footer = fitsAll ? done : more
    let visible = max(0, inner.size.rows - 2 - footer.count)
    for line in lines.prefix(visible) {
      page.line([(line, .dialogWarning)], in: &buffer)
    }
    page = Page(
      Rect(
        row: inner.bottom - footer.count, column: inner.left, rows: footer.count,
        columns: inner.size.columns))
    for line in footer { page.line([(line, .dialog)], in: &buffer) }
  }
}
