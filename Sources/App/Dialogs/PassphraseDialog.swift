import Accounts
import Foundation
import Terminal
import Theme

/// The passphrase dialog (the list's `P`): the current passphrase, then the new one twice.
/// The current one is asked although the vault is open, as `authtui vault passwd` asks it: an
/// unlocked terminal left alone does not let anyone lock its owner out. Only the wrapped data
/// key is rewritten: the tokens and a running agent's keys stay as they are, and another open
/// UI asks for the new passphrase (it notices the change, `VaultChange.passphraseChanged`).
public struct PassphraseForm: Sendable, Equatable {
  /// The fields, in focus order.
  public enum Field: Sendable, Equatable, CaseIterable {
    case current, new, repeated
  }

  /// The passphrase the vault has now.
  public var current = TextField(isSecret: true)
  /// The one it is to have.
  public var new = TextField(isSecret: true)
  /// The new one again.
  public var repeated = TextField(isSecret: true)
  /// The focused field.
  public var focus = Field.current
  /// Why the last try failed, said under the fields.
  public var problem: String?
  /// The change in flight (the key derivation takes about a second, twice).
  public var pending: RequestID?

  public init() {}

  /// The field `focus` names.
  var focused: TextField {
    get {
      switch focus {
      case .current: current
      case .new: new
      case .repeated: repeated
      }
    }
    set {
      switch focus {
      case .current: current = newValue
      case .new: new = newValue
      case .repeated: repeated = newValue
      }
    }
  }
}

/// A passphrase change that was made, and what it made stale: the unlock key that `authtui
/// vault unlock --cache` kept in the kernel keyring (removed), and the variable that supplied
/// the old passphrase (which the user must update where they set it).
public struct PassphraseChange: Sendable, Equatable {
  /// True when the stale unlock key was removed from the kernel keyring.
  public var removedCachedKey: Bool
  /// `AUTHTUI_PASSPHRASE`, `…_FILE` or `…_COMMAND` when one supplies the passphrase: it gives
  /// the old one now.
  public var staleVariable: String?

  public init(removedCachedKey: Bool, staleVariable: String? = nil) {
    self.removedCachedKey = removedCachedKey
    self.staleVariable = staleVariable
  }

  /// The status line's sentence.
  var summary: String {
    var parts = ["changed the vault's passphrase"]
    if let staleVariable { parts.append("update \(staleVariable) where you set it") }
    if removedCachedKey { parts.append("removed the stale unlock key cached in the keyring") }
    return parts.joined(separator: "; ")
  }
}

/// Why a passphrase change was not made; nothing was changed either way.
public enum PassphraseChangeFailure: Error, Sendable, Equatable {
  /// The current passphrase typed is not the vault's.
  case wrongCurrent
  /// The vault could not do it, for this reason.
  case vault(AccountsError)

  /// The sentence under the fields.
  public var message: String {
    switch self {
    case .wrongCurrent:
      return "that is not the vault's current passphrase; nothing was changed: type it again"
    case .vault(let failure): return failure.message(failing: "change the passphrase")
    }
  }
}

extension PassphraseForm: WaitingForm {
  static let dialogCase = DialogCase(embed: DialogPanel.passphrase) {
    if case .passphrase(let form) = $0 { form } else { nil }
  }
  var context: KeyContext { .passphrase }

  mutating func edit(_ change: (inout TextField) -> Void) {
    guard pending == nil else { return }
    change(&focused)
    problem = nil
  }

  func hints(_ state: AppState) -> [(Command, String)] {
    if pending != nil { return [(.back, "close")] }
    return [(.confirm, focus == .repeated ? "change" : "next")] + Hints.words(.nextField)
      + [(.back, "cancel")]
  }

  func draw(state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer) {
    let width = min(body.size.columns - 4, 64)
    let last = lastLines(state: state, now: now, width: width - 4)
    let note = TextWrap.lines(
      "Only the key that opens the vault is rewrapped: the accounts and a running agent carry "
        + "on; another open authtui asks for the new passphrase.", width: width - 4, limit: 3)
    // On a short screen what went wrong, under the fields, stays in sight: the blank rows at
    // the top and bottom give way first, then the note, then the rows between the fields.
    var budget = RowBudget(rows: body.size.rows, needed: 2 + 3 + last.count)
    let belowFields = budget.blank()
    let fieldGap = budget.take(2) ? 1 : 0
    let shown = budget.take(note.count + 1) ? note : []
    let top = budget.blank()
    let bottom = budget.blank()
    let rows =
      2 + top + (shown.isEmpty ? 0 : shown.count + 1) + 3 + 2 * fieldGap + belowFields
      + last.count + bottom
    let inner = Chrome.dialog(
      "Change the vault's passphrase", size: Size(rows: rows, columns: width), in: body,
      buffer: &buffer)
    var page = Page(inner)
    page.skip(top)
    if !shown.isEmpty {
      for line in shown { page.line([(line, .dialog)], in: &buffer) }
      page.skip()
    }
    var cursor: Point?
    let fields: [(Field, String, TextField)] = [
      (.current, "Current", current), (.new, "New", new), (.repeated, "Repeat", repeated),
    ]
    for (index, (field, label, text)) in fields.enumerated() {
      if index > 0 { page.skip(fieldGap) }
      let end = InputLine.draw(
        label, text, placeholder: "", row: page.row, column: inner.left, labelWidth: 9,
        width: inner.size.columns - 9, in: &buffer)
      if field == focus { cursor = end }
      page.skip()
    }
    page.skip(belowFields)
    for (text, role) in last { page.line([(text, role)], in: &buffer) }
    buffer.cursor = pending == nil ? cursor : nil
  }

