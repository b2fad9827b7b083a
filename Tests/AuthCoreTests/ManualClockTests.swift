import AuthCore
import Foundation
import TestSupport
import Testing

@Suite struct ManualClockTests {
  @Test func wakesASleeperOnlyWhenTimeReachesItsDeadline() async throws {
    let clock = ManualClock()
    let origin = await clock.now()
    let sleeper = Task { try await clock.sleep(until: origin.addingTimeInterval(10)) }
    await clock.waitForSleepers()
    await clock.advance(by: 9)
    #expect(await clock.pendingDeadlines == [origin.addingTimeInterval(10)])
    await clock.advance(by: 1)
    try await sleeper.value
    #expect(await clock.pendingDeadlines.isEmpty)
  }

  @Test func returnsAtOnceForADeadlineInThePast() async throws {
    let clock = ManualClock()
    try await clock.sleep(until: await clock.now())
  }

  @Test func aCancelledSleeperThrowsWithoutTheClockMoving() async throws {
    let clock = ManualClock()
    let origin = await clock.now()
    let sleeper = Task { try await clock.sleep(until: origin.addingTimeInterval(60)) }
    await clock.waitForSleepers()
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(await clock.now() == origin)
  }

  @Test func jumpsToTheEarliestDeadline() async throws {
    let clock = ManualClock()
    let origin = await clock.now()
    let late = Task { try await clock.sleep(until: origin.addingTimeInterval(30)) }
    let early = Task { try await clock.sleep(until: origin.addingTimeInterval(20)) }
    await clock.waitForSleepers(count: 2)
    #expect(await clock.advanceToNextDeadline() == origin.addingTimeInterval(20))
    try await early.value
    #expect(await clock.pendingDeadlines == [origin.addingTimeInterval(30)])
    late.cancel()
  }
}
