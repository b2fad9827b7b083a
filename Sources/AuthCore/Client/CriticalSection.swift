/// Runs work that must not be cut short once it has started: a token request sent to the
/// provider, until its answer is stored. A refresh with a rotating refresh token that is cut
/// after the provider spent the old token loses the grant.
///
/// The composition root injects one that holds the process's termination signals back while
/// any such work runs (`authtui`'s `TerminationSignals`); libraries and tests use
/// `UnguardedSection`. AuthCore and Accounts know nothing of signals.
public protocol CriticalSection: Sendable {
  /// Runs `work` with termination deferred until it returns, and returns its result; nil (and
  /// `work` is not started) when the process is already on its way out.
  func run<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) async -> Result?
}

/// Runs the work as it is: for tests and for code with no process of its own to guard.
public struct UnguardedSection: CriticalSection {
  public init() {}

  public func run<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) async
    -> Result?
  {
    await work()
  }
}
