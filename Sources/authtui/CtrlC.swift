import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C turned from "kill the process" into a call of `handler` (cancel a sign-in, skip a
/// wait), until `release()` gives SIGINT its default action back.
struct CtrlC {
  private let source: DispatchSourceSignal

  /// Catches SIGINT from now on.
  static func catching(_ handler: @escaping @Sendable () -> Void) -> CtrlC {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler(handler: handler)
    source.resume()
    return CtrlC(source: source)
  }

  /// Ctrl-C kills the process again.
  func release() {
    source.cancel()
    signal(SIGINT, SIG_DFL)
  }
}
