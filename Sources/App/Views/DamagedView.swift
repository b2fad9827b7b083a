import AccountFacts
import Foundation
import Terminal
import Theme
import Vault

/// The accounts the vault holds but cannot read: each with its `#ID`, the name when it still
/// opens, and what failed; `d` removes the selected one after a yes.
enum DamagedView {
  static func draw(
    _ screen: DamagedState, state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer
  ) {
    let width = min(body.size.columns - 4, 76)
    var lines: [(String, Role)] = []
    func add(_ text: String, _ role: Role, indent: String = "") {
      for line in TextWrap.lines(text, width: width - 4 - indent.count) {
        lines.append((indent + line, role))
      }
    }
    add(
      "These accounts are in the vault, but their sealed cells do not open here (the file was "
        + "altered, or a row was copied from another vault). Remove them, then sign in again.",
      .dialog)
    lines.append(("", .dialog))
    var selectedLine = 0
    for (index, damaged) in state.damagedAccounts.enumerated() {
      let selected = index == screen.selected
      if selected { selectedLine = lines.count }
      lines.append(
        ((selected ? "› " : "  ") + damaged.reference, selected ? .listSelected : .dialog))
      add(damaged.damage.description, .dialogWarning, indent: "    ")
    }
    lines.append(("", .dialog))
    if let working = screen.working, state.busy.contains(where: { $0.id == working }) {
      lines.append((Chrome.spinner(at: now) + " Removing…", .statusBusy))
    } else if screen.confirming, state.damagedAccounts.indices.contains(screen.selected) {
      let damaged = state.damagedAccounts[screen.selected]
      add(
        "Remove \(damaged.reference) from this vault? Its tokens cannot be read, so they cannot "
          + "be revoked: withdraw authtui's access " + Revocation.accessSettingsPlace(nil) + ".",
        .dialogWarning)
      add(
        "\(state.keyName(.yes, in: .damaged)) removes it, "
          + "\(state.keyName(.no, in: .damaged)) keeps it.", .dialog)
    } else {
      add(
        "\(state.keyName(.remove, in: .damaged)) removes the selected account, as "
          + "`authtui logout '#ID' --local-only` does.", .dialog)
    }
    let rows = min(body.size.rows, lines.count + 4)
    let count = state.damagedAccounts.count
    let inner = Chrome.dialog(
      count == 1 ? "1 damaged account" : "\(count) damaged accounts",
      size: Size(rows: rows, columns: width), in: body, buffer: &buffer)
    var page = Page(inner)
    page.skip()
    // Keep the selected account in view when the list is longer than the screen.
    let visible = max(1, inner.size.rows - 1)
    // The question, while asked, is the last lines: show them whole.
    let first =
      screen.confirming
      ? max(0, lines.count - visible)
      : max(0, min(selectedLine - visible / 2, lines.count - visible))
    for (text, role) in lines.dropFirst(first).prefix(visible) {
      page.line([(text, role)], in: &buffer)
    }
  }
}
