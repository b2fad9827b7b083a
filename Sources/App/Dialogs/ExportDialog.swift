import Accounts
import Foundation
import Spelling
import Terminal
import Theme

/// The export dialog: where the token goes (an env file or the clipboard), the file's path and
/// the variable's name.
public struct ExportForm: Sendable, Equatable {
  /// Where the token goes.
  public enum Destination: Sendable, Equatable {
    case envFile, clipboard
  }

  /// The fields, in focus order.
  public enum Field: Int, Sendable, CaseIterable {
    case destination, path, variable
  }

  /// The account exported.
  public var account: AccountName
  /// Where the token goes.
  public var destination: Destination = .envFile
  /// The env file's path (`~` allowed).
  public var path: TextField
  /// The variable's name.
  public var variable: TextField
  /// The focused field.
  public var focus: Field = .destination
  /// Why the form cannot be submitted as it is, or why the file could not be written.
  public var problem: String?
  /// The env file's writing in flight: the dialog stays open until it ends, so that a path
  /// that cannot be written is said here, with what was typed kept.
  public var pending: RequestID?

  /// The form for `account`, with the default path `<config dir>/env/PROVIDER.env` (or
  /// `PROVIDER-LABEL.env` when the provider has several accounts) and `PROVIDER_TOKEN`.
  public init(account: AccountName, configDirectory: String, onlyAccountOfProvider: Bool) {
    self.account = account
    let fileName =
      onlyAccountOfProvider
      ? account.provider.rawValue : account.provider.rawValue + "-" + Self.fileSafe(account.label)
    path = TextField(configDirectory + "/env/" + fileName + ".env")
    variable = TextField(EnvFile.defaultVariableName(provider: account.provider, label: nil))
  }

  /// The fields that can take the focus for the current destination.
  public var fields: [Field] {
    destination == .envFile ? Field.allCases : [.destination]
  }

  /// True for a POSIX shell variable name: a letter or `_`, then letters, digits and `_`.
  public static func isValidVariableName(_ name: String) -> Bool {
    guard let first = name.first, first.isASCII, first.isLetter || first == "_" else {
      return false
    }
    return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
  }

  private static func fileSafe(_ label: String) -> String {
    let kept = label.map { character -> Character in
      character.isLetter || character.isNumber || character == "-" || character == "."
        ? character : "_"
    }
    return String(kept)
  }
}

extension ExportForm: WaitingForm {
  static let dialogCase = DialogCase(embed: DialogPanel.export) {
    if case .export(let form) = $0 { form } else { nil }
  }
  var context: KeyContext { .export }
  /// The file and the variable take text; the destination's row takes the keys.
  var acceptsText: Bool { focus != .destination }

  mutating func edit(_ change: (inout TextField) -> Void) {
    guard pending == nil else { return }
    switch focus {
    case .path: change(&path)
    case .variable: change(&variable)
    case .destination: break
    }
    problem = nil
  }

  func hints(_ state: AppState) -> [(Command, String)] {
    if pending != nil { return [(.back, "close")] }
    return [(.confirm, "export")] + Hints.words(.nextField)
      + (focus == .destination ? [(.toggle, "switch")] : []) + [(.back, "cancel")]
  }

  func draw(state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer) {
    let width = min(body.size.columns - 4, 72)
    let noteText: String
    if destination == .envFile {
      let variable = self.variable.text.isEmpty ? "NAME" : self.variable.text
      noteText =
        "Writes \(variable)='…' and \(variable)_EXPIRES_AT, mode 0600; other lines of the "
        + "file stay."
    } else {
      noteText =
        "Copies the token through the terminal (OSC 52, also over SSH) and wl-copy or xclip; "
        + "cleared after \(Int(clamping: state.configuration.clipboardClearAfter)) s if unchanged."
    }
    let note = TextWrap.lines(noteText, width: width - 4)
    let problem = self.problem.map { TextWrap.lines($0, width: width - 4) } ?? []
    let fields = 1 + (destination == .envFile ? 2 : 0)
    // On a short screen a problem stays in sight: the blank rows at the top and bottom give
    // way first, then the note.
    var budget = RowBudget(rows: body.size.rows, needed: 2 + fields + problem.count)
    let belowFields = budget.blank()
    let shown = budget.take(note.count) ? note : []
    let top = budget.blank()
    let bottom = budget.blank()
    let rows = 2 + top + fields + belowFields + shown.count + problem.count + bottom
    let inner = Chrome.dialog(
      "Export \(account)", size: Size(rows: rows, columns: width), in: body, buffer: &buffer)
    var page = Page(inner)
    page.skip(top)
    let labelWidth = 10
    var cursor: Point?
    // Destination: two choices, the chosen one marked.
    let row = page.row
    buffer.write("To", at: Point(row: row, column: inner.left), role: .inputLabel)
    let choiceRole: Role = focus == .destination ? .dialogButtonSelected : .dialogButton
    let env = (destination == .envFile ? "(•)" : "( )") + " env file"
    let clip = (destination == .clipboard ? "(•)" : "( )") + " clipboard"
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
    if destination == .envFile {
      input("File", path, focused: focus == .path)
      input("Variable", variable, focused: focus == .variable)
    }
    page.skip(belowFields)
    for line in shown { page.line([(line, .dialog)], in: &buffer) }
    for line in problem { page.line([(line, .dialogWarning)], in: &buffer) }
    buffer.cursor = pending == nil ? cursor : nil
  }

