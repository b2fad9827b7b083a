import Foundation

/// Runs effects in tasks, off the UI thread, and sends each one's answer back with `send` (the
/// loop's mailbox) as `.response`. What an effect does is the environment's answer
/// (`AppEnvironment.perform`); the runner only keeps the tasks.
///
/// Owned and called by the loop's thread only; sign-in tasks are kept so that a cancel (Esc,
/// a countdown that ran out, quitting) cancels the attempt itself, and the wait for news so
/// that quitting ends it.
public final class EffectRunner {
  private let environment: any AppEnvironment
  private let send: @Sendable (Action) -> Void
  private var attempts: [RequestID: Task<Void, Never>] = [:]
  private var news: Task<Void, Never>?

  /// A runner that reports to `send`.
  public init(environment: any AppEnvironment, send: @escaping @Sendable (Action) -> Void) {
    self.environment = environment
    self.send = send
  }

  /// Starts `effect`. `redraw` is the loop's own and does nothing here.
  public func run(_ effect: Effect) {
    if effect == .redraw { return }
    let attempt = effect.attempt
    if let attempt, !attempt.starts {
      attempts.removeValue(forKey: attempt.id)?.cancel()
      return
    }
    let task = Task { [environment, send] in
      let response = await environment.perform(effect) { progress in
        if let attempt { send(.signInProgress(attempt.id, progress)) }
      }
      if let response { send(.response(response)) }
    }
    if let attempt { attempts[attempt.id] = task }
    if effect == .followNews { news = task }
  }

  /// Forgets attempts that ended, as their results pass by.
  public func observe(_ action: Action) {
    if case .response(.signedIn(let id, _)) = action { attempts[id] = nil }
  }

  /// Cancels every running attempt and the wait for news (the UI is quitting).
  public func cancelAll() {
    for task in attempts.values { task.cancel() }
    attempts.removeAll()
    news?.cancel()
    news = nil
  }
}
