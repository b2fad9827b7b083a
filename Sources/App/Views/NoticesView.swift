import AccountFacts
import Foundation
import Spelling
import Terminal
import Theme

/// The configuration problems found at start, drawn over the list.
enum NoticesView {
  static func draw(
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
