import Foundation
import Hardening

#if canImport(Glibc)
  import Glibc
#endif

/// A program started with `posix_spawn`: the one place authtui starts processes (browsers,
/// clipboard tools, the clipboard janitor, passphrase commands).
///
/// `posix_spawn` rather than Foundation's `Process` (PLATFORM.md "Processes"): `Process`
/// waits for every process that inherited its internal pipe, so a launcher that daemonises
/// hangs it, and it gives no say over which descriptors the child keeps. Every child starts
/// with the signals as a fresh process has them: nothing blocked (a thread of ours, or a test
/// worker, may block them all) and the default action for the signals a shell or a program
/// expects (TerminationSignals and the agent take SIGINT, SIGTERM and SIGHUP here).
public struct SpawnedProcess: Sendable {
  /// The child's process id.
  public let pid: pid_t

  /// What one of the child's standard descriptors is.
  public enum Stream: Sendable, Equatable {
    /// The same as this process's.
    case inherited
    /// `/dev/null`.
    case null
    /// A copy of this process's descriptor (a pipe's end, a file).
    case descriptor(Int32)
  }

  /// How the child ended.
  public enum Termination: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal with this number killed it.
    case signalled(Int32)

    /// True for an exit status of 0.
    public var succeeded: Bool { self == .exited(0) }

