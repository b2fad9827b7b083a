import Foundation
import TestSupport
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui agent` started from the built binary for a `CLIHarness` workspace, listening on the
/// workspace's own socket.
struct AgentProcess {
  let child: RunningChild
  /// The line it printed once listening (nil when it stopped first).
  let firstLine: String?

  /// Starts `authtui agent ARGUMENTS…` with the harness environment plus `changes`, and waits
  /// until it says it listens.
  static func start(
    _ cli: CLIHarness, _ arguments: [String] = [], _ changes: [String: String?] = [:],
    launcher: [String] = []
  ) async throws -> AgentProcess {
    var environment = cli.environment
    for (name, value) in changes { environment[name] = value }
    let command = launcher + [Products.authtui, "agent"] + arguments
    let child = try RunningChild(
      command[0], Array(command.dropFirst()), environment: environment)
    return AgentProcess(child: child, firstLine: await child.nextLine(timeout: 30))
  }

  /// Sends `signal`, waits for the exit, and returns the status and everything the agent wrote
  /// after its first line (standard output, then standard error).
  func stop(_ signal: Int32 = SIGTERM) async -> (status: Int32, output: String) {
    await child.kill(signal)
    return await finish()
  }

  /// Waits for the agent to stop by itself.
  func finish(timeout: TimeInterval = 30) async -> (status: Int32, output: String) {
    let status = await child.wait(timeout: timeout)
    let rest = await child.bufferedLines().joined(separator: "\n")
    return (status, rest + "\n" + (await child.standardError()))
  }
}

/// A raw client of the agent's socket, for requests `authtui token` never sends.
enum AgentWire {
  /// Connects to the socket at `path`, writes `bytes`, and reads until the agent closes the
  /// connection; nil when nothing answers there.
  static func exchange(_ path: String, _ bytes: [UInt8]) async -> String? {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: exchangeBlocking(path, bytes)) }.start()
    }
  }

  /// One request line, and the answer parsed as a JSON object.
  static func ask(_ path: String, _ request: String) async -> [String: Any]? {
    guard let answer = await exchange(path, Array((request + "\n").utf8)) else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(answer.utf8))) as? [String: Any]
  }

  private static func exchangeBlocking(_ path: String, _ bytes: [UInt8]) -> String? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard withSocketAddress(path, { connect(fd, $0, $1) }) == 0 else { return nil }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    shutdown(fd, Int32(SHUT_WR))
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(fd, &chunk, chunk.count, 0)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      answer += chunk[0..<count]
    }
    return String(decoding: answer, as: UTF8.self)
  }
}

/// Connections to the agent that send nothing, each holding one of its places for connections
/// being read (`AgentListener.maximumConnections`) until its read timeout (5 s) answers it.
struct HeldConnections {
  let fds: [Int32]

  /// Makes `count` connections to the socket at `path`, one after another; `blocking: false`
  /// stops at the first that would wait (the queue of new connections is full) instead.
  static func make(to path: String, count: Int, blocking: Bool = true) async -> HeldConnections {
    await withCheckedContinuation { continuation in
      Thread {
        var fds: [Int32] = []
        for _ in 0..<count {
          let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
          if !blocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
          guard withSocketAddress(path, { connect(fd, $0, $1) }) == 0 else {
            Glibc.close(fd)
            break
          }
          fds.append(fd)
        }
        continuation.resume(returning: HeldConnections(fds: fds))
      }.start()
    }
  }

  /// True while the agent has answered none of them: it still counts them all as being read.
  var allUnanswered: Bool {
    var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    return poll(&entries, nfds_t(entries.count), 0) == 0
  }

  func close() {
    for fd in fds { Glibc.close(fd) }
  }
}

/// Leaves a socket file nobody listens on at `path`, in a new 0700 folder: what an agent killed
/// with SIGKILL leaves behind.
func leaveStaleSocket(at path: String) throws {
  let folder = (path as NSString).deletingLastPathComponent
  guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { throw WorkspaceError("mkdir") }
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  guard withSocketAddress(path, { bind(fd, $0, $1) }) == 0 else {
    throw WorkspaceError("cannot bind \(path)")
  }
}

/// Runs `body` with the Unix socket address of `path`.
private func withSocketAddress(
  _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
)
  -> Int32
{
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
}

extension CLIHarness {
  /// The vault's path with links resolved, as the agent and `token` name it.
  func canonicalVaultPath() throws -> String {
    guard let resolved = realpath(workspace.vaultPath, nil) else {
      throw WorkspaceError("no vault at \(workspace.vaultPath)")
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The access token the vault holds for `provider/label`.
  func storedToken(_ provider: String, _ label: String) async throws -> String? {
    try await storedTokens(provider, label)?.accessToken
  }

  /// The tokens the vault holds for `provider/label`.
  func storedTokens(_ provider: String, _ label: String) async throws -> TokenSet? {
    try await workspace.withVault { vault in
      try await vault.account(providerID: provider, label: label)?.tokens
    }
  }
}

/// The type and permission bits of the file at `path` (not following a link), or nil.
func fileMode(_ path: String) -> mode_t? {
  var info = stat()
  return lstat(path, &info) == 0 ? info.st_mode : nil
}

/// A stand-in agent: a socket that answers one connection with a given line, so a test can see
/// exactly what `authtui token` sends and how it takes an answer.
struct FakeAgent {
  let fd: Int32

  /// Listens at `path`, in a new 0700 folder as the real agent's.
  init(at path: String) throws {
    let folder = (path as NSString).deletingLastPathComponent
    guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { throw WorkspaceError("mkdir") }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    self.fd = fd
    guard withSocketAddress(path, { bind(fd, $0, $1) }) == 0, listen(fd, 8) == 0 else {
      throw WorkspaceError("cannot listen at \(path)")
    }
  }

  /// Accepts one connection, reads its request line, answers `answer` (a line, or nothing when
  /// nil), and returns the request; the socket is closed afterwards.
  func answerOne(with answer: String?) async -> String {
    let fd = self.fd
    return await withCheckedContinuation { continuation in
      Thread {
        defer { close(fd) }
        let connection = accept(fd, nil, nil)
        var request: [UInt8] = []
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) == 1, byte != UInt8(ascii: "\n") {
          request.append(byte)
        }
        if let answer {
          _ = Array((answer + "\n").utf8).withUnsafeBytes {
            send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
        }
        close(connection)
        continuation.resume(returning: String(decoding: request, as: UTF8.self))
      }.start()
    }
  }

  /// The line that ends `answerEach`.
  static let stopLine = "stop"

  /// Answers every connection with `answer` until one sends `stopLine` (`AgentWire.exchange`),
  /// and returns the request lines before it, in order; the socket is closed afterwards.
  func answerEach(with answer: String) async -> [String] {
    let fd = self.fd
    return await withCheckedContinuation { continuation in
      Thread {
        defer { close(fd) }
        var requests: [String] = []
        while true {
          let connection = accept(fd, nil, nil)
          guard connection >= 0 else {
            if errno == EINTR { continue }
            break
          }
          var request: [UInt8] = []
          var byte: UInt8 = 0
          while recv(connection, &byte, 1, 0) == 1, byte != UInt8(ascii: "\n") {
            request.append(byte)
          }
          let line = String(decoding: request, as: UTF8.self)
          guard line != Self.stopLine else {
            close(connection)
            break
          }
          requests.append(line)
          _ = Array((answer + "\n").utf8).withUnsafeBytes {
            send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
          close(connection)
        }
        continuation.resume(returning: requests)
      }.start()
    }
  }

  /// Ends `answerEach` at `path` and waits for its requests.
  static func stop(_ path: String, _ requests: Task<[String], Never>) async -> [String] {
    _ = await AgentWire.exchange(path, Array((stopLine + "\n").utf8))
    return await requests.value
  }
}
