import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process that keeps running while the test talks to it: a server started from its
/// binary, whose first line says where it listens. Blocking reads and waits run on threads of
/// their own.
public final class BackgroundProcess: Sendable {
  private let child: Spawned

  /// The child's process id.
  public var pid: pid_t { child.pid }

  /// Starts `executable` with `arguments`; standard input is closed at once.
  public init(
    _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil
  )
    throws
  {
    child = try Spawned(executable, arguments, environment: environment, captureInput: true)
    close(child.stdinFD)
  }

  /// The first line the child writes to standard output (without the newline), or nil when it
  /// exits or `timeout` passes first.
  public func firstLine(timeout: TimeInterval = 10) async -> String? {
    let fd = child.stdoutFD
    return await withCheckedContinuation { continuation in
      Thread {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while Date() < deadline {
          let ready = poll(&entry, 1, 50)
          guard ready > 0 else { continue }
          var byte: UInt8 = 0
          guard read(fd, &byte, 1) == 1 else { break }
          if byte == UInt8(ascii: "\n") {
            continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            return
          }
          bytes.append(byte)
        }
        continuation.resume(returning: nil)
      }.start()
    }
  }

  /// Whatever the child wrote to standard error so far, read without waiting (call it after
  /// the child exited to get everything).
  public func readStandardError() -> String {
    let fd = child.stderrFD
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count <= 0 { break }
      output += buffer[0..<count]
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Sends `signal` to the child.
  public func send(signal: Int32) {
    kill(child.pid, signal)
  }

  /// Waits for the child to exit; returns its status (128 + signal when a signal ended it), or
  /// nil when `timeout` passes first, after which the child is killed.
  public func waitForExit(timeout: TimeInterval = 10) async -> Int32? {
    let child = self.child
    return await withCheckedContinuation { continuation in
      Thread {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
          if let status = child.exitStatus() {
            continuation.resume(returning: status)
            return
          }
          usleep(10_000)
        }
        kill(child.pid, SIGKILL)
        _ = child.wait()
        continuation.resume(returning: nil)
      }.start()
    }
  }

  deinit {
    if child.exitStatus() == nil {
      kill(child.pid, SIGKILL)
      _ = child.wait()
    }
    close(child.stdoutFD)
    close(child.stderrFD)
  }
}
