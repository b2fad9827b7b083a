import Dispatch
import Foundation
import Isolation

#if canImport(Glibc)
  import Glibc
#endif

/// A program run in the foreground on the user's behalf (`authtui exec`): found on `PATH` as a
/// shell finds it, started with the terminal and descriptors 0-2 of this process (and those
/// the user handed down, but none authtui opened), sent the SIGINT, SIGTERM, SIGHUP, SIGQUIT,
/// SIGUSR1 and SIGUSR2 this process receives (but a SIGINT or SIGQUIT the terminal sent to
/// both), and waited for.
public enum ForegroundCommand {
  /// Where `name` was found, or why it was not.
  public enum Lookup: Sendable, Equatable {
    /// The executable's path.
    case found(String)
    /// No executable of that name (exit 127, as shells give).
    case notFound
    /// It exists but cannot be run: a folder, or no execute permission (exit 126).
    case notExecutable(String)
  }

  /// Finds `name` as a shell does: a name with a `/` is the path itself, any other is looked
  /// for in each folder of `PATH` in turn (an empty entry is the current folder), and the first
  /// regular file that may be executed is taken.
  public static func locate(
    _ name: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Lookup {
    guard !name.isEmpty else { return .notFound }
    if name.contains("/") {
      guard access(name, F_OK) == 0 else { return .notFound }
      return isExecutableFile(name) ? .found(name) : .notExecutable(name)
    }
    var unusable: String?
    let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":", omittingEmptySubsequences: false)
    for folder in folders {
      let path = folder.isEmpty ? name : "\(folder)/\(name)"
      if isExecutableFile(path) { return .found(path) }
      if unusable == nil, access(path, F_OK) == 0 { unusable = path }
    }
    return unusable.map { .notExecutable($0) } ?? .notFound
  }

  /// Runs `program` (a path `locate` found) with `arguments` and exactly `environment` until it
  /// ends, and says how it ended. Until then SIGINT, SIGTERM and SIGHUP sent to this process
  /// (TerminationSignals' interceptor), and SIGQUIT, SIGUSR1 and SIGUSR2 (`ForwardedSignals`),
  /// are passed on to it rather than ending this process, so that the program decides what
  /// they mean and this process reports its ending; one that came before the program started
  /// reaches it as soon as it has.
  /// `name` is its argv[0]: the name it was asked by, as a shell passes it. `passing` are the
  /// descriptors above 2 it keeps, under the same numbers (`InheritedDescriptors`); it gets no
  /// other descriptor of this process.
  public static func run(
    _ program: String, name: String, arguments: [String], environment: [String: String],
    passing descriptors: [Int32] = []
  ) async throws(SpawnError) -> SpawnedProcess.Termination {
    let forwarding = SignalForwarding()
    TerminationSignals.shared.intercept { number in
      forwarding.forward(number)
      return .handled
    }
    defer { TerminationSignals.shared.removeInterceptor() }
    // Caught before the program starts: one that came after would end this process and leave
    // the program running, with no one to report how it ends.
    // Its wait for libdispatch's registration blocks: off the cooperative pool.
    await onOwnThread(named: "forwarded-signals") { ForwardedSignals.shared.pass(to: forwarding) }
    defer { ForwardedSignals.shared.stopPassing() }
    let process: SpawnedProcess
    do {
      process = try SpawnedProcess.start(
        program, name: name, arguments: arguments, environment: environment,
        extra: Dictionary(descriptors.map { ($0, $0) }, uniquingKeysWith: { first, _ in first }))
    } catch {
      // A signal held for a program that never started ends this process as it would have.
      if let number = forwarding.detach().first { TerminationSignals.die(by: number) }
      throw error
    }
    forwarding.attach(process.pid)
    return await onOwnThread(named: "foreground-wait") {
      // Waited for without reaping first: until `detach`, the pid cannot be reused by
      // another process that a forwarded signal would then reach.
      process.waitUntilEnded()
      forwarding.detach()
      return process.wait()
    }
  }

  private static func isExecutableFile(_ path: String) -> Bool {
    var facts = stat()
    guard stat(path, &facts) == 0, facts.st_mode & S_IFMT == S_IFREG else { return false }
    return access(path, X_OK) == 0
  }
}

/// The child a signal is passed on to, and the signals that came before it started.
///
/// @unchecked Sendable: both stored properties are read and written only on `queue`, a serial
/// queue (the signal sources call `forward` from libdispatch's threads).
private final class SignalForwarding: @unchecked Sendable {
  private let queue = DispatchQueue(label: "authtui.signal-forwarding")
  private var child: pid_t?
  private var held: [Int32] = []
  private var ended = false