    /// Words for messages: "it exited with status 3", "it was killed by signal 9".
    public var description: String {
      switch self {
      case .exited(let code): return "it exited with status \(code)"
      case .signalled(let number): return "it was killed by signal \(number)"
      }
    }
  }

  /// Starts `program` (an absolute path) with `arguments` (argv from argv[1] on) and
  /// `environment`, less any variable a passphrase comes from (`AUTHTUI_PASSPHRASE`,
  /// `AUTHTUI_NEW_PASSPHRASE` and their `_FILE` and `_COMMAND`): no child authtui starts (a
  /// browser that outlives it, git, a clipboard tool, a confirm or passphrase command, `exec`'s
  /// command) learns the vault's passphrase from its environment. `extra` maps child descriptors 3 and up to descriptors of ours (a pipe a
  /// script reads as `<&3`); `closing` are descriptors of ours the child must not keep open,
  /// such as the other end of a pipe whose end it was given. Whatever else this process has
  /// open stays here: the child gets 0, 1, 2 and `extra`, nothing more. `detached` starts a
  /// daemon: the child runs in a session of its own (`setsid`, no controlling terminal).
  /// `ownProcessGroup` starts it in a process group of its own, whose id is its pid, so that
  /// it can be killed with everything it started (`killpg`).
  /// `name` is the child's argv[0], `program` unless given (a shell gives the name typed).
  public static func start(
    _ program: String, name: String? = nil, arguments: [String] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    standardInput: Stream = .inherited, standardOutput: Stream = .inherited,
    standardError: Stream = .inherited, extra: [Int32: Int32] = [:], closing: [Int32] = [],
    detached: Bool = false, ownProcessGroup: Bool = false
  ) throws(SpawnError) -> SpawnedProcess {
    let environment = PassphraseSource.withoutPassphrases(environment)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (target, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
      switch stream {
      case .inherited: break
      case .null:
        posix_spawn_file_actions_addopen(
          &actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
      case .descriptor(let source):
        posix_spawn_file_actions_adddup2(&actions, source, target)
      }
    }
    for (target, source) in extra.sorted(by: { $0.key < $1.key }) {
      posix_spawn_file_actions_adddup2(&actions, source, target)
    }
    // After the dup2s: a descriptor closed here may be the source of one of them.
    for descriptor in closing {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    // Every child keeps 0, 1, 2 and `extra` alone: descriptors opened without close-on-exec
    // (URLSession's socket pairs, a library's pipe) must not reach a browser or `exec`'s
    // command. A close of a descriptor the child does not have is no error in glibc.
    let highest = extra.keys.max() ?? 2
    for descriptor in Int32(3)..<max(3, highest) where extra[descriptor] == nil {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    SpawnExtensions.closeDescriptors(from: highest + 1, in: &actions)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    resetSignals(&attributes, newSession: detached, newGroup: ownProcessGroup)

    let argv = ([name ?? program] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard code == 0 else { throw SpawnError(program: program, code: code) }
    return SpawnedProcess(pid: pid)
  }

  /// Waits for the child to end (blocking: call it on a thread of its own, never from a task).
  public func wait() -> Termination {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return .exited(-1) }
    }
    return Self.termination(status)
  }

  /// Runs `program` to its end and returns how it ended and everything it wrote on standard
  /// output (blocking). Standard input and error stay this process's unless given, so a
  /// passphrase command such as `gpg` or `pass` can ask on the terminal itself.
  ///
  /// With `deadline`, a child that has not ended by then is killed (`SIGKILL`) and reported
  /// as killed by it, with what it wrote so far: for helpers that answer at once or not at
  /// all (a tmux server that hangs), or, generously, for a program that may ask a person.
  ///
  /// `ownProcessGroup` runs the child in a process group of its own, killed whole at the
  /// deadline (a shell's children with it); with `lendingTerminal`, it is handed the
  /// controlling terminal while it runs when this process has it in the foreground, as a
  /// shell does for a job: its prompts read the terminal, and Ctrl-C goes to it (it then ends
  /// by SIGINT), not to this process. Never lend it while this process reads the terminal
  /// itself (the UI): a read from a background group stops the whole process.
  public static func output(
    of program: String, arguments: [String] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    standardInput: Stream = .inherited, standardError: Stream = .inherited,
    deadline: Duration? = nil, ownProcessGroup: Bool = false, lendingTerminal: Bool = true
  ) throws(SpawnError) -> (termination: Termination, output: [UInt8]) {
    let end = deadline.map { ContinuousClock.now + $0 }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw SpawnError(program: program, code: errno) }
    let process: SpawnedProcess
    do {
      process = try start(
        program, arguments: arguments, environment: environment, standardInput: standardInput,
        standardOutput: .descriptor(ends[1]), standardError: standardError,
        closing: [ends[0], ends[1]], ownProcessGroup: ownProcessGroup)
    } catch {
      close(ends[0])
      close(ends[1])
      throw error
    }
    close(ends[1])
    defer { close(ends[0]) }
    let foreground =
      ownProcessGroup && lendingTerminal ? TerminalForeground.handOver(to: process.pid) : nil
    defer { foreground?.takeBack() }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      if let end, !Self.readable(ends[0], before: end) {
        return (process.kill(group: ownProcessGroup), output)
      }
      let count = read(ends[0], &buffer, buffer.count)
      if count > 0 {
        output += buffer[0..<count]
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    guard let end else { return (process.wait(), output) }
    return (process.wait(before: end) ?? process.kill(group: ownProcessGroup), output)
  }

  /// True once `descriptor` has something to read (or its end), false when `end` comes first.
  static func readable(_ descriptor: Int32, before end: ContinuousClock.Instant) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let left = ContinuousClock.now.duration(to: end)
      guard left > .zero else { return false }
      let (seconds, attoseconds) = left.components
      let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      let ready = poll(&entry, 1, milliseconds)
      if ready > 0 { return true }
      if ready < 0 && errno != EINTR { return true }  // Let read() say what is wrong.
    }
  }

  /// How the child ended, once it has by `end`; nil when it is still running then. It is
  /// looked at every 10 ms: the children given a deadline end at once or hang.
  public func wait(before end: ContinuousClock.Instant) -> Termination? {
    var status: Int32 = 0
    while true {
      let ended = waitpid(pid, &status, WNOHANG)
      if ended == pid { return Self.termination(status) }
      if ended < 0 && errno != EINTR { return .exited(-1) }
      guard ContinuousClock.now < end else { return nil }
      usleep(10_000)
    }
  }

  /// Kills the child (`SIGKILL`), with its process group when it has one of its own, and
  /// waits for it: a deadline passed.
  private func kill(group: Bool = false) -> Termination {
    _ = group ? killpg(pid, SIGKILL) : Glibc.kill(pid, SIGKILL)
    return wait()
  }

  private static func termination(_ status: Int32) -> Termination {
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
  }

  /// Gives a child the signals as a fresh process has them, and a session of its own when asked.
  private static func resetSignals(
    _ attributes: inout posix_spawnattr_t, newSession: Bool, newGroup: Bool
  ) {
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGWINCH] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if newSession { flags |= SpawnExtensions.newSessionFlag }
    if newGroup {
      flags |= Int16(POSIX_SPAWN_SETPGROUP)
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, flags)
  }
}

/// A program could not be started.
public struct SpawnError: Error, Equatable, Sendable {
  /// The program's path.
  public let program: String
  /// The `errno` value `posix_spawn` (or `pipe`) gave.
  public let code: Int32

  /// "No such file or directory".
  public var reason: String { String(cString: strerror(code)) }
}
