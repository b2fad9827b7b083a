import AccountFacts
import Foundation
import Spelling
import Terminal
import Theme

/// The parts around every screen: the title bar, the message line with its spinner, and the
/// key hints, plus the small drawings (spinner, countdown bar, dialog box) screens share.
enum Chrome {
  /// The frames of the spinner, a tenth of a second each.
  static let spinnerFrames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// The spinner frame at `now`.
  static func spinner(at now: Date) -> String {
    let tenths = Int(clamping: (now.timeIntervalSince1970 * 10).rounded(.down))
    let index = ((tenths % spinnerFrames.count) + spinnerFrames.count) % spinnerFrames.count
    return String(spinnerFrames[index])
  }

  /// The title bar: `authtui · TITLE` on the left, `detail` then `kept` on the right. When the
  /// room is short, `detail` is cut (with an ellipsis, so the cut shows) before `kept` is:
  /// the account count stays beside the demo's notice on a narrow screen.
  static func titleBar(
    _ title: String, detail: String, kept: String = "", in buffer: inout ScreenBuffer
  ) {
    let width = buffer.size.columns
    buffer.fill(Rect(row: 0, column: 0, rows: 1, columns: width), role: .title)
    let left = " authtui" + (title.isEmpty ? "" : " · " + title)
    let leftEnd = buffer.write(
      left, at: .origin, role: .title, maxWidth: width, truncation: .ellipsis)
    let room = width - leftEnd - 3
    guard room > 3, !(detail + kept).isEmpty else { return }
    let keptWidth = min(DisplayWidth.of(kept), room)
    // The head keeps at least a few columns, or goes whole when it cannot.
    let headRoom = room - keptWidth
    let headWidth = headRoom >= 4 ? min(DisplayWidth.of(detail), headRoom) : 0
    let start = width - headWidth - keptWidth - 1
    if headWidth > 0 {
      buffer.write(
        detail, at: Point(row: 0, column: start), role: .titleDetail, maxWidth: headWidth,
        truncation: .ellipsis)
    }
    buffer.write(
      kept, at: Point(row: 0, column: start + headWidth), role: .titleDetail,
      maxWidth: keptWidth, truncation: .ellipsis)
  }

  /// A key hint: `a add`.
  struct Hint {
    /// The key's name.
    let key: String
    /// What it does, in a word or two.
    let word: String
    /// Lower numbers stay when not every hint fits.
    let priority: Int

    var width: Int { DisplayWidth.of(key) + 1 + DisplayWidth.of(word) }
  }

  /// The key hints on the last row: the most important ones that fit, in their order.
  static func hints(_ hints: [Hint], in buffer: inout ScreenBuffer) {
    let row = buffer.size.rows - 1
    let width = buffer.size.columns
    buffer.fill(Rect(row: row, column: 0, rows: 1, columns: width), role: .status)
    var room = width - 2
    var chosen = Set<Int>()
    // By priority, and among equals in their order: the same hints whatever the sort does.
    let order = hints.indices.sorted { (hints[$0].priority, $0) < (hints[$1].priority, $1) }
    for index in order {
      let needed = hints[index].width + (chosen.isEmpty ? 0 : 2)
      guard needed <= room else { continue }
      chosen.insert(index)
      room -= needed
    }
    var column = 1
    for (index, hint) in hints.enumerated() where chosen.contains(index) {
      column = buffer.write(hint.key, at: Point(row: row, column: column), role: .statusKey)
      column = buffer.write(
        " " + hint.word, at: Point(row: row, column: column), role: .statusHint)
      column += 2
    }
  }