  func forward(_ number: Int32) {
    queue.sync {
      if let child {
        // Ctrl-C (Ctrl-\) at the terminal sends SIGINT (SIGQUIT) to its whole foreground
        // process group, which the child shares with this process: it has its own already,
        // and a second one would reach it while it handles the first (Python's
        // KeyboardInterrupt inside its cleanup).
        if number == SIGINT || number == SIGQUIT, Self.terminalSignalsOurGroup() { return }
        kill(child, number)
      } else if !ended {
        held.append(number)
      }
    }
  }

  /// True when this process's group is the foreground group of its controlling terminal, so a
  /// SIGINT or SIGQUIT is most likely the terminal's, sent to the child too. `kill -INT` from
  /// elsewhere while authtui is in the foreground then reaches authtui alone, which is the
  /// smaller harm.
  private static func terminalSignalsOurGroup() -> Bool {
    let terminal = open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
    guard terminal >= 0 else { return false }
    defer { close(terminal) }
    let foreground = tcgetpgrp(terminal)
    return foreground > 0 && foreground == getpgrp()
  }

  /// From now on signals go to `pid`; the ones held go there at once.
  func attach(_ pid: pid_t) {
    queue.sync {
      child = pid
      for number in held { kill(pid, number) }
      held.removeAll()
    }
  }

  /// No more forwarding (the child ended, or never started); the signals still held.
  @discardableResult
  func detach() -> [Int32] {
    queue.sync {
      child = nil
      ended = true
      defer { held.removeAll() }
      return held
    }
  }
}

/// SIGQUIT, SIGUSR1 and SIGUSR2 for the whole process while a foreground program runs: the
/// signals besides TerminationSignals' whose default action ends a process, which would end
/// this one and leave the program running, orphaned (aws-vault's `exec` passes on every signal
/// it can catch). A `DispatchSource` per signal replaces the default action process-wide, as
/// TerminationSignals' do; they are made on first use and stay. Between programs (before the
/// first, after the last) a signal ends the process by its default action, as if nothing had
/// caught it.
///
/// Not caught: SIGTSTP, SIGTTIN and SIGTTOU stop this process with the program (the shell's job
/// control sees the whole job stop, and SIGCONT from `fg` reaches both), and SIGWINCH and
/// SIGCHLD are ignored by default, so none of them can leave the program orphaned; the
/// terminal sends SIGWINCH to the program itself.
///
/// @unchecked Sendable: both stored properties are read and written only on `queue`, a serial
/// queue (the signal sources report from libdispatch's threads).
private final class ForwardedSignals: @unchecked Sendable {
  static let shared = ForwardedSignals()

  /// The signals caught here.
  static let numbers: [Int32] = [SIGQUIT, SIGUSR1, SIGUSR2]

  private let queue = DispatchQueue(label: "authtui.forwarded-signals")
  private var sources: [any DispatchSourceSignal] = []
  private var forwarding: SignalForwarding?

  /// From now on the signals go to `forwarding`. Returns once each is caught (libdispatch has
  /// registered its source), so that none comes meanwhile and ends the process after the
  /// program starts; at most five seconds, as TerminationSignals' `install` waits.
  func pass(to forwarding: SignalForwarding) {
    let registered = DispatchGroup()
    let made: [any DispatchSourceSignal] = queue.sync {
      self.forwarding = forwarding
      guard sources.isEmpty else { return [] }
      // A parent's ignored signal stays ignored (the program inherits that too).
      sources = TerminationSignals.sources(Self.numbers, registered: registered) { [self] in
        received($0)
      }
      return sources
    }
    made.forEach { $0.resume() }
    _ = registered.wait(timeout: .now() + .seconds(5))
  }

  /// No program to pass them to any more.
  func stopPassing() {
    queue.sync { forwarding = nil }
  }

  private func received(_ number: Int32) {
    guard let forwarding = queue.sync(execute: { self.forwarding }) else {
      TerminationSignals.die(by: number)
    }
    forwarding.forward(number)
  }
}

extension SpawnedProcess {
  /// Blocks until the child has ended, leaving it to `wait` to reap: its pid stays its own
  /// until then.
  func waitUntilEnded() {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 {
      guard errno == EINTR else { return }
    }
  }
}
