import AccountFacts
import Accounts
import Foundation
import Terminal
import Theme

/// The rename dialog (the list's rename key), and the label prompt after a sign-in whose
/// label would be only the provider's opaque identifier for the user (`signedIn`): one field
/// holding the label, checked by `AccountLabel`'s rules, stored through the vault.
public struct RenameForm: Sendable, Equatable {
  /// The account as it is named now.
  public var account: AccountName
  /// The label typed, prefilled with the account's own.
  public var label: TextField
  /// Why the label was not stored, said under the field.
  public var problem: String?
  /// The rename in flight.
  public var pending: RequestID?
  /// The account a sign-in just stored under an opaque identifier: it joins the list once it
  /// is named (or its label kept), so the list never shows it under the number.
  public var signedIn: AccountSummary?

  /// The dialog that renames `account`.
  public init(account: AccountName) {
    self.account = account
    label = TextField(account.label)
  }

  /// The prompt for a better label of `signedIn`, just stored under an opaque identifier.
  public init(naming signedIn: AccountSummary) {
    self.init(account: signedIn.name)
    self.signedIn = signedIn
  }
}

extension RenameForm: WaitingForm {
  static let dialogCase = DialogCase(embed: DialogPanel.rename) {
    if case .rename(let form) = $0 { form } else { nil }
  }
  var context: KeyContext { .rename }

  mutating func edit(_ change: (inout TextField) -> Void) {
    guard pending == nil else { return }
    change(&label)
    problem = nil
  }

  func hints(_ state: AppState) -> [(Command, String)] {
    if pending != nil { return [(.back, "close")] }
    if signedIn != nil { return [(.confirm, "use this label"), (.back, "keep it")] }
    return [(.confirm, "rename"), (.back, "cancel")]
  }

  func draw(state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer) {
    if let signedIn {
      RenameView.drawPrompt(self, signedIn, state: state, body: body, now: now, in: &buffer)
      return
    }
    let width = min(body.size.columns - 4, 64)
    let provider = account.provider.rawValue
    let last = RenameView.lastLines(self, state: state, now: now, width: width - 4)
    // The rows go first to the field and what is said under it (a refusal is read whole),
    // then to a blank row between them, to the note, whole, and last to the blank rows at the
    // top and bottom: on a short screen a note cut short would say nothing the title and the
    // field do not.
    let note = TextWrap.lines(
      "The label follows the provider in \(provider)/LABEL, the name `authtui token` and the "
        + "other commands take.", width: width - 4, limit: 4)
    let under = Array(last.prefix(max(1, body.size.rows - 3)))
    var budget = RowBudget(rows: body.size.rows, needed: 3 + under.count)
    let belowField = budget.blank()
    let shown = budget.take(note.count + 1) ? note : []
    let top = budget.blank()
    let bottom = budget.blank()
    let noteRows = shown.isEmpty ? 0 : shown.count + 1
    let inner = Chrome.dialog(
      "Rename \(account)",
      size: Size(
        rows: 2 + top + noteRows + 1 + belowField + under.count + bottom, columns: width),
      in: body, buffer: &buffer)
    var page = Page(inner)
    page.skip(top)
    for line in shown { page.line([(line, .dialog)], in: &buffer) }
    page.skip(shown.isEmpty ? 0 : 1)
    let cursor = InputLine.draw(
      "Label", label, placeholder: "the new label", row: page.row, column: inner.left,
      labelWidth: 7, width: inner.size.columns - 7, in: &buffer)
    page.skip(1 + belowField)
    for (text, role) in under { page.line([(text, role)], in: &buffer) }
    buffer.cursor = pending == nil ? cursor : nil
  }

  func perform(_ command: Command, in state: inout AppState, now: Date) -> [Effect] {
    state.performRename(self, command, now: now)
  }
}