  /// The message line above the hints: the message on the left, the spinner of background
  /// work on the right. A message too long for the line wraps onto the rows above it (over the
  /// bottom of the screen, until it goes away) rather than losing its end: an error's last
  /// words are usually the fix.
  static func messageLine(
    _ message: StatusMessage?, busy: [BusyTask], now: Date, lastRow: Int? = nil,
    in buffer: inout ScreenBuffer
  ) {
    let row = lastRow ?? buffer.size.rows - 2
    let width = buffer.size.columns
    buffer.fill(Rect(row: row, column: 0, rows: 1, columns: width), role: .status)
    let labelWidth = busyLabelWidth(busy, message: message, width: width)
    if let latest = busy.last {
      let start = width - labelWidth - 3
      buffer.write(spinner(at: now), at: Point(row: row, column: start), role: .spinner)
      buffer.write(
        busyLabel(latest, count: busy.count), at: Point(row: row, column: start + 2),
        role: .statusBusy, maxWidth: labelWidth, truncation: .ellipsis)
    }
    guard let message else { return }
    let role: Role
    switch message.kind {
    case .info: role = .status
    case .success: role = .statusSuccess
    case .warning: role = .statusWarning
    case .error: role = .statusError
    }
    let lines = messageLines(message, busy: busy, width: width, lastRow: row)
    let top = row - lines.count + 1
    if lines.count > 1 {
      buffer.fill(Rect(row: top, column: 0, rows: lines.count - 1, columns: width), role: .status)
    }
    for (offset, line) in lines.enumerated() {
      buffer.write(line, at: Point(row: top + offset, column: 1), role: role)
    }
  }

  /// The lines `message` takes ending on row `lastRow` of a screen `width` wide, beside the
  /// spinner of `busy`: the rows above the message line it covers are all but the last.
  static func messageLines(_ message: StatusMessage, busy: [BusyTask], width: Int, lastRow: Int)
    -> [String]
  {
    let labelWidth = busyLabelWidth(busy, message: message, width: width)
    let right = busy.isEmpty ? width - 1 : width - labelWidth - 4
    // The title bar and one row of the screen stay; only a message longer than all the rest
    // of the screen loses its end.
    return TextWrap.lines(message.text, width: max(1, right - 1), limit: max(1, lastRow - 2))
  }

  private static func busyLabel(_ latest: BusyTask, count: Int) -> String {
    latest.label + (count > 1 ? " (+\(count - 1))" : "")
  }

  /// The columns the busy label takes: half the line beside a message, else most of it.
  private static func busyLabelWidth(_ busy: [BusyTask], message: StatusMessage?, width: Int)
    -> Int
  {
    guard let latest = busy.last else { return 0 }
    let room = message == nil ? width - 4 : max(10, width / 2 - 2)
    return min(DisplayWidth.of(busyLabel(latest, count: busy.count)), room)
  }

  /// A countdown bar of `width` columns: filled for the time left, then `M:SS left`.
  static func countdownBar(
    remaining: TimeInterval, total: TimeInterval, width: Int, at point: Point,
    in buffer: inout ScreenBuffer
  ) {
    let label = " " + TimeText.countdown(remaining) + " left"
    let barWidth = max(4, width - DisplayWidth.of(label))
    let fraction = total > 0 ? min(1, max(0, remaining / total)) : 0
    let filled = Int(clamping: (Double(barWidth) * fraction).rounded(.up))
    var column = buffer.write(
      String(repeating: "█", count: filled), at: point, role: .countdownBar)
    column = buffer.write(
      String(repeating: "░", count: barWidth - filled), at: Point(row: point.row, column: column),
      role: .countdownTrack)
    buffer.write(
      label, at: Point(row: point.row, column: column),
      role: remaining <= 30 ? .countdownUrgent : .countdown)
  }

  /// A framed dialog of `size` centred in `area`: the box, its title, and the inside returned.
  static func dialog(
    _ title: String, size: Size, in area: Rect, buffer: inout ScreenBuffer
  ) -> Rect {
    let box = area.centered(size)
    buffer.fill(box, role: .dialog)
    buffer.drawBorder(box, role: .dialogBorder)
    let room = box.size.columns - 4
    if room > 0 {
      buffer.write(
        " " + title + " ", at: Point(row: box.top, column: box.left + 2), role: .dialogTitle,
        maxWidth: room, truncation: .ellipsis)
    }
    return Rect(
      row: box.top + 1, column: box.left + 2, rows: max(0, box.size.rows - 2),
      columns: max(0, box.size.columns - 4))
  }

  /// A badge: `● valid`, in the status's role (a spinner when the account is busy).
  static func badge(_ status: AccountStatus, busy: Bool, now: Date) -> (String, Role) {
    let role: Role
    switch status {
    case .valid: role = .badgeValid
    case .expiring: role = .badgeExpiring
    case .expired: role = .badgeExpired
    case .signInNeeded: role = .badgeSignIn
    }
    return ((busy ? spinner(at: now) : "●") + " " + status.label, role)
  }
}
