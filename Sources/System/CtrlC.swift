#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C turned from "end the process" into a call of `handler` (cancel a sign-in, skip a
/// wait), until `release()`. Built on `TerminationSignals`, which owns SIGINT for the whole
/// process: like every termination signal, it still waits for a critical section to end, and
/// SIGTERM and SIGHUP keep ending the process.
public struct CtrlC {
  /// Catches SIGINT from now on.
  public static func catching(_ handler: @escaping @Sendable () -> Void) -> CtrlC {
    TerminationSignals.shared.intercept { number in
      guard number == SIGINT else { return .terminate }
      handler()
      return .handled
    }
    return CtrlC()
  }

  /// Ctrl-C ends the process again.
  public func release() {
    TerminationSignals.shared.removeInterceptor()
  }
}
