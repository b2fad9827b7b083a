import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A tiny HTTP/1.1 server bound to 127.0.0.1 only: the redirect listener of a sign-in and the
/// sandbox provider both stand on it.
///
/// It stands on `SocketRequestServer` (one thread reading every connection, answers in tasks
/// that never wait for the cooperative pool): each connection has a byte limit and a read
/// deadline; a malformed or slow request gets its 4xx and is closed without disturbing the
/// others. A complete request is
/// handed, with its socket, to a task that runs `handler` and writes the answer; every answer
/// closes its connection.
public final class LoopbackServer: Sendable {
  /// Limits and timeouts for each connection.
  public struct Configuration: Sendable {
    /// Header and body limits.
    public var limits: HTTPRequestParser.Limits
    /// How long a client may take to send its whole request.
    public var readTimeout: TimeInterval
    /// Connections open at once; more are answered 503 and closed.
    public var maxConnections: Int
    /// True: a connection from another user of the machine is closed unanswered
    /// (`LoopbackPeer`).
    public var ownUserOnly: Bool

    public init(
      limits: HTTPRequestParser.Limits, readTimeout: TimeInterval, maxConnections: Int,
      ownUserOnly: Bool = false
    ) {
      self.limits = limits
      self.readTimeout = readTimeout
      self.maxConnections = maxConnections
      self.ownUserOnly = ownUserOnly
    }

    /// For a sign-in's redirect callback, and its one-time addresses: this user's only.
    public static let callback = Configuration(
      limits: .callback, readTimeout: 5, maxConnections: 64, ownUserOnly: true)
    /// For a local provider emulator.
    public static let server = Configuration(limits: .server, readTimeout: 10, maxConnections: 256)
  }

  /// The port the server listens on (the kernel's choice when 0 was asked for).
  public let port: UInt16
  private let server: SocketRequestServer<Exchange>

  /// What the connection thread hands a task: a request to answer with `handler`, or the
  /// answer to a request that could not be read (malformed, too big, too slow).
  enum Exchange: Sendable {
    case request(HTTPRequest)
    case refusal(HTTPResponse)
  }

  /// Binds 127.0.0.1:`port` (0 for any free port), starts serving, and returns once the socket
  /// accepts connections. `answered` hears of each request and its answer once it has been written
  /// (and its connection closed): for an owner that stops, or exits, on a request and must
  /// not cut its answer off.
  public init(
    port: UInt16 = 0, configuration: Configuration = .server,
    handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse,
    answered: (@Sendable (HTTPRequest, HTTPResponse) -> Void)? = nil
  ) throws(LoopbackServerError) {
    let listenFD = try Self.bind(port: port)
    let boundPort = Self.boundPort(of: listenFD)
    self.port = boundPort
    let parser = HTTPRequestParser(limits: configuration.limits)
    let ownUserOnly = configuration.ownUserOnly
    do {
      server = try SocketRequestServer(
        listening: listenFD,
        rules: .init(
          readTimeout: configuration.readTimeout, maxConnections: configuration.maxConnections),
        threadName: "authtui-loopback-\(boundPort)",
        admit: { fd in !ownUserOnly || LoopbackPeer.isOwnUser(fd) },
        overloaded: { fd in
          Self.sendBestEffort(.text("too many connections\n", status: 503), to: fd)
        },
        frame: { received, ended in
          switch parser.parse(received) {
          case .incomplete: return ended ? .close : .waiting
          case .invalid(let status, let reason):
            return .complete(.refusal(.text(reason + "\n", status: status)))
          case .complete(let request, _): return .complete(.request(request))
          }
        },
        timedOut: { _ in .refusal(.text("request not received in time\n", status: 408)) },
        respond: { exchange, fd in
          switch exchange {
          case .request(let request):
            let answer = await handler(request)
            Self.respond(answer, on: fd)
            answered?(request, answer)
          case .refusal(let answer): Self.respond(answer, on: fd)
          }
        })
    } catch {
      throw .socket(error.call, error.code)
    }
  }

  /// Asks the server to stop: the listening socket and the connections still being read are
  /// closed. Returns at once; `stop()` also waits for that to have happened. Safe to call any
  /// number of times, before or after the server has stopped; releasing the server stops it too.
  public func requestStop() {
    server.requestStop()
  }

  /// Stops the server and waits until the port is closed.
  public func stop() async {
    await server.stop()
  }

  /// The base URL, `http://127.0.0.1:PORT`.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// A loopback port nothing listens on now (bound to 0, read back, released); nil when no
  /// socket could be opened.
  public static func freePort() -> UInt16? {
    guard let fd = try? bind(port: 0) else { return nil }
    defer { close(fd) }
    return boundPort(of: fd)
  }

  /// A loopback port nothing listens on now, for a port that is chosen first and listened on
  /// later (a fixed redirect port registered before its listener starts). It is taken from
  /// outside the kernel's ephemeral range (`ip_local_port_range`), so no socket bound to port
  /// 0 and no outgoing connection's source port can be given it in between, as one from
  /// `freePort` can. Falls back to `freePort` when no such port is free.
  public static func freeFixedPort() -> UInt16? {
    let (low, high) = ephemeralRange()
    let candidates: ClosedRange<Int> =
      low > 10_000 ? 10_000...(low - 1) : (high + 1)...min(65_535, high + 20_000)
    guard candidates.lowerBound <= candidates.upperBound else { return freePort() }
    for _ in 0..<64 {
      let port = UInt16(Int.random(in: candidates))
      if let fd = try? bind(port: port) {
        close(fd)
        return port
      }
    }
    return freePort()
  }

  /// The kernel's ephemeral port range (Linux's default when it cannot be read).
  private static func ephemeralRange() -> (low: Int, high: Int) {
    let text =
      (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
    let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard numbers.count == 2, numbers[0] <= numbers[1] else { return (32_768, 60_999) }
    return (numbers[0], numbers[1])
  }

  /// The port a bound socket got.
  private static func boundPort(of fd: Int32) -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }

  private static func bind(port: UInt16) throws(LoopbackServerError) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw .socket("socket", errno) }
    // The server closes every connection first, so each one leaves a TIME_WAIT entry on this
    // port for a minute; without SO_REUSEADDR a fixed port could not be bound again until
    // then. Another socket still listening on the port is refused either way.
    var reuse: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    let bound = withLoopbackAddress(port: port) { Glibc.bind(fd, $0, $1) }
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
    case .socket("pthread_create", let code):
      return "could not start the loopback listener's thread (pthread_create: "
        + "\(String(cString: strerror(code)))); the process is at its thread limit: close "
        + "other programs and try again"
    case .socket(let call, let code):
      return "could not open a loopback socket (\(call): \(String(cString: strerror(code))))"
    }
  }
}

extension LoopbackServer {
  /// Writes what fits without blocking: the word to a connection turned away.
  static func sendBestEffort(_ response: HTTPResponse, to fd: Int32) {
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

/// Runs `body` with the address 127.0.0.1:`port` and its length.
func withLoopbackAddress<Result>(
  port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
) -> Result {
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = port.bigEndian
  address.sin_addr = in_addr(s_addr: INADDR_LOOPBACK.bigEndian)
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
}
