import AuthCore
import Foundation
import Sandbox
import TestSupport

/// Plays the passage of time for a polling attempt on a `ManualClock`: every progress value
/// after the first announces the next sleep (a poll, or the deadline), so the clock jumps there.
/// Returns every progress value seen, the final one last.
func runOnManualClock(_ attempt: UserCodeSignIn, _ clock: ManualClock) async
  -> [SignInProgress]
{
  var seen: [SignInProgress] = []
  for await progress in attempt.progress {
    seen.append(progress)
    guard seen.count > 1, !progress.isFinished,
      let wakeUp = progress.nextPollAt ?? progress.deadline
    else { continue }
    await clock.advance(to: wakeUp)
  }
  return seen
}

/// Seconds since `origin`, for each date.
func offsets(_ dates: [Date], from origin: Date) -> [TimeInterval] {
  dates.map { $0.timeIntervalSince(origin) }
}

/// True while the attempt's loopback listener still takes connections. A redirect carrying the
/// attempt's own `state` would then be answered by the attempt ("already finished" once it is
/// over); a closed port gives no answer, and a port the kernel has meanwhile handed to another
/// test's server answers differently. So this holds even when tests run in parallel.
func listenerIsOpen(_ attempt: AuthorizationCodeSignIn) async -> Bool {
  guard let port = URL(string: attempt.redirectURI)?.port else { return false }
  let state = await attempt.request.state
  let page = await RawHTTPClient.get("/callback?code=late&state=\(state)", port: UInt16(port))
  return page.contains("This sign-in has already finished")
}

/// Plays time for a polling attempt against the sandbox: before each scheduled poll, the
/// sandbox's clock is set to the same moment (unless `skipSync` names that poll) and `clock`
/// jumps there, so polls five manual seconds apart are five seconds apart for the provider
/// too. `beforePoll` runs first, with the poll's number (1-based).
func driveAgainstSandbox(
  _ attempt: UserCodeSignIn, clock: ManualClock, sandbox: SandboxServer, origin: Date,
  skipSync: Set<Int> = [], beforePoll: (Int, SignInProgress) async -> Void = { _, _ in }
) async -> [SignInProgress] {
  var seen: [SignInProgress] = []
  var poll = 0
  for await progress in attempt.progress {
    seen.append(progress)
    guard seen.count > 1, !progress.isFinished,
      let wakeUp = progress.nextPollAt ?? progress.deadline
    else { continue }
    poll += 1
    await beforePoll(poll, progress)
    if !skipSync.contains(poll) {
      await sandbox.setClockOffset(seconds: wakeUp.timeIntervalSince(origin))
    }
    await clock.advance(to: wakeUp)
  }
  return seen
}
