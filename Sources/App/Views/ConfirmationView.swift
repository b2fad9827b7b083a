import AccountFacts
import Foundation
import Spelling
import Terminal
import Theme

/// The agent's question about a token request it holds (`agent start --confirm`): a dialog
/// over whatever screen is open, naming the account and who asks, with the time left and the
/// three answers.
enum ConfirmationView {
  static func draw(
    _ dialog: ConfirmationState, state: AppState, area: Rect, now: Date,
    in buffer: inout ScreenBuffer
  ) {
    let question = dialog.question
    let width = min(area.size.columns - 4, 64)
    let inner = width - 4
    // What the remote side said of itself is outside text: cleaned before it is drawn.
    let requester = TerminalText.cleaned(question.requester)
    let who = TextWrap.lines(requester, width: max(1, inner - 10), limit: 3)
    let intro = TextWrap.lines(
      question.forwarded
        ? "A request that came through an ssh forward asks the agent for a token."
        : "A program on this machine asks the agent for a token.", width: inner, limit: 2)
    let last = lastLines(dialog, state: state, now: now, width: inner)
    let rows = 1 + intro.count + 1 + 1 + who.count + 1 + last.count + 2
    let box = Chrome.dialog(
      "Allow a token of \(question.account)?", size: Size(rows: rows, columns: width),
      in: area, buffer: &buffer)
    var page = Page(box)
    page.skip()
    for line in intro { page.line([(line, .dialog)], in: &buffer) }
    page.skip()
    page.field("Account", question.account.description, labelWidth: 10, in: &buffer)
    page.field("Asked by", who.joined(separator: " "), labelWidth: 10, in: &buffer)
    page.skip()
    for (text, role) in last { page.line([(text, role)], in: &buffer) }
    buffer.cursor = nil
  }

  /// Under the facts: why the answer did not reach the agent, the answer being sent, or the
  /// time left and what the keys do.
  private static func lastLines(
    _ dialog: ConfirmationState, state: AppState, now: Date, width: Int
  ) -> [(String, Role)] {
    if let problem = dialog.problem {
      return TextWrap.lines("✗ " + problem, width: width, limit: 3).map { ($0, .statusError) }
    }
    if dialog.answering != nil {
      return [(Chrome.spinner(at: now) + " Telling the agent…", .statusBusy)]
    }
    let left = max(0, dialog.question.deadline.timeIntervalSince(now))
    let once = state.keyName(.allowOnce, in: .confirmation)
    let longer = state.keyName(.allowFifteenMinutes, in: .confirmation)
    let deny = state.keyName(.deny, in: .confirmation)
    let text =
      "\(once) allows it once, \(longer) for 15 minutes, \(deny) denies it; "
      + "denied by itself in \(TimeText.countdown(left))."
    return TextWrap.lines(text, width: width, limit: 3).map { ($0, .listSecondary) }
  }
}
