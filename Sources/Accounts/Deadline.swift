import AuthCore
import Foundation

/// A hard end for work whose own timeouts cannot be trusted to be total: URLSession's
/// `timeoutInterval` restarts whenever a byte arrives, so an answer dribbled slowly, or a
/// transport that ignores cancellation, could outlive the refresh lease.
enum Deadline {
  /// The result of `work`, or nil when `clock` reaches `deadline` first (the work is then
  /// cancelled and not waited for).
  static func race<Value: Sendable>(
    until deadline: Date, clock: any WallClock,
    _ work: @escaping @Sendable () async -> Value
  ) async -> Value? {
    let finish = FirstFinisher<Value>()
    let worker = Task { await finish.offer(await work()) }
    let timer = Task {
      try? await clock.sleep(until: deadline)
      await finish.offer(nil)
    }
    let value = await finish.value()
    worker.cancel()
    timer.cancel()
    return value
  }
}

/// Keeps the first value offered and hands it to whoever waits.
private actor FirstFinisher<Value: Sendable> {
  private var outcome: Value??
  private var waiters: [CheckedContinuation<Value?, Never>] = []

  func offer(_ value: Value?) {
    guard outcome == nil else { return }
    outcome = .some(value)
    waiters.forEach { $0.resume(returning: value) }
    waiters.removeAll()
  }

  func value() async -> Value? {
    if let outcome { return outcome }
    return await withCheckedContinuation { waiters.append($0) }
  }
}
