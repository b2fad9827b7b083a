#if canImport(Glibc)
  import Glibc
#endif

/// How background work hands results to the thread that owns the `Screen`, without locks.
///
/// `post` may be called from any thread or task: it puts the message into a pipe (the kernel
/// orders concurrent writers) and wakes the screen's `readEvent`. The owning loop calls
/// `drain` after every `readEvent` to collect what arrived, oldest first.
///
/// Each message travels as one pointer-sized write, which a pipe delivers whole; a full pipe
/// (thousands of undrained messages) makes `post` wait until the loop drains.
public final class Mailbox<Message: Sendable>: Sendable {
  private final class Envelope: Sendable {
    let message: Message
    init(_ message: Message) { self.message = message }
  }

  private let readFD: Int32
  private let writeFD: Int32
  private let waker: ScreenWaker

  /// A mailbox whose `post` also runs `waker` (a screen's waker, so its loop wakes up).
  public init(waking waker: ScreenWaker = .none) throws(MailboxError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw .pipeUnavailable(errno) }
    // The reading end never blocks the loop; neither end leaks into spawned programs.
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    readFD = ends[0]
    writeFD = ends[1]
    self.waker = waker
  }

  /// Sends `message` to the loop and wakes it. Safe from any thread.
  public func post(_ message: Message) {
    var address = UInt(bitPattern: Unmanaged.passRetained(Envelope(message)).toOpaque())
    let size = MemoryLayout<UInt>.size
    var written = -1
    repeat {
      written = withUnsafeBytes(of: &address) { write(writeFD, $0.baseAddress, size) }
    } while written < 0 && errno == EINTR
    if written != size, let pointer = UnsafeRawPointer(bitPattern: address) {
      // Only possible once the mailbox is being torn down; do not leak the message.
      Unmanaged<Envelope>.fromOpaque(pointer).release()
      return
    }
    waker.wake()
  }

  /// Every message posted since the last drain, oldest first. Never blocks.
  public func drain() -> [Message] {
    var messages: [Message] = []
    let size = MemoryLayout<UInt>.size
    var addresses = [UInt](repeating: 0, count: 256)
    while true {
      let count = addresses.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      for index in 0..<(count / size) {
        guard let pointer = UnsafeRawPointer(bitPattern: addresses[index]) else { continue }
        messages.append(Unmanaged<Envelope>.fromOpaque(pointer).takeRetainedValue().message)
      }
      if count < addresses.count * size { break }
    }
    return messages
  }

  deinit {
    _ = drain()
    close(readFD)
    close(writeFD)
  }
}

/// Why a `Mailbox` could not be created.
public enum MailboxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `pipe(2)` failed with this errno (usually: too many open files).
  case pipeUnavailable(Int32)

  public var description: String {
    switch self {
    case .pipeUnavailable(let code):
      return
        "could not create the UI's message pipe: \(String(cString: strerror(code))); close other "
        + "programs or raise the open-file limit (`ulimit -n`)"
    }
  }
}
