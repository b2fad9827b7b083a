import Foundation
import Spelling
import Terminal
import Theme

/// The UI's views: pure functions from the state, the screen size and the time to a frame.
public enum AppView {
  /// The smallest terminal the screens fit in; below it a notice says so.
  public static let minimumSize = Size(rows: 12, columns: 50)

  /// The frame for `state` on a `size` terminal at `now`.
  public static func render(_ state: AppState, size: Size, now: Date) -> ScreenBuffer {
    var buffer = ScreenBuffer(size: size)
    guard size.columns >= minimumSize.columns, size.rows >= minimumSize.rows else {
      drawTooSmall(state, in: &buffer)
      return buffer
    }
    let body = Rect(row: 1, column: 0, rows: size.rows - 3, columns: size.columns)
    switch state.phase {
    case .starting:
      Chrome.titleBar("", detail: state.configuration.vaultPath, in: &buffer)
      var page = Page(body.centered(Size(rows: 1, columns: min(body.size.columns, 40))))
      page.line(
        [(Chrome.spinner(at: now), .spinner), (" Opening the vault…", .statusBusy)],
        in: &buffer)
    case .locked(let form):
      UnlockView.draw(form, state: state, body: body, now: now, in: &buffer)
    case .unusable(let problem):
      Chrome.titleBar("", detail: state.configuration.vaultPath, in: &buffer)
      let width = min(body.size.columns - 4, 64)
      let lines = TextWrap.lines(problem, width: width)
      var page = Page(body.centered(Size(rows: lines.count + 2, columns: width)))
      page.line([("The vault cannot be opened.", .dialogTitle)], in: &buffer)
      page.skip()
      page.wrapped(problem, role: .statusError, in: &buffer)
    case .ready:
      drawReady(state, body: body, now: now, in: &buffer)
    }
    if let dialog = state.confirmation {
      ConfirmationView.draw(dialog, state: state, area: body, now: now, in: &buffer)
    }
    if state.context == .filter {
      // The field takes the message line: a message (whole) goes above it.
      if let message = state.message {
        Chrome.messageLine(
          message, busy: [], now: now, lastRow: messageRow(state, size: size), in: &buffer)
      }
      drawFilterField(state, in: &buffer)
    } else {
      Chrome.messageLine(state.message, busy: state.busy, now: now, in: &buffer)
    }
    Chrome.hints(Hints.current(state), in: &buffer)
    return buffer
  }

  /// The row a message ends on: the message line, or the row above the filter field.
  private static func messageRow(_ state: AppState, size: Size) -> Int {
    state.context == .filter ? size.rows - 3 : size.rows - 2
  }

  /// The rows at the bottom of the body a wrapped message covers.
  private static func rowsUnderMessage(_ state: AppState, size: Size) -> Int {
    guard let message = state.message else { return 0 }
    let lastRow = messageRow(state, size: size)
    let busy = state.context == .filter ? [] : state.busy
    let lines = Chrome.messageLines(message, busy: busy, width: size.columns, lastRow: lastRow)
    let top = lastRow - lines.count + 1
    // The body ends on row `size.rows - 3`.
    return max(0, size.rows - 2 - top)
  }

  private static func drawReady(
    _ state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer
  ) {
    // The list keeps the selected row above a message that covers the bottom of it, and a
    // panel (a dialog, the sign-in, the details…) is laid out in the rows the message leaves,
    // so that what it cannot show gives way whole rather than under the message.
    let covered = rowsUnderMessage(state, size: buffer.size)
    let listBody = Rect(
      row: body.top, column: body.left, rows: max(2, body.size.rows - covered),
      columns: body.size.columns)
    ListView.draw(state, body: listBody, now: now, in: &buffer)
    let body = listBody
    for panel in state.panels {
      switch panel {
      case .details(let name):
        DetailsView.draw(name, state: state, body: body, now: now, in: &buffer)
      case .signIn(let signIn):
        SignInView.draw(signIn, state: state, body: body, now: now, in: &buffer)
      case .dialog(let dialog):
        dialog.current.draw(state: state, body: body, now: now, in: &buffer)
      case .help(let context, let scroll):
        HelpView.draw(state, first: context, scroll: scroll, body: body, in: &buffer)
      case .notices(let scroll):
        NoticesView.draw(state, scroll: scroll, body: body, in: &buffer)
      case .damaged(let screen):
        DamagedView.draw(screen, state: state, body: body, now: now, in: &buffer)
      }
    }
  }

  private static func drawFilterField(_ state: AppState, in buffer: inout ScreenBuffer) {
    let row = buffer.size.rows - 2
    buffer.fill(Rect(row: row, column: 0, rows: 1, columns: buffer.size.columns), role: .input)
    // As the forms' fields: text longer than the row shows its end, where the typing is.
    buffer.cursor = InputLine.draw(
      "/", state.filter, placeholder: "type to filter by label or provider", row: row,
      column: 1, labelWidth: 2, width: buffer.size.columns - 3, in: &buffer)
  }

  private static func drawTooSmall(_ state: AppState, in buffer: inout ScreenBuffer) {
    let size = buffer.size
    buffer.fill(buffer.bounds, role: .notice)
    // The keys the reducer acts on here (`handleKeyWhileTooSmall`).
    let quit =
      state.context == .unlock ? state.keyName(.back, in: .unlock) : state.keyName(.quit, in: .list)
    let lines = [
      "Terminal too small (\(size.columns)×\(size.rows)).",
      "authtui needs \(minimumSize.columns)×\(minimumSize.rows):",
      "enlarge the window, or press \(quit) to quit.",
    ]
    // Each sentence wrapped whole (a narrow window must still say how to quit).
    let shownLines = lines.flatMap { TextWrap.lines($0, width: size.columns) }
    var row = max(0, (size.rows - shownLines.count) / 2)
    for shown in shownLines {
      let column = max(0, (size.columns - DisplayWidth.of(shown)) / 2)
      buffer.write(shown, at: Point(row: row, column: column), role: .notice)
      row += 1
    }
  }
}
