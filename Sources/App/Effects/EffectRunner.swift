import Foundation

/// Runs effects in tasks, off the UI thread, and sends each one's answer back with `send` (the
/// loop's mailbox) as `.response`. What an effect does is the environment's answer
/// (`AppEnvironment.perform`); the runner only keeps the tasks.
///
/// Owned and called by the loop's thread only; the tasks of sign-in attempts and issuer
/// discoveries are kept so that a cancel (Esc, a countdown that ran out, quitting) cancels the
/// work itself, and the wait for news so that quitting ends it.
public final class EffectRunner {
  private let environment: any AppEnvironment
  private let send: @Sendable (Action) -> Void
  /// The running tasks that a `.cancel` may end, by their effect's id.
  private var cancellable: [RequestID: Task<Void, Never>] = [:]
  private var news: Task<Void, Never>?

  /// A runner that reports to `send`.
  public init(environment: any AppEnvironment, send: @escaping @Sendable (Action) -> Void) {
    self.environment = environment
    self.send = send
  }

  /// Starts `effect`. `redraw` is the loop's own and does nothing here.
  public func run(_ effect: Effect) {
    if effect == .redraw { return }
    let tracked = effect.cancellable
    if let tracked, !tracked.starts {
      cancellable.removeValue(forKey: tracked.id)?.cancel()
      return
    }
    let attempt: RequestID? =
      if case .startSignIn(let id, _, _, _) = effect { id } else { nil }
    let task = Task { [environment, send] in
      let response = await environment.perform(effect) { progress in
        if let attempt { send(.signInProgress(attempt, progress)) }
      }
      if let response { send(.response(response)) }
    }
    if let tracked { cancellable[tracked.id] = task }
    if effect == .followNews { news = task }
  }

  /// Forgets the cancellable work that ended, as its results pass by.
  public func observe(_ action: Action) {
    switch action {
    case .response(.signedIn(let id, _)), .response(.issuerDiscovered(let id, _, _)):
      cancellable[id] = nil
    default:
      break
    }
  }

  /// Cancels every running attempt and discovery and the wait for news (the UI is quitting).
  public func cancelAll() {
    for task in cancellable.values { task.cancel() }
    cancellable.removeAll()
    news?.cancel()
    news = nil
  }
}
