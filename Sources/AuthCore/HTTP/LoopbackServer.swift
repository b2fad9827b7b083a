import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A tiny HTTP/1.1 server bound to 127.0.0.1 only: the redirect listener of a sign-in and the
/// sandbox provider both stand on it.
///
/// One dedicated thread owns the listening socket and every connection while it is being read,
/// waiting in `poll(2)`: blocking calls stay off the cooperative thread pool, and no state is
/// shared between threads, so no lock is needed. Each connection has a byte limit and a read
/// deadline; a malformed or slow request gets its 4xx and is closed without disturbing the
/// others. A complete request is handed, with its socket, to a task that runs `handler` and
/// writes the answer; every answer closes its connection.
public final class LoopbackServer: Sendable {
  /// Limits and timeouts for each connection.
  public struct Configuration: Sendable {
    /// Header and body limits.
    public var limits: HTTPRequestParser.Limits
    /// How long a client may take to send its whole request.
    public var readTimeout: TimeInterval
    /// Connections open at once; more are answered 503 and closed.
    public var maxConnections: Int

    public init(limits: HTTPRequestParser.Limits, readTimeout: TimeInterval, maxConnections: Int) {
      self.limits = limits
      self.readTimeout = readTimeout
      self.maxConnections = maxConnections
    }

    /// For a sign-in's redirect callback.
    public static let callback = Configuration(
      limits: .callback, readTimeout: 5, maxConnections: 64)
    /// For a local provider emulator.
    public static let server = Configuration(limits: .server, readTimeout: 10, maxConnections: 256)
  }

  /// The port the server listens on (the kernel's choice when 0 was asked for).
  public let port: UInt16
  /// This object's end of the wake-up socket pair. Only `deinit` closes it: were the connection
  /// thread to close it, a later `requestStop()` would write into whatever socket reused the
  /// number (a sign-in's HTTPS connection, say), corrupting that stream.
  private let wakeFD: Int32
  private let lifecycle: ServerLifecycle

  /// Binds 127.0.0.1:`port` (0 for any free port), starts serving, and returns once the socket
  /// accepts connections.
  public init(
    port: UInt16 = 0, configuration: Configuration = .server,
    handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
  ) throws(LoopbackServerError) {
    let listenFD = try Self.bind(port: port)
    // A socket pair rather than a pipe: writing to it once the thread has closed its end fails
    // with EPIPE under MSG_NOSIGNAL instead of raising SIGPIPE.
    var pipeFDs: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pipeFDs) == 0 else {
      close(listenFD)
      throw .socket("socketpair", errno)
    }
    for fd in [listenFD, pipeFDs[0], pipeFDs[1]] {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listenFD, $0, &length) }
    }
    self.port = UInt16(bigEndian: address.sin_port)
    self.wakeFD = pipeFDs[1]
    let lifecycle = ServerLifecycle()
    self.lifecycle = lifecycle
    let loop = ConnectionLoop(
      listenFD: listenFD, wakeReadFD: pipeFDs[0], configuration: configuration, handler: handler)
    let thread = Thread {
      loop.run()
      Task { await lifecycle.markStopped() }
    }
    thread.name = "authtui-loopback-\(self.port)"
    thread.start()
  }

  /// Asks the server to stop: the listening socket and the connections still being read are
  /// closed. Returns at once; `stop()` also waits for that to have happened. Safe to call any
  /// number of times, before or after the server has stopped; releasing the server stops it too.
  public func requestStop() {
    var byte: UInt8 = 1
    _ = send(wakeFD, &byte, 1, Int32(MSG_NOSIGNAL))
  }

  deinit {
    // Also wakes a thread still running: its end then reads end-of-file.
    close(wakeFD)
  }

  /// Stops the server and waits until the port is closed.
  public func stop() async {
    requestStop()
    await lifecycle.waitUntilStopped()
  }

  /// The base URL, `http://127.0.0.1:PORT`.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  private static func bind(port: UInt16) throws(LoopbackServerError) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw .socket("socket", errno) }
    // The server closes every connection first, so each one leaves a TIME_WAIT entry on this
    // port for a minute; without SO_REUSEADDR a fixed port could not be bound again until
    // then. Another socket still listening on the port is refused either way.
    var reuse: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: INADDR_LOOPBACK.bigEndian)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let code = errno
      close(fd)
      throw code == EADDRINUSE ? .portInUse(port) : .socket("bind", code)
    }
    guard listen(fd, 128) == 0 else {
      let code = errno
      close(fd)
      throw .socket("listen", code)
    }
    return fd
  }
}

