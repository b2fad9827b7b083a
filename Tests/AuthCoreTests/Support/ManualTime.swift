import AuthCore
import Foundation
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
