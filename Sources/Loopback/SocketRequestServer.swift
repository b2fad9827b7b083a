internal import CProcessControl
import Foundation
import Isolation
import Spelling

#if canImport(Glibc)
  import Glibc
#endif

/// What the loopback HTTP server and the agent's Unix socket have in common: one dedicated
/// thread that owns a listening socket and every connection while its request is being read,
/// and hands each complete request, with its socket, to a task that answers and closes it.
///
/// The thread waits in `poll(2)`, so blocking calls stay off the cooperative thread pool, and
/// only it touches the connections being read, so no lock is needed. Each connection has a read
/// deadline; what counts as a whole request (and what to do with a bad or slow one) is the
/// caller's `frame` and `timedOut`.
///
/// Nothing here waits for a turn on the cooperative pool: the thread starts before `init`
/// returns, and each answering task prefers a dispatch queue (`Answering`). A client is
/// waiting, and on the two-thread pool of a loaded machine a server started by a task, or an
/// answer queued there, once came only after every client had given up (30 s).
public final class SocketRequestServer<Request: Sendable>: Sendable {
  /// Where the answering tasks run (the code of `respond` between its awaits).
  public enum Answering: Sendable {
    /// Each on a serial queue of its own, made for it: `respond` may block (a send to a client
    /// that reads slowly), and holds up no other answer while it does.
    case eachOnItsOwnQueue
    /// All on `executor`, one after another between their awaits: `respond` must never block.
    /// Requests that come together are then answered on one thread, in turn, rather than
    /// each on a new queue with thread hand-offs of its own.
    case allOn(any TaskExecutor)
  }

  /// What the bytes read so far from one connection amount to.
  public enum Framing: Sendable {
    /// Not a whole request yet: keep reading.
    case waiting
    /// A whole request (or an answer to a bad one): hand it to `respond`.
    case complete(Request)
    /// Nothing worth answering: close the connection.
    case close
  }

  /// Limits for each connection.
  public struct Rules: Sendable {
    /// How long a client may take to send its whole request.
    public var readTimeout: TimeInterval
    /// Connections being read at once; more are passed to `overloaded` and closed.
    public var maxConnections: Int

    public init(readTimeout: TimeInterval, maxConnections: Int) {
      self.readTimeout = readTimeout
      self.maxConnections = maxConnections
    }
  }

  /// This object's end of the wake-up socket pair. Only `deinit` closes it: were the thread to
  /// close it, a later `requestStop()` would write into whatever socket reused the number (a
  /// sign-in's HTTPS connection, say), corrupting that stream.
  private let wakeFD: Int32
  private let finished: ThreadEnd

  /// Serves `listenFD` (a listening, non-blocking socket, which the server then owns).
  ///
  /// - `admit` sees each accepted socket first; false closes it unanswered (the agent's peer
  ///   check).
  /// - `overloaded` gets a socket accepted beyond `maxConnections`, for a best-effort word
  ///   before it is closed.
  /// - `frame` reads the bytes received so far (`ended`: the client stopped sending).
  /// - `timedOut` says what to answer a connection whose request did not arrive in time (nil:
  ///   close it).
  /// - `respond` answers a request on its socket and must close it; it runs as `answering`
  ///   says.
  public init(
    listening listenFD: Int32, rules: Rules, threadName: String,
    answering: Answering = .eachOnItsOwnQueue,
    admit: @escaping @Sendable (Int32) -> Bool = { _ in true },
    overloaded: @escaping @Sendable (Int32) -> Void = { _ in },
    frame: @escaping @Sendable (_ received: [UInt8], _ ended: Bool) -> Framing,
    timedOut: @escaping @Sendable (_ received: [UInt8]) -> Request?,
    respond: @escaping @Sendable (Request, _ socket: Int32) async -> Void
  ) throws(SocketServerError) {
    // A socket pair rather than a pipe: writing to it once the thread has closed its end fails
    // with EPIPE under MSG_NOSIGNAL instead of raising SIGPIPE.
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
      close(listenFD)
      throw SocketServerError(call: "socketpair", code: errno)
    }
    for fd in [listenFD, pair[0], pair[1]] {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    wakeFD = pair[1]
    let loop = RequestLoop(
      listenFD: listenFD, wakeReadFD: pair[0], rules: rules, answering: answering, admit: admit,
      overloaded: overloaded, frame: frame, timedOut: timedOut, respond: respond)
    do {
      finished = try startOwnThread(named: threadName) { loop.run() }
    } catch {
      for fd in [listenFD, pair[0], pair[1]] { close(fd) }
      throw SocketServerError(call: "pthread_create", code: error.code)
    }
  }

  deinit {
    // Also wakes a thread still running: its end then reads end-of-file.
    close(wakeFD)
  }

  /// Asks the server to stop: the listening socket and the connections still being read are
  /// closed; answers already being worked on still go out. Returns at once. Safe to call any
  /// number of times; releasing the server stops it too.
  public func requestStop() {
    var byte: UInt8 = 1
    _ = send(wakeFD, &byte, 1, Int32(MSG_NOSIGNAL))
  }

  /// Stops the server and returns once the listening socket is closed.
  public func stop() async {
    requestStop()
    await finished.wait()
  }
}

