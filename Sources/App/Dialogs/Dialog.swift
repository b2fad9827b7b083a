import Foundation
import Terminal

/// A dialog over the list or the sign-in screens (a form, or a question with its answer): one
/// type holds its state, the screen its keys are looked up in, its field editing, its hints,
/// its drawing and what its keys do. `Panel.dialog` holds any of them, and the reducer, the
/// hints and the view reach each one through this protocol alone, so a new dialog is a file of
/// its own (docs/recipe-ui-operation.md).
protocol Dialog: Sendable, Equatable {
  /// Its case of `DialogPanel`.
  static var dialogCase: DialogCase<Self> { get }
  /// Where keys are looked up while the dialog is on top.
  var context: KeyContext { get }
  /// True while typed characters go into the focused field (`context.takesText` unless said).
  var acceptsText: Bool { get }
  /// The request the dialog waits for, if any (`AppState.formIndex(waitingFor:)`).
  var pendingRequest: RequestID? { get }
  /// Its request failed: it waits no more and says `problem`, keeping what was typed.
  mutating func requestFailed(_ problem: String)
  /// Changes the focused field (typing, deleting): nothing where no field takes text.
  mutating func edit(_ change: (inout TextField) -> Void)
  /// The status line's hints while the dialog is on top: each command with its word.
  func hints(_ state: AppState) -> [(Command, String)]
  /// Draws the dialog over what `body` shows.
  func draw(state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer)
  /// Does what `command` asks while the dialog is on top of `state`.
  func perform(_ command: Command, in state: inout AppState, now: Date) -> [Effect]
}

/// Where a dialog type sits in `DialogPanel`: its case, made and matched.
struct DialogCase<Form: Dialog>: Sendable {
  /// The case holding `Form`.
  let embed: @Sendable (Form) -> DialogPanel
  /// `Form` when the case is its own.
  let extract: @Sendable (DialogPanel) -> Form?
}

extension Dialog {
  /// The dialog on `panel`, if `panel` holds one of this type.
  init?(_ panel: Panel?) {
    guard case .dialog(let dialog)? = panel, let form = Self.dialogCase.extract(dialog) else {
      return nil
    }
    self = form
  }

  /// The dialog as a panel of the stack.
  var panel: Panel { .dialog(Self.dialogCase.embed(self)) }

  var acceptsText: Bool { context.takesText }
  var pendingRequest: RequestID? { nil }
  mutating func requestFailed(_ problem: String) {}
  mutating func edit(_ change: (inout TextField) -> Void) {}
}

/// A form that sends one request at a time and waits for its answer (`pending`), saying under
/// its fields why a request failed (`problem`).
protocol WaitingForm: Dialog {
  /// The request in flight.
  var pending: RequestID? { get set }
  /// Why the last request failed, or what was typed is wrong.
  var problem: String? { get set }
}

extension WaitingForm {
  var pendingRequest: RequestID? { pending }

  mutating func requestFailed(_ problem: String) {
    pending = nil
    self.problem = problem
  }
}

extension Panel {
  /// The request the panel's dialog waits for, if any.
  var pendingRequest: RequestID? {
    guard case .dialog(let dialog) = self else { return nil }
    return dialog.current.pendingRequest
  }

  /// The panel's dialog was refused `problem` for its request (`Dialog.requestFailed`).
  mutating func requestFailed(_ problem: String) {
    guard case .dialog(let dialog) = self else { return }
    self = Self.failed(dialog.current, problem)
  }

  private static func failed<D: Dialog>(_ dialog: D, _ problem: String) -> Panel {
    var dialog = dialog
    dialog.requestFailed(problem)
    return dialog.panel
  }
}

extension AppState {
  /// The dialog that keys go to now: the top panel's, unless the vault is not open yet or the
  /// agent's question covers it.
  var activeDialog: (any Dialog)? {
    guard confirmation == nil, case .ready = phase, case .dialog(let dialog)? = topPanel else {
      return nil
    }
    return dialog.current
  }

  /// Changes the dialog of type `D` on top, if the top panel is one.
  mutating func updateDialog<D: Dialog>(_: D.Type, _ change: (inout D) -> Void) {
    guard var dialog = D(topPanel) else { return }
    change(&dialog)
    panels[panels.count - 1] = dialog.panel
  }

  /// Changes the dialog of type `D` at `index` of the stack, if the panel there is one.
  mutating func updateDialog<D: Dialog>(_: D.Type, at index: Int, _ change: (inout D) -> Void) {
    guard panels.indices.contains(index), var dialog = D(panels[index]) else { return }
    change(&dialog)
    panels[index] = dialog.panel
  }

  /// Edits the focused field of `dialog`, the top panel's.
  mutating func edit<D: Dialog>(_ dialog: D, _ change: (inout TextField) -> Void) {
    var dialog = dialog
    dialog.edit(change)
    panels[panels.count - 1] = dialog.panel
  }
}
