import Accounts
import Foundation
import Spelling
import Terminal
import Theme

/// The account list: column headings, a heading per provider, one row per account with its
/// status badge and a live expiry countdown.
enum ListView {
  /// Where the columns start at a given width.
  struct Columns {
    let label = 3
    let labelWidth: Int
    let status: Int
    let expires: Int
    let refresh: Int?

    init(width: Int) {
      let refreshWidth = width >= 70 ? 9 : 0
      labelWidth = max(8, width - label - 17 - 13 - refreshWidth - 1)
      status = label + labelWidth + 1
      expires = status + 17
      refresh = refreshWidth > 0 ? expires + 13 : nil
    }
  }

  static func draw(_ state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer) {
    let width = body.size.columns
    let count = state.accounts.count
    var detail = count == 1 ? "1 account" : "\(count) accounts"
    if !state.filter.isEmpty {
      detail = "\(state.visibleAccounts.count) of \(count) match “\(state.filter.text)”"
    }
    let demo = state.configuration.demoNotice ?? ""
    Chrome.titleBar(
      "Accounts", detail: demo, kept: demo.isEmpty ? detail : " · " + detail, in: &buffer)

    let columns = Columns(width: width)
    let header = body.top
    buffer.fill(Rect(row: header, column: 0, rows: 1, columns: width), role: .listHeader)
    buffer.write("ACCOUNT", at: Point(row: header, column: columns.label), role: .listHeader)
    buffer.write("STATUS", at: Point(row: header, column: columns.status), role: .listHeader)
    buffer.write("EXPIRES", at: Point(row: header, column: columns.expires), role: .listHeader)
    if let refresh = columns.refresh {
      buffer.write("REFRESH", at: Point(row: header, column: refresh), role: .listHeader)
    }

    let full = Rect(row: header + 1, column: 0, rows: body.size.rows - 1, columns: width)
    guard !state.visibleAccounts.isEmpty else {
      if state.damagedAccounts.isEmpty {
        drawEmpty(state, area: full, in: &buffer)
      } else {
        drawDamaged(state, from: full.top, area: full, columns: columns, in: &buffer)
      }
      return
    }
    let layout = ListLayout(accounts: state.visibleAccounts)
    // A list that does not fit gives its last row to what it leaves out (`↓ 3 more`).
    let overflows = layout.lines.count > full.size.rows && full.size.rows > 2
    let area =
      overflows ? Rect(row: full.top, column: 0, rows: full.size.rows - 1, columns: width) : full
    var top = min(state.scrollTop, max(0, layout.lines.count - area.size.rows))
    // The area can be shorter than the reducer's list height (a wrapped message covers its
    // bottom): the selected row still shows.
    if let position = state.visibleAccounts.firstIndex(where: { $0.name == state.selection }),
      layout.accountLines[position] >= top + area.size.rows
    {
      top = layout.accountLines[position] - area.size.rows + 1
    }
    let needle = state.filter.text.lowercased()
    for offset in 0..<area.size.rows {
      let index = top + offset
      guard index < layout.lines.count else { break }
      let row = area.top + offset
      // Scrolled into a group, its heading stays on the first row (over that group's first
      // visible account; the reducer never leaves the selection there).
      var line = layout.lines[index]
      if offset == 0, area.size.rows > 1, case .account = line,
        let heading = layout.heading(of: index)
      {
        line = heading
      }
      switch line {
      case .group(let name, let provider, let count):
        let end = buffer.write(name, at: Point(row: row, column: 1), role: .listGroup)
        var note = count == 1 ? "1 account" : "\(count) accounts"
        if name != provider.rawValue { note = provider.rawValue + " · " + note }
        buffer.write(
          "  " + note, at: Point(row: row, column: end), role: .listSecondary,
          maxWidth: width - end - 1, truncation: .ellipsis)
      case .account(let position):
        let account = state.visibleAccounts[position]
        drawAccount(
          account, selected: account.name == state.selection, needle: needle, row: row,
          columns: columns, state: state, now: now, in: &buffer)
      }
    }
    if layout.lines.count > area.size.rows {
      drawScrollbar(top: top, lines: layout.lines.count, area: area, in: &buffer)
    }
    if overflows {
      // The first row shows its group's heading over an account when scrolled into a group.
      let firstShown = top > 0 && area.size.rows > 1 ? top + 1 : top
      let above = layout.accountLines.filter { $0 < firstShown }.count
      let below = layout.accountLines.filter { $0 >= top + area.size.rows }.count
      ScrollHint.draw(
        above: above, below: below, row: full.bottom - 1,
        area: Rect(row: full.bottom - 1, column: 0, rows: 1, columns: width - 1), in: &buffer)
    }
    let used = layout.lines.count - top
    if used < area.size.rows {
      drawDamaged(state, from: area.top + used, area: area, columns: columns, in: &buffer)
    }
  }