  func perform(_ command: Command, in state: inout AppState, now: Date) -> [Effect] {
    state.performExport(self, command, now: now)
  }
}

extension AppState {
  mutating func performExport(_ form: ExportForm, _ command: Command, now: Date) -> [Effect] {
    switch command {
    case .back:
      panels.removeLast()
    case _ where form.pending != nil:
      // Writing the file: only closing the dialog (the writing goes on) is offered.
      break
    case .moveDown, .nextField, .moveUp, .previousField:
      let step = command == .moveDown || command == .nextField ? 1 : -1
      let next = form.fields.cycling(from: form.focus, by: step)
      updateDialog(ExportForm.self) { $0.focus = next }
    case .toggle:
      guard form.focus == .destination else { return [] }
      updateDialog(ExportForm.self) {
        $0.destination = $0.destination == .envFile ? .clipboard : .envFile
      }
    case .confirm:
      return submitExport(form, now: now)
    default:
      break
    }
    return []
  }

  private mutating func submitExport(_ form: ExportForm, now: Date) -> [Effect] {
    let name = form.account
    if form.destination == .clipboard {
      panels.removeLast()
      let id = startBusy("copying the token of \(name)", account: name, writesVault: true)
      return [.copyToken(id, name)]
    }
    let path = form.path.text.trimmingCharacters(in: .whitespaces)
    let variable = form.variable.text
    if path.isEmpty {
      updateDialog(ExportForm.self) {
        $0.problem =
          "type the file to write, for example ~/.config/authtui/env/\(name.provider).env"
        $0.focus = .path
      }
      return []
    }
    if !ExportForm.isValidVariableName(variable) {
      updateDialog(ExportForm.self) {
        $0.problem =
          "\"\(variable)\" is not a shell variable name: use letters, digits and _, "
          + "not starting with a digit"
        $0.focus = .variable
      }
      return []
    }
    if let reason = TokenVariableName.reason(variable, for: .envFile) {
      updateDialog(ExportForm.self) {
        $0.problem = "\(variable) cannot hold the token: \(reason); choose a name of your own"
        $0.focus = .variable
      }
      return []
    }
    let id = startBusy("exporting \(name)", account: name, writesVault: true)
    updateDialog(ExportForm.self) {
      $0.pending = id
      $0.problem = nil
    }
    return [.exportEnvFile(id, name, path: path, variable: variable)]
  }

  /// The env file's writing `request` ended: on success the dialog closes and the status line
  /// says what was written; a refusal (a folder, a FIFO, a path that cannot be written) is said
  /// in the dialog, which keeps what was typed, or on the status line once it was closed.
  /// `account` is the account exported, for a failure that does not name it.
  mutating func exported(
    _ request: RequestID, _ result: Result<ExportReport, AccountsError>, account: AccountName?,
    now: Date
  ) {
    let formIndex = formIndex(waitingFor: request)
    switch result {
    case .success(let report):
      if let formIndex { panels.removeSubrange(formIndex...) }
      message = StatusMessage(
        .success, "wrote \(report.variable) for \(report.account) to \(report.path)", now: now)
    case .failure(let failure):
      let action = account.map { "export the token of \($0)" } ?? "export"
      requestFailed(failure.message(failing: action), inFormAt: formIndex, now: now)
      if let formIndex { updateDialog(ExportForm.self, at: formIndex) { $0.focus = .path } }
    }
  }
}
