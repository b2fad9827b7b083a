import AuthCore
import Foundation

/// A clock that moves only when told to, for tests.
///
/// Sleepers wait until `advance(by:)` or `advance(to:)` moves the time past their deadline.
/// `advanceToNextDeadline()` waits until someone sleeps and then jumps straight to the earliest
/// deadline, which lets a test drive a polling loop step by step without any real waiting.
public actor ManualClock: WallClock {
  private struct Sleeper {
    let deadline: Date
    let continuation: CheckedContinuation<Bool, Never>
  }

  private var current: Date
  private var sleepers: [Int: Sleeper] = [:]
  private var nextSleeperID = 0
  private var sleeperWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  /// A clock reading `now` (by default a fixed date, so test output is stable).
  public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    current = now
  }

  public func now() -> Date { current }

  public func sleep(until deadline: Date) async throws(CancellationError) {
    if Task.isCancelled { throw CancellationError() }
    if deadline <= current { return }
    let id = nextSleeperID
    nextSleeperID += 1
    let reachedDeadline = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        // Runs on this actor, so either the cancellation flag is already visible here or
        // `wake(_:)` below runs after the sleeper is registered.
        if Task.isCancelled {
          continuation.resume(returning: false)
          return
        }
        sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
        notifyWatchers()
      }
    } onCancel: {
      Task { await self.wake(id) }
    }
    if !reachedDeadline { throw CancellationError() }
  }

  /// Moves the time forward by `seconds` and wakes every sleeper whose deadline has come.
  public func advance(by seconds: TimeInterval) {
    advance(to: current.addingTimeInterval(seconds))
  }

  /// Sets the time to `date` (never backwards) and wakes every sleeper whose deadline has come.
  public func advance(to date: Date) {
    current = max(current, date)
    let due = sleepers.filter { $0.value.deadline <= current }.sorted {
      $0.value.deadline < $1.value.deadline
    }
    for (id, sleeper) in due {
      sleepers[id] = nil
      sleeper.continuation.resume(returning: true)
    }
  }

  /// Waits until at least one task sleeps, then moves the time to the earliest deadline and
  /// returns it.
  @discardableResult
  public func advanceToNextDeadline() async -> Date {
    await waitForSleepers()
    let earliest = sleepers.values.map(\.deadline).min() ?? current
    advance(to: earliest)
    return earliest
  }

  /// Returns once at least `count` tasks are sleeping on this clock.
  public func waitForSleepers(count: Int = 1) async {
    if sleepers.count >= count { return }
    await withCheckedContinuation { sleeperWatchers.append((count, $0)) }
  }

  /// The deadlines of the tasks sleeping now, earliest first.
  public var pendingDeadlines: [Date] { sleepers.values.map(\.deadline).sorted() }

  private func wake(_ id: Int) {
    sleepers.removeValue(forKey: id)?.continuation.resume(returning: false)
  }

  private func notifyWatchers() {
    let ready = sleeperWatchers.filter { $0.count <= sleepers.count }
    sleeperWatchers.removeAll { $0.count <= sleepers.count }
    ready.forEach { $0.continuation.resume() }
  }
}
