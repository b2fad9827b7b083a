import AccountFacts
import Foundation
import Spelling

/// The agent's held token requests (`agent start --confirm`): looked for once a second while
/// the UI runs, each shown in a dialog over whatever screen is open, oldest first, and
/// answered there (allow once, allow for 15 minutes, deny).
extension AppState {
  /// The dialog's keys: the three answers, Esc denying.
  mutating func performConfirmation(_ command: Command, now: Date) -> [Effect] {
    guard var dialog = confirmation, dialog.answering == nil else { return [] }
    let decision: ConfirmationDecision
    switch command {
    case .allowOnce: decision = .allowOnce
    case .allowFifteenMinutes: decision = .allowFifteenMinutes
    case .deny, .back: decision = .deny
    default: return []
    }
    let id = startBusy("answering the agent", writesVault: false)
    dialog.answering = ConfirmationState.Answering(request: id, decision: decision)
    dialog.problem = nil
    confirmation = dialog
    return [.answerQuestion(id, question: dialog.question.id, decision)]
  }

  /// What the agent holds now: the oldest question not answered here is shown; one that is
  /// no longer held (answered elsewhere, or past its deadline) closes.
  mutating func questionsWatched(_ questions: [ConfirmationQuestion], now: Date) {
    questionWatch.running = nil
    let held = Set(questions.map(\.id))
    answeredQuestions.formIntersection(held)
    if let shown = confirmation, shown.answering == nil, !held.contains(shown.question.id) {
      confirmation = nil
      // News of what happened while the person may have looked away: it stays until a key.
      message = .untilKey(
        .warning,
        "the agent no longer holds the request of \(shown.question.account): its "
          + "\(shown.question.forwarded ? "forwarded " : "")caller was denied when nobody "
          + "answered, or it was answered elsewhere", now: now)
    }
    if confirmation == nil,
      let next = questions.sorted(by: { $0.id < $1.id }).first(where: {
        !answeredQuestions.contains($0.id)
      })
    {
      confirmation = ConfirmationState(question: next)
    }
  }

  /// The agent took the answer to `question`, or said why not.
  mutating func questionAnswered(
    _ id: RequestID, question: Int, _ decision: ConfirmationDecision, problem: String?,
    now: Date
  ) {
    guard var dialog = confirmation, dialog.answering?.request == id else { return }
    if let problem {
      dialog.answering = nil
      dialog.problem = problem
      confirmation = dialog
      return
    }
    answeredQuestions.insert(question)
    confirmation = nil
    let asked = dialog.question
    let words: String
    switch decision {
    case .allowOnce: words = "allowed once"
    case .allowFifteenMinutes: words = "allowed for 15 minutes"
    case .deny: words = "denied"
    }
    message = StatusMessage(
      decision == .deny ? .info : .success,
      "\(words): a token of \(asked.account) for \(TerminalText.cleaned(asked.requester))",
      now: now)
  }
}
