import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The agent's end of its Unix socket: one request line in, one answer line out, per connection.
///
/// The ideas of AuthCore's `LoopbackServer`, for a Unix socket and a line protocol: one
/// dedicated thread owns the listening socket and every connection while it is read, waiting in
/// `poll(2)`, so blocking calls stay off the cooperative pool and no state is shared between
/// threads. Each connection is checked first: the peer's uid (`SO_PEERCRED`) must be this
/// process's, else it is closed unanswered. Then it has `readTimeout` to send one line of at
/// most `maximumRequestBytes`; the line (or the verdict that it was too long or too slow) goes
/// to `handler` in a task of its own, whose answer (if any) is written before the connection
/// closes.
final class AgentListener: Sendable {
  /// The longest request line, newline included.
  static let maximumRequestBytes = 4096
  /// How long a client may take to send its request.
  static let readTimeout: TimeInterval = 5
  /// Connections being read at once; more are closed at once.
  static let maximumConnections = 128

  /// What arrived on one connection.
  enum Delivery: Sendable, Equatable {
    /// One line, without its newline.
    case request(String)
    /// More than `maximumRequestBytes` without a newline.
    case tooLong
    /// No complete line within `readTimeout`.
    case tooSlow
  }

  /// This object's end of the wake-up socket pair; only `deinit` closes it (see LoopbackServer).
  private let wakeFD: Int32
  private let finished: Task<Void, Never>

  /// Serves the listening socket `listenFD` (non-blocking), which the listener then owns.
  /// `refused` hears of every connection from another user; `handler` answers the rest (nil:
  /// close without an answer).
  init(
    listening listenFD: Int32,
    refused: @escaping @Sendable (UnixSocket.PeerCredentials?) -> Void,
    handler: @escaping @Sendable (Delivery) async -> String?
  ) throws(AgentSocketProblem) {
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
      close(listenFD)
      throw .socket("socketpair", errno)
    }
    for fd in pair {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    wakeFD = pair[1]
    let loop = RequestLoop(
      listenFD: listenFD, wakeReadFD: pair[0], refused: refused, handler: handler)
    finished = Task.detached {
      await withCheckedContinuation { continuation in
        let thread = Thread {
          loop.run()
          continuation.resume()
        }
        thread.name = "authtui-agent-listener"
        thread.start()
      }
    }
  }

  deinit {
    // Also wakes a thread still running: its end then reads end-of-file.
    close(wakeFD)
  }

  /// Stops accepting, closes the connections still being read and the listening socket, and
  /// returns once that is done. Answers already being worked on still go out.
  func stop() async {
    var byte: UInt8 = 1
    _ = send(wakeFD, &byte, 1, Int32(MSG_NOSIGNAL))
    await finished.value
  }
}

/// The state of the listener thread. Only that thread touches it.
private final class RequestLoop: @unchecked Sendable {
  // @unchecked: created on the caller's thread, then used by the one listener thread only.
  struct Connection {
    var buffer: [UInt8] = []
    let deadline: Date
  }

  let listenFD: Int32
  let wakeReadFD: Int32
  let refused: @Sendable (UnixSocket.PeerCredentials?) -> Void
  let handler: @Sendable (AgentListener.Delivery) async -> String?
  let uid = geteuid()
  var connections: [Int32: Connection] = [:]

  init(
    listenFD: Int32, wakeReadFD: Int32,
    refused: @escaping @Sendable (UnixSocket.PeerCredentials?) -> Void,
    handler: @escaping @Sendable (AgentListener.Delivery) async -> String?
  ) {
    self.listenFD = listenFD
    self.wakeReadFD = wakeReadFD
    self.refused = refused
    self.handler = handler
  }

  func run() {
    defer {
      for fd in connections.keys { close(fd) }
      close(listenFD)
      close(wakeReadFD)
    }
    while true {
      let now = Date()
      for (fd, connection) in connections where connection.deadline <= now {
        deliver(.tooSlow, on: fd)
      }
      var fds = [
        pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0),
        pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
      ]
      fds += connections.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let nearest = connections.values.map(\.deadline).min()
      let timeout = nearest.map { max(0, min(1000, Int32($0.timeIntervalSince(now) * 1000) + 1)) }
      if poll(&fds, nfds_t(fds.count), timeout ?? -1) < 0 {
        if errno == EINTR { continue }
        return
      }
      if fds[0].revents != 0 { return }
      if fds[1].revents != 0 { acceptPending(now: now) }
      for entry in fds.dropFirst(2) where entry.revents != 0 {
        readFrom(entry.fd)
      }
    }
  }

  private func acceptPending(now: Date) {
    while true {
      let fd = Glibc.accept(listenFD, nil, nil)
      if fd < 0 { return }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      // Only this user may ask: the folder's mode keeps others out, and this check keeps out
      // anyone who gets past it (root, or a folder whose mode was changed while we run).
      let peer = UnixSocket.peer(of: fd)
      guard let peer, peer.uid == uid else {
        refused(peer)
        close(fd)
        continue
      }
      guard connections.count < AgentListener.maximumConnections else {
        close(fd)
        continue
      }
      connections[fd] = Connection(deadline: now.addingTimeInterval(AgentListener.readTimeout))
    }
  }

  private func readFrom(_ fd: Int32) {
    var chunk = [UInt8](repeating: 0, count: AgentListener.maximumRequestBytes)
    let count = recv(fd, &chunk, chunk.count, 0)
    if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
    guard count >= 0, var connection = connections[fd] else {
      connections[fd] = nil
      close(fd)
      return
    }
    connection.buffer += chunk[0..<count]
    if let newline = connection.buffer.firstIndex(of: UInt8(ascii: "\n")),
      newline < AgentListener.maximumRequestBytes
    {
      deliver(.request(String(decoding: connection.buffer[..<newline], as: UTF8.self)), on: fd)
    } else if connection.buffer.count >= AgentListener.maximumRequestBytes {
      deliver(.tooLong, on: fd)
    } else if count == 0 {
      // The client stopped sending: what it sent is its request, if anything.
      if connection.buffer.isEmpty {
        connections[fd] = nil
        close(fd)
      } else {
        deliver(.request(String(decoding: connection.buffer, as: UTF8.self)), on: fd)
      }
    } else {
      connections[fd] = connection
    }
  }

  /// Hands the connection to a task that answers and closes it.
  private func deliver(_ delivery: AgentListener.Delivery, on fd: Int32) {
    connections[fd] = nil
    let handler = self.handler
    // High priority, like the loopback server's answers: a caller is waiting on it.
    Task.detached(priority: .high) {
      // Non-blocking: an answer (at most a few kilobytes) fits the socket's buffer, and a
      // client that stopped reading cannot hold this task.
      if let answer = await handler(delivery) {
        _ = UnixSocket.sendAll(Array((answer + "\n").utf8), to: fd, flags: Int32(MSG_DONTWAIT))
        shutdown(fd, Int32(SHUT_WR))
      }
      close(fd)
    }
  }
}
