import Foundation
import Hardening
import Isolation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program as a real child process, for tests that drive the built binaries.
///
/// `posix_spawn` rather than Foundation's `Process`: `Process.waitUntilExit` also waits for any
/// grandchild that inherited its pipe (a daemonising browser launcher), and processes spawned
/// from Swift Testing's worker threads would inherit a blocked signal mask. The blocking work
/// (poll, waitpid) runs on a dedicated thread so the two-thread cooperative pool stays free.
public enum ChildProcess {
  /// What a finished child left behind.
  public struct Result: Sendable {
    /// The exit status, or 128 + signal number when a signal ended it.
    public let status: Int32
    /// Everything written to standard output.
    public let stdout: String
    /// Everything written to standard error.
    public let stderr: String
    /// True when the deadline passed and the child was killed.
    public let timedOut: Bool
  }

  /// Where a child's standard output goes.
  public enum Output: Sendable {
    /// A pipe this process reads: `Result.stdout`.
    case captured
    /// The file at this path, opened for writing (`/dev/full`: every write fails with ENOSPC).
    case file(String)
    /// A pipe whose reading end is closed before the child starts, as after `| head -0`: a
    /// write raises SIGPIPE, or fails with EPIPE where SIGPIPE is ignored.
    case closedPipe
  }

  /// Runs `executable` to completion (or `timeout`, after which it is killed with SIGKILL).
  public static func run(
    _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
    input: String? = nil, output: Output = .captured, timeout: TimeInterval = 60
  ) async throws -> Result {
    try await onOwnThread {
      try runBlocking(
        executable, arguments, environment: environment, input: input.map { Array($0.utf8) },
        output: output, timeout: timeout)
    }
  }

  /// The environment of this test process with `changes` applied (nil removes a variable).
  public static func environment(_ changes: [String: String?]) -> [String: String] {
    var result = ProcessInfo.processInfo.environment
    for (name, value) in changes {
      result[name] = value
    }
    return result
  }

