import Foundation
import Terminal
import Theme

/// The passphrase prompt: unlock the vault, or choose the passphrase of a new one.
enum UnlockView {
  static func draw(
    _ form: UnlockForm, state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer
  ) {
    Chrome.titleBar(form.creating ? "New vault" : "Unlock", detail: "", in: &buffer)
    let width = min(body.size.columns - 4, 64)
    let height = min(body.size.rows, 11)
    let area = body.centered(Size(rows: height, columns: width))
    var page = Page(area)
    page.line(
      [(form.creating ? "Create your vault" : "Unlock your vault", .dialogTitle)], in: &buffer)
    page.line([(state.configuration.vaultPath, .listSecondary)], in: &buffer)
    page.skip()
    let labelWidth = 12
    var cursor: Point?
    func input(_ label: String, _ field: TextField, focused: Bool) {
      guard !page.isFull else { return }
      let row = page.row
      buffer.write(label, at: Point(row: row, column: area.left), role: .inputLabel)
      let fieldWidth = width - labelWidth
      buffer.fill(
        Rect(row: row, column: area.left + labelWidth, rows: 1, columns: fieldWidth), role: .input)
      let end = buffer.write(
        field.shown, at: Point(row: row, column: area.left + labelWidth), role: .input,
        maxWidth: fieldWidth - 1)
      if focused { cursor = Point(row: row, column: end) }
      page.skip()
    }
    input("Passphrase", form.passphrase, focused: form.focus == 0)
    if form.creating {
      input("Again", form.repeated, focused: form.focus == 1)
    }
    page.skip()
    if form.pending != nil {
      page.line(
        [
          (Chrome.spinner(at: now), .spinner),
          (form.creating ? " Creating the vault…" : " Unlocking…", .statusBusy),
        ], in: &buffer)
    } else if let problem = form.problem {
      page.wrapped(problem, role: .statusError, limit: 2, in: &buffer)
    } else if form.creating {
      page.wrapped(
        "Choose a passphrase you will remember: nothing can recover it.", role: .details,
        limit: 2, in: &buffer)
    } else {
      page.wrapped(
        "Tip: AUTHTUI_PASSPHRASE_COMMAND can supply it (for example from a password manager).",
        role: .listSecondary, limit: 2, in: &buffer)
    }
    if let demo = state.configuration.demoNotice {
      page.skip()
      page.wrapped(demo, role: .notice, limit: 2, in: &buffer)
    }
    buffer.cursor = cursor
  }
}
