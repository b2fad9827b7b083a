#if canImport(Glibc)
  import Glibc
#endif

/// Standard input, output and error that the caller closed (`authtui token X >&-`), held open
/// on `/dev/null` so that no descriptor authtui opens later (an epoll, an eventfd, a socket, an
/// env file) lands on 0, 1 or 2 and receives a result or a message meant for the caller
/// (OpenSSH's and sudo's `sanitise_stdfd`).
///
/// The `/dev/null` descriptors are close-on-exec: a program authtui starts with its own
/// standard descriptors (`exec`'s command, `ssh`, the full program started by the front) gets
/// them closed, exactly as authtui got them. A result written to standard output that was
/// closed is still an error (`DescriptorWrite` answers EBADF, as the write would have).
public enum StandardDescriptors {
  /// Which of 0, 1, 2 were closed when `guardClosed` ran; set once, before any thread exists.
  nonisolated(unsafe) private static var closed: [Bool] = [false, false, false]

  /// Opens `/dev/null` on each of 0, 1, 2 that is closed, and remembers which. Call it first
  /// thing in `main`, before anything opens a descriptor.
  public static func guardClosed() {
    for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
      let null = open("/dev/null", (descriptor == 0 ? O_RDONLY : O_WRONLY) | O_CLOEXEC)
      guard null >= 0 else { continue }
      closed[Int(descriptor)] = true
      // The lowest free descriptor is this one; should it not be (a lower one opened at
      // the same time), it is moved there.
      if null != descriptor {
        if dup2(null, descriptor) == descriptor {
          _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        _ = Glibc.close(null)
      }
    }
  }

  /// True when `descriptor` is 0, 1 or 2 and the caller had closed it.
  public static func wasClosed(_ descriptor: Int32) -> Bool {
    (0...2).contains(descriptor) && closed[Int(descriptor)]
  }
}
