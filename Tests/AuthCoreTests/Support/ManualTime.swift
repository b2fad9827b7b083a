import AuthCore
import Foundation

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
