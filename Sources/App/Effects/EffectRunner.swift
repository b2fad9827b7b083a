import Foundation

/// Runs effects in tasks, off the UI thread, and sends each one's resulting action back with
/// `send` (the loop's mailbox) as `.finished(effect, outcome)`. What an effect does is the
/// environment's answer (`AppEnvironment.perform`); the runner only keeps the tasks.
///
/// Owned and called by the loop's thread only; sign-in tasks are kept so that a cancel (Esc,
/// a countdown that ran out, quitting) cancels the attempt itself.
public final class EffectRunner {
  private let environment: any AppEnvironment
  private let send: @Sendable (Action) -> Void
  private var attempts: [RequestID: Task<Void, Never>] = [:]

  /// A runner that reports to `send`.
  public init(environment: any AppEnvironment, send: @escaping @Sendable (Action) -> Void) {
    self.environment = environment
    self.send = send
  }

  /// Starts `effect`. `redraw` is the loop's own and does nothing here.
  public func run(_ effect: Effect) {
    if effect == .redraw { return }
    if let attempt = effect.attempt, !attempt.starts {
      attempts.removeValue(forKey: attempt.id)?.cancel()
      return
    }
    let request = effect.request
    let task = Task { [environment, send] in
      let outcome = await environment.perform(effect) { progress in
        if let request { send(.signInProgress(request, progress)) }
      }
      if let outcome { send(.finished(effect, outcome)) }
    }
    if let attempt = effect.attempt { attempts[attempt.id] = task }
  }

  /// Forgets attempts that ended, as their results pass by.
  public func observe(_ action: Action) {
    if case .finished(.startSignIn(let id, _, _, _), _) = action { attempts[id] = nil }
  }

  /// Cancels every running attempt (the UI is quitting).
  public func cancelAll() {
    for task in attempts.values { task.cancel() }
    attempts.removeAll()
  }
}
