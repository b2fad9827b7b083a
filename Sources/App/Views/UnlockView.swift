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
    let note = Self.note(form)
    let demo = state.configuration.demoNotice.map { TextWrap.lines($0, width: width) } ?? []
    // Heading, path, blank, one or two fields, blank, the note, then the demo notice: the box
    // grows with the note so a long problem is shown whole.
    let path = TextWrap.lines(state.configuration.vaultPath, width: width)
    let fields = form.creating ? 2 : 1
    let noteLines = note.lines(width: width).count
    let wanted = 2 + path.count + fields + 1 + noteLines + (demo.isEmpty ? 0 : 1 + demo.count)
    // On a short screen the note (a problem above all) is still shown whole: the rows go
    // first to the fields and the note, then to the path, the blank rows, and last to the
    // heading the title bar repeats and the demo notice.
    var budget = RowBudget(rows: body.size.rows, needed: fields + noteLines)
    let showsPath = budget.take(path.count)
    let gapBelow = budget.take(1)
    let gapAbove = budget.take(1)
    let heading = budget.take(1)
    let showsDemo = !demo.isEmpty && budget.take(1 + demo.count)
    let height = min(body.size.rows, max(11, wanted))
    let area = body.centered(Size(rows: height, columns: width))
    var page = Page(area)
    if heading {
      page.line(
        [(form.creating ? "Create your vault" : "Unlock your vault", .dialogTitle)], in: &buffer)
    }
    if showsPath {
      page.wrapped(state.configuration.vaultPath, role: .listSecondary, in: &buffer)
    }
    if gapAbove { page.skip() }
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
    if gapBelow { page.skip() }
    if form.pending != nil {
      page.line([(Chrome.spinner(at: now), .spinner), (" " + note.text, note.role)], in: &buffer)
    } else {
      page.wrapped(note.text, role: note.role, in: &buffer)
    }
    if let demo = state.configuration.demoNotice, showsDemo {
      page.skip()
      page.wrapped(demo, role: .notice, in: &buffer)
    }
    buffer.cursor = cursor
  }

  /// The text under the fields: what is going on, what went wrong, or a tip.
  private struct Note {
    let text: String
    let role: Role

    func lines(width: Int) -> [String] { TextWrap.lines(text, width: width) }
  }

  private static func note(_ form: UnlockForm) -> Note {
    if form.pending != nil {
      return Note(text: form.creating ? "Creating the vault…" : "Unlocking…", role: .statusBusy)
    }
    if let problem = form.problem { return Note(text: problem, role: .statusError) }
    if form.creating {
      return Note(
        text: "Choose a passphrase you will remember: nothing can recover it.", role: .details)
    }
    return Note(
      text: "Tip: AUTHTUI_PASSPHRASE_COMMAND can supply it (for example from a password manager).",
      role: .listSecondary)
  }
}
