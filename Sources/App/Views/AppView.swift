import Foundation
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
    Chrome.messageLine(state.message, busy: state.busy, now: now, in: &buffer)
    if state.context == .filter {
      drawFilterField(state, in: &buffer)
    }
    Chrome.hints(Hints.current(state), in: &buffer)
    return buffer
  }

  private static func drawReady(
    _ state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer
  ) {
    ListView.draw(state, body: body, now: now, in: &buffer)
    for panel in state.panels {
      switch panel {
      case .details(let name):
        DetailsView.draw(name, state: state, body: body, now: now, in: &buffer)
      case .signIn(let signIn):
        SignInView.draw(signIn, state: state, body: body, now: now, in: &buffer)
      case .signOut(let dialog):
        DialogViews.drawSignOut(dialog, state: state, body: body, now: now, in: &buffer)
      case .export(let form):
        DialogViews.drawExport(form, state: state, body: body, in: &buffer)
      case .providerSetup(let form):
        ProviderSetupView.draw(form, state: state, body: body, now: now, in: &buffer)
      case .help(let context, let scroll):
        HelpView.draw(state, first: context, scroll: scroll, body: body, in: &buffer)
      case .notices(let scroll):
        DialogViews.drawNotices(state, scroll: scroll, body: body, in: &buffer)
      case .damaged(let screen):
        DamagedView.draw(screen, state: state, body: body, now: now, in: &buffer)
      }
    }
  }

  private static func drawFilterField(_ state: AppState, in buffer: inout ScreenBuffer) {
    let row = buffer.size.rows - 2
    buffer.fill(Rect(row: row, column: 0, rows: 1, columns: buffer.size.columns), role: .input)
    let end = buffer.write("/", at: Point(row: row, column: 1), role: .inputLabel)
    let textEnd = buffer.write(
      " " + state.filter.text, at: Point(row: row, column: end), role: .input,
      maxWidth: buffer.size.columns - end - 1)
    if state.filter.isEmpty {
      buffer.write(
        "type to filter by label or provider", at: Point(row: row, column: end + 1),
        role: .inputPlaceholder, maxWidth: buffer.size.columns - end - 2)
    }
    buffer.cursor = Point(row: row, column: min(textEnd, buffer.size.columns - 1))
  }

  private static func drawTooSmall(_ state: AppState, in buffer: inout ScreenBuffer) {
    let size = buffer.size
    buffer.fill(buffer.bounds, role: .notice)
    let quit = state.context == .unlock ? "Esc" : state.keyName(.quit, in: state.context)
    let lines = [
      "Terminal too small (\(size.columns)×\(size.rows)).",
      "authtui needs \(minimumSize.columns)×\(minimumSize.rows):",
      "enlarge the window, or press \(quit) to quit.",
    ]
    var row = max(0, (size.rows - lines.count) / 2)
    for line in lines {
      var shown = line
      if DisplayWidth.of(line) > size.columns {
        shown = TextWrap.lines(line, width: size.columns).first ?? ""
      }
      let column = max(0, (size.columns - DisplayWidth.of(shown)) / 2)
      buffer.write(shown, at: Point(row: row, column: column), role: .notice)
      row += 1
    }
  }
}
