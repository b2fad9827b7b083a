import Foundation

/// A form's request that ended: found by the request it waits for (`Panel.pendingRequest`).
extension AppState {
  /// Where the form waiting for `request` is in the stack; nil when the person left it.
  func formIndex(waitingFor request: RequestID) -> Int? {
    panels.lastIndex { $0.pendingRequest == request }
  }

  /// Says `problem`, why a form's request failed, in the form at `index`, or on the status line
  /// when the person left the form meanwhile.
  mutating func requestFailed(_ problem: String, inFormAt index: Int?, now: Date) {
    guard let index else {
      message = StatusMessage(.error, problem, now: now)
      return
    }
    panels[index].requestFailed(problem)
  }
}