extension AppState {
  /// The rename dialog's keys (and the label prompt's after a sign-in): Enter checks the label
  /// by the one rule and stores it through the vault; Esc leaves the label as it is.
  mutating func performRename(_ form: RenameForm, _ command: Command, now: Date) -> [Effect] {
    switch command {
    case .back:
      // A rename in flight still finishes; the list then shows the account under its new name.
      panels.removeLast()
      if let signedIn = form.signedIn, form.pending == nil {
        joinList(signedIn, now: now)
        message = StatusMessage(
          .success,
          "signed in: \(signedIn.name); \(keyName(.rename, in: .list)) renames it later",
          now: now)
      }
      return []
    case .confirm:
      guard form.pending == nil else { return [] }
      let typed = form.label.text.trimmingCharacters(in: .whitespaces)
      if typed == form.account.label {
        panels.removeLast()
        if let signedIn = form.signedIn {
          joinList(signedIn, now: now)
          message = StatusMessage(.success, "signed in: \(signedIn.name)", now: now)
        }
        return []
      }
      if typed.isEmpty {
        // The command line's words for an empty label offer "none at all" (the provider's
        // name): here that is what Esc does.
        let keep = keyName(.back, in: .rename)
        updateDialog(RenameForm.self) {
          $0.problem = "a label cannot be empty; type one, or \(keep) keeps \(form.account.label)"
        }
        return []
      }
      if let problem = AccountLabel.problem(with: typed) {
        updateDialog(RenameForm.self) {
          $0.problem = AccountsError.invalidLabel(typed, problem: problem).message
        }
        return []
      }
      let id = startBusy("renaming \(form.account)", account: form.account, writesVault: true)
      updateDialog(RenameForm.self) {
        $0.pending = id
        $0.problem = nil
      }
      return [.rename(id, form.account, label: typed)]
    default:
      return []
    }
  }

  /// The rename `request` of `name` to `label` ended: on success the list as the vault now
  /// holds it, with the account selected under its new name (its details panel follows it);
  /// a refusal is said in the dialog, which keeps what was typed.
  mutating func renamed(
    _ request: RequestID, _ name: AccountName, to label: String,
    _ result: Result<AccountList, AccountsError>, now: Date
  ) {
    let formIndex = formIndex(waitingFor: request)
    switch result {
    case .failure(let failure):
      requestFailed(failure.message(failing: "rename \(name)"), inFormAt: formIndex, now: now)
    case .success(let list):
      let renamed = AccountName(provider: name.provider, label: label)
      var signedIn = false
      if let formIndex, let form = RenameForm(panels[formIndex]) {
        signedIn = form.signedIn != nil
        panels.removeSubrange(formIndex...)
      }
      for index in panels.indices {
        if case .details(name) = panels[index] { panels[index] = .details(renamed) }
      }
      if selection == name || signedIn { selection = renamed }
      follow(list)
      if !visibleAccounts.contains(where: { $0.name == renamed }), account(renamed) != nil {
        filter.clear()
        accountsChanged()
        selection = renamed
      }
      keepSelectionVisible()
      message = StatusMessage(
        .success, signedIn ? "signed in: \(renamed)" : "renamed \(name) to \(renamed)", now: now)
    }
  }

  /// Shows an account a sign-in stored, selected (the filter cleared when it hides it).
  mutating func joinList(_ account: AccountSummary, now: Date) {
    upsert(account)
    if !visibleAccounts.contains(where: { $0.name == account.name }) {
      filter.clear()
      accountsChanged()
    }
    selection = account.name
    keepSelectionVisible()
  }
}

/// The rename dialog over the list, and the label prompt that takes the sign-in's place when
/// the provider named the new account only by an opaque identifier (a page of its own, so
/// the list, where the account is not yet, stays out of sight).
enum RenameView {

  /// The page that asks for a label after a sign-in.
  fileprivate static func drawPrompt(
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
  fileprivate static func lastLines(
    _ form: RenameForm, state: AppState, now: Date, width: Int
  ) -> [(String, Role)] {
    if let problem = form.problem {
      return TextWrap.lines("✗ " + problem, width: width, limit: 8).map { ($0, .statusError) }
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