  /// The accounts the vault cannot read, after the others: a heading, then a row each with
  /// its `#ID` and name (when it still opens) and what failed; `x` opens them to remove.
  private static func drawDamaged(
    _ state: AppState, from start: Int, area: Rect, columns: Columns,
    in buffer: inout ScreenBuffer
  ) {
    guard !state.damagedAccounts.isEmpty, start < area.bottom else { return }
    let width = buffer.size.columns
    let count = state.damagedAccounts.count
    let end = buffer.write("Damaged", at: Point(row: start, column: 1), role: .listGroup)
    buffer.write(
      "  " + (count == 1 ? "1 account" : "\(count) accounts") + " the vault cannot read · "
        + "\(state.keyName(.showDamaged, in: .list)) to remove",
      at: Point(row: start, column: end), role: .listSecondary, maxWidth: width - end - 1,
      truncation: .ellipsis)
    for (offset, damaged) in state.damagedAccounts.enumerated() {
      let row = start + 1 + offset
      guard row < area.bottom else { return }
      buffer.write(
        damaged.reference, at: Point(row: row, column: columns.label), role: .list,
        maxWidth: columns.labelWidth, truncation: .ellipsis)
      buffer.write(
        "✗ " + damaged.damage.description, at: Point(row: row, column: columns.status),
        role: .badgeSignIn, maxWidth: width - columns.status - 1, truncation: .ellipsis)
    }
  }

  private static func drawAccount(
    _ account: AccountSummary, selected: Bool, needle: String, row: Int, columns: Columns,
    state: AppState, now: Date, in buffer: inout ScreenBuffer
  ) {
    let width = buffer.size.columns
    let rowRole: Role = selected ? .listSelected : .list
    buffer.fill(Rect(row: row, column: 0, rows: 1, columns: width), role: rowRole)
    if selected { buffer.write("›", at: Point(row: row, column: 1), role: rowRole) }
    let label = account.name.label
    let mark = account.isDefault ? AccountSummary.defaultMark : ""
    let markWidth = DisplayWidth.of(mark)
    buffer.write(
      label, at: Point(row: row, column: columns.label), role: rowRole,
      maxWidth: columns.labelWidth - markWidth, truncation: .ellipsis)
    if !mark.isEmpty {
      let after = min(DisplayWidth.of(label), columns.labelWidth - markWidth)
      buffer.write(
        mark, at: Point(row: row, column: columns.label + after),
        role: selected ? .listSelected : .listSecondary, maxWidth: markWidth)
    }
    if !needle.isEmpty, let match = AppState.matchRange(of: needle, in: account),
      !match.isEmpty
    {
      let start = columns.label + DisplayWidth.of(label[..<match.lowerBound])
      let end = min(
        columns.label + columns.labelWidth - 1, start + DisplayWidth.of(label[match]))
      if end > start {
        buffer.restyle(
          Rect(row: row, column: start, rows: 1, columns: end - start),
          role: selected ? .listSelectedMatch : .listMatch)
      }
    }
    let secondary: Role = selected ? .listSelected : .listSecondary
    if let note = note(for: account, state: state, now: now) {
      // Wider than the badge: it takes the status, expiry and refresh columns.
      buffer.write(
        note, at: Point(row: row, column: columns.status),
        role: selected ? .listSelectedBadge : .badgeExpiring,
        maxWidth: width - columns.status - 1, truncation: .ellipsis)
      return
    }
    var (badge, badgeRole) = Chrome.badge(
      account.status(at: now), busy: state.isBusy(account.name), now: now)
    if account.status(at: now) == .expired, state.refreshesAhead[account.name]?.running != nil {
      // The background refresh is on its way: the token is being replaced, not lost.
      (badge, badgeRole) = (Chrome.spinner(at: now) + " refreshing", .badgeExpiring)
    }
    // On the selected row the badge keeps the row's highlight (its own roles are drawn over
    // the plain background), so the bar reads as one.
    buffer.write(
      badge, at: Point(row: row, column: columns.status),
      role: selected ? .listSelectedBadge : badgeRole, maxWidth: 16)
    buffer.write(
      TimeText.expiry(of: account, now: now), at: Point(row: row, column: columns.expires),
      role: secondary, maxWidth: 12)
    if let refresh = columns.refresh {
      buffer.write(
        account.refreshable ? "yes" : "no", at: Point(row: row, column: refresh), role: secondary,
        maxWidth: 8)
    }
  }