/// Why the loopback server could not start.
public enum LoopbackServerError: Error, Equatable, CustomStringConvertible {
  /// Another program already listens on the fixed port the provider's registration requires.
  case portInUse(UInt16)
  /// A socket call failed; the text names it, the number is `errno`.
  case socket(String, Int32)

  public var description: String {
    switch self {
    case .portInUse(let port):
      return
        "port \(port) on 127.0.0.1 is already in use, and this provider's redirect URI needs it; "
        + "find the program with `ss -ltnp 'sport = :\(port)'`, close it, and try again"
    case .socket(let call, let code):
      return "could not open a loopback socket (\(call): \(String(cString: strerror(code))))"
    }
  }
}

/// Lets `stop()` wait for the connection thread to finish.
actor ServerLifecycle {
  private var stopped = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func markStopped() {
    stopped = true
    waiters.forEach { $0.resume() }
    waiters.removeAll()
  }

  func waitUntilStopped() async {
    if stopped { return }
    await withCheckedContinuation { waiters.append($0) }
  }
}

/// The state of the connection thread. Only that thread touches it.
private final class ConnectionLoop: @unchecked Sendable {
  // @unchecked: created on the caller's thread, then used by the one connection thread only.
  struct Connection {
    var buffer: [UInt8] = []
    let deadline: Date
  }

  let listenFD: Int32
  let wakeReadFD: Int32
  let configuration: LoopbackServer.Configuration
  let parser: HTTPRequestParser
  let handler: @Sendable (HTTPRequest) async -> HTTPResponse
  var connections: [Int32: Connection] = [:]

  init(
    listenFD: Int32, wakeReadFD: Int32, configuration: LoopbackServer.Configuration,
    handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
  ) {
    self.listenFD = listenFD
    self.wakeReadFD = wakeReadFD
    self.configuration = configuration
    self.parser = HTTPRequestParser(limits: configuration.limits)
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
      expireSlowConnections(now: now)
      var fds = [
        pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0),
        pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
      ]
      fds += connections.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let nearest = connections.values.map(\.deadline).min()
      let timeout = nearest.map { max(0, min(1000, Int32($0.timeIntervalSince(now) * 1000) + 1)) }
      let ready = poll(&fds, nfds_t(fds.count), timeout ?? 1000)
      if ready < 0 {
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
      guard connections.count < configuration.maxConnections else {
        Self.sendBestEffort(.text("too many connections\n", status: 503), to: fd)
        close(fd)
        continue
      }
      connections[fd] = Connection(deadline: now.addingTimeInterval(configuration.readTimeout))
    }
  }

  private func readFrom(_ fd: Int32) {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    let count = recv(fd, &chunk, chunk.count, 0)
    if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
    guard count > 0, var connection = connections[fd] else {
      connections[fd] = nil
      close(fd)
      return
    }
    connection.buffer += chunk[0..<count]
    switch parser.parse(connection.buffer) {
    case .incomplete:
      connections[fd] = connection
    case .invalid(let status, let reason):
      connections[fd] = nil
      Self.sendBestEffort(.text(reason + "\n", status: status), to: fd)
      close(fd)
    case .complete(let request, _):
      connections[fd] = nil
      let handler = self.handler
      // High priority: answering a waiting client is latency-bound work, and on the two-thread
      // cooperative pool a request queued behind long-running jobs (a test suite's bodies, a
      // UI's background work) could otherwise wait until its client gives up.
      Task.detached(priority: .high) {
        let response = await handler(request)
        Self.respond(response, on: fd)
      }
    }
  }

  private func expireSlowConnections(now: Date) {
    for (fd, connection) in connections where connection.deadline <= now {
      connections[fd] = nil
      Self.sendBestEffort(.text("request not received in time\n", status: 408), to: fd)
      close(fd)
    }
  }

  /// Writes what fits without blocking: used for error answers on the connection thread.
  private static func sendBestEffort(_ response: HTTPResponse, to fd: Int32) {
    let bytes = response.serialized()
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Writes a whole answer and closes the socket; runs in the handler's task. The socket is
  /// made blocking with a send timeout, so a client that stops reading cannot hold the task.
  static func respond(_ response: HTTPResponse, on fd: Int32) {
    defer { close(fd) }
    if response.dropsConnection { return }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var remaining = response.serialized()[...]
    while !remaining.isEmpty {
      let sent = remaining.withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 && errno == EINTR { continue }
      if sent <= 0 { return }
      remaining = remaining.dropFirst(sent)
    }
    // Half-close and let the client read everything before the socket goes away.
    shutdown(fd, Int32(SHUT_WR))
  }
}