  static func runBlocking(
    _ executable: String, _ arguments: [String], environment: [String: String]?, input: [UInt8]?,
    output: Output = .captured, timeout: TimeInterval
  ) throws -> Result {
    let child = try Spawned(
      executable, arguments, environment: environment, captureInput: true, output: output)
    var output: [UInt8] = []
    var errors: [UInt8] = []
    var pendingInput = input ?? []
    var inputFD: Int32? = child.stdinFD
    if pendingInput.isEmpty, let fd = inputFD {
      close(fd)
      inputFD = nil
    }
    var outFD: Int32? = child.stdoutFD >= 0 ? child.stdoutFD : nil
    var errFD: Int32? = child.stderrFD
    for fd in [child.stdoutFD, child.stderrFD] where fd >= 0 {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    let deadline = Date().addingTimeInterval(timeout)
    var timedOut = false
    var status: Int32?

    // Finish when the child has exited, not at end-of-file: a grandchild (a browser launcher, or
    // a process spawned concurrently by another test) may hold the pipes open much longer.
    while true {
      if status == nil, let exited = child.exitStatus() {
        status = exited
      }
      let remaining = deadline.timeIntervalSinceNow
      if status == nil && remaining <= 0 {
        timedOut = true
        kill(child.pid, SIGKILL)
        status = child.wait()
      }
      var fds: [pollfd] = []
      if let fd = outFD { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
      if let fd = errFD { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
      if let fd = inputFD { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
      if fds.isEmpty { break }
      let ready = poll(&fds, nfds_t(fds.count), status == nil ? 50 : 0)
      if ready == 0 && status != nil { break }
      if ready < 0 && errno != EINTR { break }
      for entry in fds where entry.revents != 0 {
        if entry.fd == inputFD {
          let written = pendingInput.withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
          if written > 0 { pendingInput.removeFirst(written) }
          if written < 0 || pendingInput.isEmpty {
            close(entry.fd)
            inputFD = nil
          }
          continue
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(entry.fd, &buffer, buffer.count)
        if count > 0 {
          if entry.fd == outFD {
            output += buffer[0..<count]
          } else {
            errors += buffer[0..<count]
          }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          close(entry.fd)
          if entry.fd == outFD { outFD = nil } else { errFD = nil }
        }
      }
    }
    if let fd = inputFD { close(fd) }
    if let fd = outFD { close(fd) }
    if let fd = errFD { close(fd) }
    let finalStatus = status ?? child.wait()
    return Result(
      status: finalStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: String(decoding: errors, as: UTF8.self), timedOut: timedOut)
  }
}

/// A spawned child and the parent's ends of its standard streams.
struct Spawned {
  let pid: pid_t
  let stdinFD: Int32
  /// The reading end of the child's standard output, -1 when `Output` is not `.captured`.
  let stdoutFD: Int32
  let stderrFD: Int32

  init(
    _ executable: String, _ arguments: [String], environment: [String: String]?,
    captureInput: Bool, output: ChildProcess.Output = .captured
  ) throws {
    var inPipe: [Int32] = [0, 0]
    var outPipe: [Int32] = [0, 0]
    var errPipe: [Int32] = [0, 0]
    guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
      throw ChildProcessError.spawnFailed(executable, errno)
    }
    // pipe2(O_CLOEXEC) does not import; a child spawned by another thread in between may still
    // inherit these ends, which is why readers stop at the child's exit rather than at EOF.
    for fd in inPipe + outPipe + errPipe {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
    switch output {
    case .captured:
      break
    case .file(let path):
      // Replaces the pipe on descriptor 1, which then has no writer and reads as empty.
      posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY, 0)
    case .closedPipe:
      close(outPipe[0])
    }
    // Nothing else of the test process (another test's pipes, URLSession's socket pairs):
    // `authtui exec` passes on what it was handed, and its tests count descriptors.
    SpawnExtensions.closeDescriptors(from: 3, in: &actions)

    // Reset the signal mask and dispositions a test worker thread may have blocked.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var emptySet = sigset_t()
    sigemptyset(&emptySet)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    sigdelset(&allSignals, SIGKILL)
    sigdelset(&allSignals, SIGSTOP)
    posix_spawnattr_setsigmask(&attributes, &emptySet)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let environmentList = (environment ?? ProcessInfo.processInfo.environment).map {
      "\($0.key)=\($0.value)"
    }
    let envp = environmentList.map { strdup($0) } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    close(inPipe[0])
    close(outPipe[1])
    close(errPipe[1])
    let outputEnd: Int32
    if case .captured = output {
      outputEnd = outPipe[0]
    } else {
      if case .file = output { close(outPipe[0]) }
      outputEnd = -1
    }
    guard result == 0 else {
      close(inPipe[1])
      if outputEnd >= 0 { close(outputEnd) }
      close(errPipe[0])
      throw ChildProcessError.spawnFailed(executable, result)
    }
    self.pid = pid
    self.stdinFD = inPipe[1]
    self.stdoutFD = outputEnd
    self.stderrFD = errPipe[0]
  }

  /// Waits for the child and returns its status (128 + signal when a signal ended it).
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return Self.decode(status)
  }

  /// The child's status if it has exited, without waiting.
  func exitStatus() -> Int32? {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid ? Self.decode(status) : nil
  }

  static func decode(_ status: Int32) -> Int32 {
    let termination = status & 0x7F
    return termination == 0 ? (status >> 8) & 0xFF : 128 + termination
  }
}

/// Why a child process could not be started.
public enum ChildProcessError: Error, CustomStringConvertible {
  case spawnFailed(String, Int32)
  case noOutputLine(String)

  public var description: String {
    switch self {
    case .spawnFailed(let path, let code):
      return "could not start \(path): \(String(cString: strerror(code)))"
    case .noOutputLine(let path):
      return "\(path) ended or timed out before printing a line"
    }
  }
}