  /// What the row says instead of its badge and expiry: a background refresh that failed and
  /// when it is tried again, or, for an account that cannot be refreshed or whose refresh
  /// token ends, the time to sign in again by once that is near. Nil when the badge says it
  /// all.
  static func note(for account: AccountSummary, state: AppState, now: Date) -> String? {
    if let ahead = state.refreshesAhead[account.name], ahead.failures > 0 {
      guard ahead.running == nil, let retryAt = ahead.retryAt else {
        return Chrome.spinner(at: now) + " refresh failed, retrying now"
      }
      let seconds = max(1, Int(clamping: retryAt.timeIntervalSince(now).rounded(.up)))
      let wait = seconds < 120 ? "\(seconds) s" : "\((seconds + 59) / 60) min"
      return "⚠ refresh failed, retrying in \(wait)"
    }
    guard let deadline = account.signInDeadline, deadline.noticeAt <= now else { return nil }
    guard deadline.date > now else {
      // An expired access token says so in its badge; an ended refresh token does not.
      return deadline.reason == .refreshTokenExpires
        ? "⚠ refresh token ended: sign in again" : nil
    }
    return "sign in again before "
      + TimeText.date(deadline.date, in: state.configuration.timeZone)
  }

  private static func drawEmpty(_ state: AppState, area: Rect, in buffer: inout ScreenBuffer) {
    let text: String
    if !state.accountsLoaded {
      text = "Reading the accounts…"
    } else if !state.filter.isEmpty {
      text =
        "No account matches “\(state.filter.text)”. "
        + "\(state.keyName(.back, in: .filter)) clears the filter."
    } else {
      text =
        "No accounts yet. Press \(state.keyName(.add, in: .list)) to sign in to a provider."
        + (state.configuration.demoNotice == nil
          ? "\nOr try `authtui demo` first, with nothing to set up."
          : "\nIn the demo every provider works with nothing to set up.")
    }
    let width = min(area.size.columns - 4, 60)
    let lines = TextWrap.lines(text, width: width)
    var page = Page(area.centered(Size(rows: lines.count, columns: width)))
    for line in lines { page.line([(line, .listEmpty)], in: &buffer) }
  }

  private static func drawScrollbar(
    top: Int, lines: Int, area: Rect, in buffer: inout ScreenBuffer
  ) {
    let height = area.size.rows
    let thumb = max(1, height * height / lines)
    let maxTop = max(1, lines - height)
    let position = (height - thumb) * min(top, maxTop) / maxTop
    let column = area.right - 1
    for offset in 0..<height {
      let inThumb = offset >= position && offset < position + thumb
      buffer.write(
        inThumb ? "┃" : "│", at: Point(row: area.top + offset, column: column), role: .scrollbar)
    }
  }
}
