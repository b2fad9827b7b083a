#if canImport(Glibc)
  import Glibc
#endif

/// The few Unix-domain socket calls the agent and `authtui token` make: an address from a path,
/// the peer's credentials, a connect with a deadline (`timeout` in seconds), bind and listen,
/// and a wait for an answer.
public enum UnixSocket {
  /// The longest socket path Linux takes (`sun_path` is 108 bytes with the terminating NUL).
  public static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// Who is at the other end of a connected socket, as the kernel recorded it (`SO_PEERCRED`):
  /// for a server, the client that connected; for a client, the process that called `listen`.
  public struct PeerCredentials: Sendable, Equatable {
    /// The process id.
    public let pid: pid_t
    /// The user id.
    public let uid: uid_t
  }

  /// What `connect(to:timeout:)` found at the path.
  public enum Connection {
    /// Someone listens; the socket is connected (blocking, close-on-exec), the caller closes it.
    case connected(Int32)
    /// The socket file is there but nobody listens: left by a process that died.
    case nobodyListening
    /// Nothing at the path.
    case absent
    /// Anything else (`errno`).
    case failed(Int32)
  }

  /// A new stream socket, close-on-exec, or -1.
  public static func stream() -> Int32 {
    // Close-on-exec from the start: a child spawned meanwhile by another thread must not
    // inherit it.
    socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  }

  /// Two connected stream sockets, both close-on-exec, or nil (`errno` says why): a private
  /// channel to a child, which gets one end as an inherited descriptor (a dup2 clears the
  /// flag for it alone).
  public static func pair() -> (Int32, Int32)? {
    var ends: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
    else { return nil }
    return (ends[0], ends[1])
  }

  /// Runs `body` with the `sockaddr_un` of `path`; nil when the path is too long for one.
  public static func withAddress<Result>(
    _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
  ) -> Result? {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= maximumPathBytes else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: bytes)
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }

  /// The credentials of the peer of `fd`, or nil when the kernel gives none.
  public static func peer(of fd: Int32) -> PeerCredentials? {
    // `struct ucred` needs _GNU_SOURCE and does not import: it is three 32-bit words,
    // pid, uid, gid (socket(7)).
    var words: [UInt32] = [0, 0, 0]
    var length = socklen_t(MemoryLayout<UInt32>.size * words.count)
    let status = words.withUnsafeMutableBytes {
      getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length)
    }
    guard status == 0, Int(length) == MemoryLayout<UInt32>.size * 3 else { return nil }
    return PeerCredentials(pid: pid_t(bitPattern: words[0]), uid: uid_t(words[1]))
  }

  /// Connects to the socket at `path`, waiting at most `timeout` for a listener whose queue is
  /// full (Linux bounds a blocking Unix `connect` by the send timeout).
  public static func connect(to path: String, timeout: Double) -> Connection {
    let fd = stream()
    guard fd >= 0 else { return .failed(errno) }
    setTimeout(SO_SNDTIMEO, of: fd, to: timeout)
    let status = withAddress(path) { Glibc.connect(fd, $0, $1) }
    if status == 0 { return .connected(fd) }
    let code = status == nil ? ENAMETOOLONG : errno
    close(fd)
    switch code {
    case ECONNREFUSED: return .nobodyListening
    case ENOENT: return .absent
    default: return .failed(code)
    }
  }

  /// Binds `fd` to `path`: 0, or -1 with `errno` set; nil when the path is too long.
  public static func bind(_ fd: Int32, to path: String) -> Int32? {
    withAddress(path) { Glibc.bind(fd, $0, $1) }
  }

  /// Starts listening on the bound `fd`: 0, or -1 with `errno` set.
  public static func listen(_ fd: Int32, backlog: Int32 = 128) -> Int32 {
    Glibc.listen(fd, backlog)
  }

  /// Waits up to `milliseconds` until `fd` has something to read (or was closed): `poll(2)`'s
  /// answer, 1 when readable, 0 when the time passed, -1 with `errno` set.
  public static func waitUntilReadable(_ fd: Int32, milliseconds: Int32) -> Int32 {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, milliseconds)
  }

  /// Sets `SO_SNDTIMEO` or `SO_RCVTIMEO` of `fd`.
  public static func setTimeout(_ option: Int32, of fd: Int32, to seconds: Double) {
    let whole = max(0, seconds.rounded(.down))
    var value = timeval(
      tv_sec: Int(clamping: whole),
      tv_usec: Int(clamping: ((max(0, seconds) - whole) * 1_000_000).rounded()))
    _ = setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Writes all of `bytes`, retrying after interruptions; false when the peer is gone or the
  /// send timeout passed. Never raises SIGPIPE.
  public static func sendAll(_ bytes: [UInt8], to fd: Int32, flags: Int32 = 0) -> Bool {
    var remaining = bytes[...]
    while !remaining.isEmpty {
      let sent = remaining.withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | flags)
      }
      if sent < 0 && errno == EINTR { continue }
      if sent <= 0 { return false }
      remaining = remaining.dropFirst(sent)
    }
    return true
  }
}
