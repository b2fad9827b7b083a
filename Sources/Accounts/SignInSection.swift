import AuthCore
import Foundation

/// The critical section of one sign-in: opened when the code exchange starts and held past
/// its answer until the account is stored (`release`), so the process cannot end between the
/// two (the code is spent by then). Held at most `limit` seconds, in case nobody finishes the
/// session.
actor SignInSection: CriticalSection {
  private let base: any CriticalSection
  private let limit: TimeInterval
  private var holding = false
  private var released = false
  private var waiter: CheckedContinuation<Void, Never>?

  init(base: any CriticalSection, limit: TimeInterval) {
    self.base = base
    self.limit = limit
  }

  func run<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) async -> Result? {
    guard await open() else { return nil }
    return await work()
  }

  /// Ends the hold (the account is stored, or the sign-in failed).
  func release() {
    released = true
    waiter?.resume()
    waiter = nil
  }

  /// Opens the base section, held by a task of its own until `release` or the limit.
  private func open() async -> Bool {
    if holding { return true }
    holding = true
    let (entered, report) = AsyncStream<Bool>.makeStream()
    let limit = self.limit
    Task {
      let held = await base.run { () async -> Bool in
        report.yield(true)
        let timer = Task {
          try? await Task.sleep(for: .seconds(limit))
          await self.release()
        }
        await self.untilReleased()
        timer.cancel()
        return true
      }
      if held == nil { report.yield(false) }
      report.finish()
    }
    for await answer in entered { return answer }
    return false
  }

  private func untilReleased() async {
    if released { return }
    await withCheckedContinuation { waiter = $0 }
  }
}