/// A socket call that failed while setting a server up.
public struct SocketServerError: Error, Equatable, Sendable {
  /// The call (`socketpair`, or `pthread_create` when no thread could be made).
  public let call: String
  /// Its `errno`.
  public let code: Int32
}

/// The state of a server's thread. Only that thread touches it.
private final class RequestLoop<Request: Sendable>: @unchecked Sendable {
  // @unchecked: created on the caller's thread, then used by the one server thread only.
  struct Connection {
    var buffer: [UInt8] = []
    let deadline: Date
  }

  typealias Server = SocketRequestServer<Request>

  let listenFD: Int32
  let wakeReadFD: Int32
  let rules: Server.Rules
  let answering: Server.Answering
  let admit: @Sendable (Int32) -> Bool
  let overloaded: @Sendable (Int32) -> Void
  let frame: @Sendable ([UInt8], Bool) -> Server.Framing
  let timedOut: @Sendable ([UInt8]) -> Request?
  let respond: @Sendable (Request, Int32) async -> Void
  var connections: [Int32: Connection] = [:]
  /// Where each `recv` lands: one buffer for the loop's life, not 16 KiB made and zeroed for
  /// every read.
  private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

  init(
    listenFD: Int32, wakeReadFD: Int32, rules: Server.Rules, answering: Server.Answering,
    admit: @escaping @Sendable (Int32) -> Bool, overloaded: @escaping @Sendable (Int32) -> Void,
    frame: @escaping @Sendable ([UInt8], Bool) -> Server.Framing,
    timedOut: @escaping @Sendable ([UInt8]) -> Request?,
    respond: @escaping @Sendable (Request, Int32) async -> Void
  ) {
    self.listenFD = listenFD
    self.wakeReadFD = wakeReadFD
    self.rules = rules
    self.answering = answering
    self.admit = admit
    self.overloaded = overloaded
    self.frame = frame
    self.timedOut = timedOut
    self.respond = respond
  }

  func run() {
    defer {
      for fd in connections.keys { close(fd) }
      close(listenFD)
      close(wakeReadFD)
    }
    while true {
      let now = Date()
      for (fd, expired) in connections where expired.deadline <= now {
        // What arrived while this thread did not run (a loaded machine, a laptop asleep)
        // arrived in time: read it before giving up on the connection.
        readFrom(fd)
        guard let connection = connections[fd] else { continue }
        if let answer = timedOut(connection.buffer) {
          dispatch(answer, on: fd)
        } else {
          drop(fd)
        }
      }
      var fds = [
        pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0),
        pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
      ]
      fds += connections.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      // A closure, not the key path `\.deadline`: a key path into this generic type is made
      // anew at each use (looked up by its mangled name), 3% of a busy agent's time.
      let nearest = connections.values.lazy.map { $0.deadline }.min()
      let timeout = nearest.map {
        max(0, min(1000, Int32(clamping: $0.timeIntervalSince(now) * 1000 + 1)))
      }
      if poll(&fds, nfds_t(fds.count), timeout ?? -1) < 0 {
        if errno == EINTR { continue }
        return
      }
      if fds[0].revents != 0 { return }
      // Connections first: one its client closed is dropped before a new one is counted
      // against `maxConnections` (a client that closes and reconnects at once is not
      // turned away for a place it gave up).
      for entry in fds.dropFirst(2) where entry.revents != 0 {
        readFrom(entry.fd)
      }
      if fds[1].revents != 0 { acceptPending() }
    }
  }

  private func acceptPending() {
    // The time after the wait, not before it: poll may have slept for minutes.
    let now = Date()
    while true {
      // Close-on-exec from the start (a child spawned meanwhile by another thread must not
      // inherit the connection) and non-blocking, in the one call.
      let fd = authtui_accept_cloexec_nonblock(listenFD)
      if fd < 0 { return }
      guard admit(fd) else {
        close(fd)
        continue
      }
      guard connections.count < rules.maxConnections else {
        overloaded(fd)
        close(fd)
        continue
      }
      connections[fd] = Connection(deadline: now.addingTimeInterval(rules.readTimeout))
      // A client mostly sends its request as soon as it has connected: read what is there
      // now rather than a poll later. A burst of callers then does not fill the places for
      // connections being read with requests that have arrived whole already.
      readFrom(fd)
    }
  }

  private func readFrom(_ fd: Int32) {
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
    guard count >= 0, var connection = connections[fd] else {
      drop(fd)
      return
    }
    connection.buffer += chunk[0..<count]
    switch frame(connection.buffer, count == 0) {
    case .waiting where count > 0:
      connections[fd] = connection
    case .waiting, .close:
      drop(fd)
    case .complete(let request):
      dispatch(request, on: fd)
    }
  }

  private func drop(_ fd: Int32) {
    connections[fd] = nil
    close(fd)
  }

  /// Gives the connection to a task that answers and closes it.
  private func dispatch(_ request: Request, on fd: Int32) {
    connections[fd] = nil
    let respond = self.respond
    let executor: any TaskExecutor =
      switch answering {
      case .eachOnItsOwnQueue: QueueTaskExecutor(label: "authtui-answer-\(fd)")
      case .allOn(let executor): executor
      }
    Task(executorPreference: executor) { await respond(request, fd) }
  }
}
