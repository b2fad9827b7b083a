import Accounts
import AuthCore

/// The world as the UI reaches it: the vault, the providers, the browser and the clipboard.
///
/// It answers by effect: `perform` does the work `effect` asks for and returns its answer,
/// the `Response` case each `Effect` case names; the runner hands it back to the reducer. A
/// new operation is an effect, its response, the reducer's cases for both, and its line in
/// each environment's `perform` (the real one, and a test's, which answers from memory).
///
/// The UI never calls this on its own thread: `EffectRunner` calls it from tasks and sends the
/// results back to the loop as actions, so the screen keeps answering keys while a refresh, a
/// sign-in or a vault write is in progress. Implementations must not block the cooperative
/// thread pool (run blocking work on a thread or an actor with its own executor).
///
/// Nothing here hands the UI a token: copying and exporting happen inside the environment,
/// which reports only what it did.
public protocol AppEnvironment: Sendable {
  /// Does the work of `effect` and returns its answer; `progress` takes a sign-in's reports on
  /// the way. Nil for the effects that are not the environment's (`.cancel`, `.redraw`),
  /// and for `.followNews` when the task is cancelled. Cancelling the calling task ends a
  /// sign-in attempt with nothing stored.
  func perform(_ effect: Effect, progress: @escaping @Sendable (SignInProgress) -> Void) async
    -> Response?
}

extension AccountsError {
  /// What `body` returned, or the failure it threw: the result an effect's action carries. It
  /// runs on the caller's actor (an environment's own).
  public static func result<Value>(
    isolation: isolated (any Actor)? = #isolation,
    of body: @autoclosure () async throws(AccountsError) -> Value
  ) async -> Result<Value, AccountsError> {
    do {
      return .success(try await body())
    } catch {
      return .failure(error)
    }
  }

  /// The failure `body` threw, or nil when it succeeded.
  public static func thrown(
    isolation: isolated (any Actor)? = #isolation,
    by body: @autoclosure () async throws(AccountsError) -> Void
  ) async -> AccountsError? {
    do {
      try await body()
      return nil
    } catch {
      return error
    }
  }
}