  /// Under the fields: why the last try failed, the change under way, or what the keys do.
  private func lastLines(state: AppState, now: Date, width: Int) -> [(String, Role)] {
    if let problem {
      return TextWrap.lines("✗ " + problem, width: width, limit: 4).map { ($0, .statusError) }
    }
    if pending != nil {
      return [(Chrome.spinner(at: now) + " Changing the passphrase…", .statusBusy)]
    }
    let confirm = state.keyName(.confirm, in: .passphrase)
    let back = state.keyName(.back, in: .passphrase)
    return TextWrap.lines(
      "\(confirm) on the last field changes it; \(back) keeps the passphrase as it is.",
      width: width, limit: 2
    ).map { ($0, .listSecondary) }
  }

  func perform(_ command: Command, in state: inout AppState, now: Date) -> [Effect] {
    state.performPassphraseChange(self, command, now: now)
  }
}

extension AppState {
  /// The passphrase dialog's keys: Tab and Enter go from field to field; Enter on the last
  /// checks the new passphrase against its repetition and asks the vault; Esc leaves it.
  mutating func performPassphraseChange(_ form: PassphraseForm, _ command: Command, now: Date)
    -> [Effect]
  {
    switch command {
    case .back:
      // A change in flight still finishes, and says so on the status line.
      panels.removeLast()
      return []
    case .nextField, .previousField:
      guard form.pending == nil else { return [] }
      let step = command == .nextField ? 1 : -1
      updateDialog(PassphraseForm.self) {
        $0.focus = PassphraseForm.Field.allCases.cycling(from: form.focus, by: step)
      }
      return []
    case .confirm:
      guard form.pending == nil else { return [] }
      if form.focused.isEmpty {
        updateDialog(PassphraseForm.self) {
          $0.problem =
            $0.focus == .current
            ? "type the vault's current passphrase" : "a passphrase cannot be empty"
        }
        return []
      }
      guard form.focus == .repeated else {
        updateDialog(PassphraseForm.self) {
          $0.focus = PassphraseForm.Field.allCases.cycling(from: form.focus, by: 1)
        }
        return []
      }
      if form.current.isEmpty {
        updateDialog(PassphraseForm.self) {
          $0.focus = .current
          $0.problem = "type the vault's current passphrase"
        }
        return []
      }
      if form.new.text != form.repeated.text {
        updateDialog(PassphraseForm.self) {
          $0.new = TextField(isSecret: true)
          $0.repeated = TextField(isSecret: true)
          $0.focus = .new
          $0.problem = "the two new passphrases differ; type them again"
        }
        return []
      }
      let id = startBusy("changing the vault's passphrase", writesVault: true)
      updateDialog(PassphraseForm.self) {
        $0.pending = id
        $0.problem = nil
      }
      return [
        .changePassphrase(
          id, current: SecretText(form.current.text), new: SecretText(form.new.text))
      ]
    default:
      return []
    }
  }

  /// The passphrase change `request` ended: on success the dialog closes and the status line
  /// says what changed; a refusal is said in the dialog, with the field to type again emptied.
  mutating func vaultPassphraseChanged(
    _ request: RequestID, _ result: Result<PassphraseChange, PassphraseChangeFailure>, now: Date
  ) {
    let formIndex = formIndex(waitingFor: request)
    switch result {
    case .failure(.wrongCurrent):
      guard let formIndex else {
        // The dialog was closed while the vault checked: no field to type it again in.
        message = StatusMessage(
          .error,
          "the passphrase was not changed: that was not the vault's current one; "
            + "\(keyName(.changePassphrase, in: .list)) tries again", now: now)
        return
      }
      requestFailed(PassphraseChangeFailure.wrongCurrent.message, inFormAt: formIndex, now: now)
      updateDialog(PassphraseForm.self, at: formIndex) {
        $0.current = TextField(isSecret: true)
        $0.focus = .current
      }
    case .failure(let failure):
      requestFailed(failure.message, inFormAt: formIndex, now: now)
    case .success(let change):
      if let formIndex { panels.removeSubrange(formIndex...) }
      message = StatusMessage(.success, change.summary, now: now)
    }
  }
}
