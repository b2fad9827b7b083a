import AuthCore
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP for the whole process, held back while a critical section runs
/// (a token request sent to the provider, until its answer is stored).
///
/// A mask on one thread is not enough in a multi-threaded process (STYLE.md "Files, processes
/// and signals"), and Swift's main thread drops any mask once the top-level code first
/// suspends: a `DispatchSource` per signal replaces the default action process-wide
/// (libdispatch's own handler and a `signalfd`) and reports the signal here. Nothing of ours runs
/// in a signal handler. Outside a critical section a signal ends the process at once, by that
/// signal (the default action, re-raised), as if nothing had caught it; inside one it is
/// remembered and acted on when the last section ends. A command that gives a signal a meaning
/// of its own (login's Ctrl-C cancels, the agent stops cleanly) installs an interceptor; the UI
/// installs a terminator that ends its loop, so the terminal is restored before the process
/// dies. Programs started from here get the default dispositions back at `exec`.
public final class TerminationSignals: CriticalSection, @unchecked Sendable {
  // @unchecked: every stored property below is read and written only on `queue`, a serial
  // queue, as the transport's delegate does.

  /// The one instance: signals belong to the process.
  public static let shared = TerminationSignals()

  /// The signals that ask a process to end and that a critical section holds back.
  public static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// What an interceptor makes of a signal.
  public enum Interception {
    /// The signal means something else here (and was acted on): the process goes on.
    case handled
    /// The process should end by the signal as usual.
    case terminate
  }

  private let queue = DispatchQueue(label: "authtui.termination-signals")
  private var sources: [any DispatchSourceSignal] = []
  private var openSections = 0
  private var pending: [Int32] = []
  private var terminatingWith: Int32?
  private var interceptor: (@Sendable (Int32) -> Interception)?
  private var terminator: (@Sendable (Int32) -> Void)?
  private var restorer: (@Sendable () -> Void)?

  /// Takes the signals over. Call first thing in `main`.
  ///
  /// A signal is never lost on the way: the three are blocked on this thread (which every
  /// thread started from now on inherits) until libdispatch has registered each source (its
  /// handler and its `signalfd`), so one that comes meanwhile waits, pending, and is then
  /// read by its source. A parent's ignored signal stays ignored (nohup, a background job's
  /// SIGINT). When the registration has not come within `registrationDeadline`, the mask is
  /// put back anyway: a signal then ends the process by its default action.
  public func install(registrationDeadline: DispatchTimeInterval = .seconds(5)) {
    var held = sigset_t()
    var previous = sigset_t()
    sigemptyset(&held)
    for number in Self.numbers { sigaddset(&held, number) }
    pthread_sigmask(SIG_BLOCK, &held, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let registered = DispatchGroup()
    let made: [any DispatchSourceSignal] = queue.sync { () -> [any DispatchSourceSignal] in
      guard self.sources.isEmpty else { return [] }
      self.sources = Self.sources(Self.numbers, registered: registered) { [self] in received($0) }
      return self.sources
    }
    made.forEach { $0.resume() }
    _ = registered.wait(timeout: .now() + registrationDeadline)
  }

  /// A signal source for each of `numbers` that is not ignored, reporting to `received` on
  /// libdispatch's threads; each leaves `registered` once libdispatch has registered it (it
  /// replaces the default action process-wide from then on). Not resumed yet.
  static func sources(
    _ numbers: [Int32], registered: DispatchGroup,
    received: @escaping @Sendable (Int32) -> Void
  ) -> [any DispatchSourceSignal] {
    numbers.filter { !isIgnored($0) }.map { number in
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { received(number) }
      registered.enter()
      source.setRegistrationHandler { registered.leave() }
      return source
    }
  }

  /// Gives the signals a meaning of their own until `removeInterceptor` (one at a time:
  /// login's Ctrl-C, the agent's stop). Like the default action, it waits for the critical
  /// sections to end.
  public func intercept(_ interceptor: @escaping @Sendable (Int32) -> Interception) {
    queue.sync { self.interceptor = interceptor }
  }

  /// Back to ending the process.
  public func removeInterceptor() {
    queue.sync { self.interceptor = nil }
  }

  /// Lets `terminator` end the process instead of dying at once: the UI ends its loop,
  /// restores the terminal, then calls `exitIfRequested()`.
  public func setTerminator(_ terminator: (@Sendable (Int32) -> Void)?) {
    queue.sync { self.terminator = terminator }
  }

  /// Runs `restore` before a signal ends the process, until `setRestorer(nil)`: the passphrase
  /// prompt puts the terminal's echo back, so a SIGTERM or SIGHUP there does not leave the
  /// shell silent.
  public func setRestorer(_ restore: (@Sendable () -> Void)?) {
    queue.sync { self.restorer = restore }
  }

  /// Ends the process by the signal that asked it to end, if one did; otherwise returns.
  public func exitIfRequested() {
    if let number = queue.sync(execute: { terminatingWith }) {
      Self.die(by: number)
    }
  }

  /// Waits (polling, on a thread that may block) until no critical section runs, at most
  /// `timeout` seconds: the UI's last refresh may still be storing its answer when it quits.
  public func waitForCriticalSections(timeout: TimeInterval, onWait: () -> Void) {
    let deadline = Date().addingTimeInterval(timeout)
    var told = false
    while queue.sync(execute: { openSections }) > 0, Date() < deadline {
      if !told {
        onWait()
        told = true
      }
      usleep(20_000)
    }
  }

  // MARK: CriticalSection

  public func run<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) async -> Result?
  {
    let entered = await withCheckedContinuation { continuation in
      queue.async {
        // No new section once the process is on its way out: the work would be cut. One may
        // start while a signal waits for another (the sign-in's store after its exchange).
        let allowed = self.terminatingWith == nil
        if allowed { self.openSections += 1 }
        continuation.resume(returning: allowed)
      }
    }
    guard entered else { return nil }
    let result = await work()
    // Synchronously, so that a signal that came meanwhile ends the process before the result
    // is used (a token printed, an exit status 0).
    let due: [Int32] = queue.sync {
      openSections -= 1
      guard openSections == 0 else { return [] }
      defer { pending.removeAll() }
      return pending
    }
    for number in due { act(on: number) }
    return result
  }

  // MARK: Acting on a signal

  /// From a signal source: hold it back during a critical section, else act now.
  private func received(_ number: Int32) {
    let deferred: Bool = queue.sync {
      guard openSections > 0 else { return false }
      if !pending.contains(number) { pending.append(number) }
      return true
    }
    if !deferred { act(on: number) }
  }

  private func act(on number: Int32) {
    let (interceptor, terminator) = queue.sync { (self.interceptor, self.terminator) }
    if let interceptor, interceptor(number) == .handled { return }
    queue.sync { terminatingWith = terminatingWith ?? number }
    if let terminator {
      terminator(number)
    } else {
      queue.sync { restorer }?()
      Self.die(by: number)
    }
  }

  /// True when `number` is ignored (`SIG_IGN`), as a parent may leave it (nohup, a background
  /// job's SIGINT).
  static func isIgnored(_ number: Int32) -> Bool {
    var current = sigaction()
    guard sigaction(number, nil, &current) == 0,
      let handler = current.__sigaction_handler.sa_handler
    else { return false }
    return unsafeBitCast(handler, to: Int.self) == 1  // SIG_IGN
  }

  /// Ends the process by `number` with its default action, so that the exit status says so.
  public static func die(by number: Int32) -> Never {
    signal(number, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, number)
    // Only this thread needs it unblocked: raise() sends it here.
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(number)
    _exit(128 + number)
  }
}
