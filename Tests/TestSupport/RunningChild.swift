import Dispatch
import Foundation
import Isolation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process that keeps running while a test talks to it line by line, and that the test
/// can signal (SIGKILL) at a moment of its choosing.
///
/// Started like `ChildProcess.run` (posix_spawn, signal mask reset). The blocking calls (poll,
/// waitpid, write) run on this actor's own dispatch queue, never on the cooperative pool. A child
/// still running when the value goes away is killed and reaped.
public actor RunningChild {
  private let executor = QueueExecutor(label: "authtui.test.child")

  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// The child's process id.
  public nonisolated let pid: pid_t
  private let child: Spawned
  private var output: [UInt8] = []
  private var errors: [UInt8] = []
  private var outputOpen = true
  private var errorsOpen = true
  private var inputOpen = true
  private var status: Int32?

  /// Starts `executable`; its standard streams are pipes to this value.
  public init(
    _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil
  ) throws {
    // A write to a child that already died must be an error, not a SIGPIPE ending the tests.
    signal(SIGPIPE, SIG_IGN)
    child = try Spawned(executable, arguments, environment: environment, captureInput: true)
    pid = child.pid
    for fd in [child.stdoutFD, child.stderrFD] {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
  }

  deinit {
    if status == nil {
      Glibc.kill(child.pid, SIGKILL)
      _ = child.wait()
    }
    // Standard input only while still open: `closeInput()` may have closed it, and closing the
    // number twice would close whatever another test's thread opened under it meanwhile (a
    // child's output pipe, whose writer then dies of SIGPIPE, exit 141).
    for fd in (inputOpen ? [child.stdinFD] : []) + [child.stdoutFD, child.stderrFD] {
      close(fd)
    }
  }

  /// Writes `line` and a newline to the child's standard input; false when the child is gone.
  @discardableResult
  public func send(_ line: String) -> Bool {
    guard inputOpen else { return false }
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(child.stdinFD, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      bytes = bytes.dropFirst(written)
    }
    return true
  }

  /// Closes the child's standard input (it reads end-of-file).
  public func closeInput() {
    if inputOpen {
      close(child.stdinFD)
      inputOpen = false
    }
  }

  /// The next line the child writes to standard output, without its newline; nil when the child
  /// closed its output or `timeout` passed first.
  public func nextLine(timeout: TimeInterval = 60) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let newline = output.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: output[..<newline], as: UTF8.self)
        output.removeSubrange(...newline)
        return line
      }
      let remaining = deadline.timeIntervalSinceNow
      guard outputOpen, remaining > 0 else { return nil }
      pump(milliseconds: Int32(min(remaining, 1) * 1000) + 1)
    }
  }

  /// The complete lines the child has written and no one has read yet, without waiting (after
  /// `wait`, that is everything it wrote before it ended).
  public func bufferedLines() -> [String] {
    pump(milliseconds: 0)
    var lines: [String] = []
    while let newline = output.firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(String(decoding: output[..<newline], as: UTF8.self))
      output.removeSubrange(...newline)
    }
    return lines
  }

  /// Sends `signal` to the child (SIGKILL by default).
  public func kill(_ signal: Int32 = SIGKILL) {
    if status == nil {
      Glibc.kill(child.pid, signal)
    }
  }

  /// Waits for the child to exit (SIGKILL after `timeout`) and returns its status: the exit code,
  /// or 128 + the signal that ended it.
  public func wait(timeout: TimeInterval = 60) -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    while status == nil {
      if let exited = child.exitStatus() {
        status = exited
        break
      }
      if deadline.timeIntervalSinceNow <= 0 {
        Glibc.kill(child.pid, SIGKILL)
        status = child.wait()
        break
      }
      pump(milliseconds: 20)
    }
    pump(milliseconds: 0)
    return status ?? -1
  }

  /// The child's exit status (as `wait` gives it) when it has ended, without waiting; nil
  /// while it runs.
  public func endedStatus() -> Int32? {
    if status == nil, let exited = child.exitStatus() { status = exited }
    return status
  }

  /// Everything the child wrote to standard error so far.
  public func standardError() -> String {
    pump(milliseconds: 0)
    return String(decoding: errors, as: UTF8.self)
  }

  /// Reads whatever the child has written, waiting up to `milliseconds` for something to arrive.
  private func pump(milliseconds: Int32) {
    var fds: [pollfd] = []
    if outputOpen { fds.append(pollfd(fd: child.stdoutFD, events: Int16(POLLIN), revents: 0)) }
    if errorsOpen { fds.append(pollfd(fd: child.stderrFD, events: Int16(POLLIN), revents: 0)) }
    guard !fds.isEmpty else {
      if milliseconds > 0 { usleep(UInt32(milliseconds) * 1000) }
      return
    }
    guard poll(&fds, nfds_t(fds.count), milliseconds) > 0 else { return }
    for entry in fds where entry.revents != 0 {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = read(entry.fd, &buffer, buffer.count)
        if count > 0 {
          if entry.fd == child.stdoutFD {
            output += buffer[0..<count]
          } else {
            errors += buffer[0..<count]
          }
          continue
        }
        if count < 0 && errno == EINTR { continue }
        if count == 0 || errno != EAGAIN {
          // End of file, or the pipe broke: the child closed this stream or exited.
          if entry.fd == child.stdoutFD { outputOpen = false } else { errorsOpen = false }
        }
        break
      }
    }
  }
}
