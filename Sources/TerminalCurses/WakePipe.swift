#if canImport(Glibc)
  import Glibc
#endif

/// The self-pipe in the input loop's `poll` set: other threads write a byte to end the wait,
/// and the SIGWINCH handler writes `r` so a resize is noticed on any thread.
///
/// The pipe stays open as long as any `ScreenWaker` holds it, so a late wake never writes into
/// a file descriptor number the process has reused.
final class WakePipe: Sendable {
  /// Byte the SIGWINCH handler writes (see shim.h).
  static let resizeByte = UInt8(ascii: "r")

  let readFD: Int32
  let writeFD: Int32

  init() throws(CursesError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw .systemCall("pipe", errno) }
    // Neither end may block: a full pipe already holds a pending wake.
    for fd in ends {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    readFD = ends[0]
    writeFD = ends[1]
  }

  /// Ends the current or next wait. Safe from any thread.
  func wake() {
    var byte = UInt8(ascii: "w")
    _ = write(writeFD, &byte, 1)
  }

  /// Empties the pipe; true when a resize was signalled since the last drain.
  func drain() -> Bool {
    var resized = false
    var bytes = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(readFD, &bytes, bytes.count)
      guard count > 0 else { break }
      if bytes[0..<count].contains(Self.resizeByte) { resized = true }
    }
    return resized
  }

  deinit {
    close(readFD)
    close(writeFD)
  }
}
