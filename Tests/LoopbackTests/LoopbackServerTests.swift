import Foundation
import Isolation
import TestSupport
import Testing

@testable import Loopback

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct LoopbackServerTests {
  /// An echo server with the callback limits (and `readTimeout`, when given).
  func echoServer(readTimeout: TimeInterval? = nil) throws -> LoopbackServer {
    var configuration = LoopbackServer.Configuration.callback
    if let readTimeout { configuration.readTimeout = readTimeout }
    return try LoopbackServer(configuration: configuration) { request in
      .text("you asked for \(request.path) with code=\(request.query("code") ?? "-")", status: 200)
    }
  }

  @Test func answersARequestOnAKernelChosenPort() async throws {
    let server = try echoServer()
    defer { server.requestStop() }
    #expect(server.port != 0)
    let response = await RawHTTPClient.get("/callback?code=abc", port: server.port)
    #expect(RawHTTPClient.status(of: response) == 200)
    #expect(response.hasSuffix("you asked for /callback with code=abc"))
    #expect(response.contains("Connection: close"))
    await server.stop()
  }

  @Test func answersWhileEveryThreadOfTheCooperativePoolIsBusy() async throws {
    // On a loaded machine the pool's queue once ran thirty seconds long, and servers that
    // needed a turn there (to start their thread, to answer) answered only after their clients
    // had given up. Here every pool thread is held, blocked reading a pipe, while a server
    // starts and is asked.
    let outcome = await onOwnThread { () -> Result<(Int, String, Bool), PoolTestFailure> in
      let width = Self.poolWidth()
      guard let started = BytePipe(), let release = BytePipe(), let probe = BytePipe() else {
        return .failure(.setUp("no pipe"))
      }
      for _ in 0..<width {
        Task.detached {
          started.put()
          release.take()
        }
      }
      // However long the pool's queue is, with a bound: a pool narrower than counted would
      // otherwise hold this test, and every thread it got, for good.
      defer { for _ in 0..<width { release.put() } }
      for held in 0..<width where !started.take(within: 120) {
        return .failure(.setUp("only \(held) of \(width) pool threads started in 120 s"))
      }
      Task.detached { probe.put() }
      guard let server = try? echoServer() else { return .failure(.setUp("no server")) }
      defer { server.requestStop() }
      let response = LoopbackHTTP.request(
        "GET", "/callback?code=busy", port: server.port, timeout: 5)
      return .success((response.status, response.body, !probe.hasByte))
    }
    let (status, body, poolWasFull) = try outcome.get()
    let result = (status: status, body: body, poolWasFull: poolWasFull)
    #expect(result.poolWasFull, "a task ran while every pool thread was to be held")
    #expect(result.status == 200)
    #expect(result.body == "you asked for /callback with code=busy")
  }

  /// Why the pool test could not run.
  enum PoolTestFailure: Error {
    case setUp(String)
  }

  /// The cooperative pool's width: as libdispatch counts it, the CPUs this process may run on
  /// (`Cpus_allowed_list` in /proc/self/status, "0-1" or "0,2-3"), else the CPUs online.
  static func poolWidth() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
    let ranges = line?.dropFirst("Cpus_allowed_list:".count).split(separator: ",").map {
      $0.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
    let count = ranges?.reduce(0) { total, range in
      total + (range.count == 2 ? range[1] - range[0] + 1 : range.count)
    }
    return count.flatMap { $0 > 0 ? $0 : nil } ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  }

  @Test func answersGarbageWith400AndKeepsServing() async throws {
    let server = try echoServer()
    defer { server.requestStop() }
    let garbage = await RawHTTPClient.exchange(
      port: server.port, bytes: Array("\u{16}\u{3}\u{1}hello\r\n\r\n".utf8))
    #expect(RawHTTPClient.status(of: garbage) == 400)
    let real = await RawHTTPClient.get("/callback?code=ok", port: server.port)
    #expect(RawHTTPClient.status(of: real) == 200)
    await server.stop()
  }

  @Test func stillAnswersTheRealRequestAfterAHundredGarbageConnections() async throws {
    let server = try echoServer()
    defer { server.requestStop() }
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<100 {
        group.addTask {
          // Half send nonsense, half open a connection and send nothing at all.
          let bytes = index.isMultiple(of: 2) ? Array("NOT HTTP \(index)\r\n\r\n".utf8) : []
          _ = await RawHTTPClient.exchange(port: server.port, bytes: bytes, timeout: 0.2)
        }
      }
    }
    let real = await RawHTTPClient.get("/callback?code=real", port: server.port)
    #expect(real.hasSuffix("code=real"))
    await server.stop()
  }

  @Test func closesAConnectionThatSendsTooSlowlyWith408WhileOthersAreServed() async throws {
    let server = try echoServer(readTimeout: 0.3)
    defer { server.requestStop() }
    async let slow = RawHTTPClient.exchange(
      port: server.port, bytes: Array("GET /callback HTTP/1.1\r\n".utf8))
    let fast = await RawHTTPClient.get("/callback?code=fast", port: server.port)
    #expect(fast.hasSuffix("code=fast"))
    #expect(RawHTTPClient.status(of: await slow) == 408)
    await server.stop()
  }

  @Test func servesAClientThatArrivesAfterALongIdleWait() async throws {
    // The read deadline runs from the moment a connection is accepted, not from when the
    // server started waiting for one.
    let server = try echoServer(readTimeout: 0.3)
    defer { server.requestStop() }
    try await Task.sleep(for: .milliseconds(700))
    let response = await RawHTTPClient.get("/callback?code=late", port: server.port)
    #expect(response.hasSuffix("code=late"))
    await server.stop()
  }

  @Test func refusesConnectionsOnceStopped() async throws {
    // A marker of this server's own: a parallel test may be handed the freed port at once.
    let marker = UUID().uuidString
    let server = try LoopbackServer { _ in .text(marker, status: 200) }
    defer { server.requestStop() }
    let port = server.port
    #expect(await RawHTTPClient.get("/", port: port).contains(marker))
    await server.stop()
    #expect(await !RawHTTPClient.get("/", port: port).contains(marker))
  }

  @Test func reportsAFixedPortInUseWithTheCommandToFindTheCulprit() async throws {
    let first = try echoServer()
    defer { first.requestStop() }
    #expect(throws: LoopbackServerError.portInUse(first.port)) {
      _ = try LoopbackServer(port: first.port) { _ in .text("", status: 200) }
    }
    #expect(LoopbackServerError.portInUse(8765).description.contains("ss -ltnp 'sport = :8765'"))
    await first.stop()
  }

  @Test func closesWithoutAnAnswerWhenTheHandlerDropsTheConnection() async throws {
    let server = try LoopbackServer { _ in .droppedConnection }
    defer { server.requestStop() }
    let response = await RawHTTPClient.get("/anything", port: server.port)
    #expect(response.isEmpty)
    await server.stop()
  }

  @Test func stoppingAgainNeverWritesIntoASocketThatReusedItsDescriptors() async throws {
    let server = try echoServer()
    defer { server.requestStop() }
    await server.stop()
    // Socket pairs opened now take the descriptor numbers the stopped server gave back.
    var pairs: [[Int32]] = []
    for _ in 0..<8 {
      var fds: [Int32] = [0, 0]
      #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
      pairs.append(fds)
    }
    server.requestStop()
    await server.stop()
    var stray = 0
    for fds in pairs {
      for fd in fds {
        var byte: UInt8 = 0
        if recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) > 0 { stray += 1 }
      }
    }
    pairs.joined().forEach { close($0) }
    #expect(stray == 0)
  }

  @Test func aFixedPortComesFromOutsideTheEphemeralRangeAndCanBeListenedOn() async throws {
    let text = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
    let range = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    let port = try #require(LoopbackServer.freeFixedPort())
    #expect(range.count == 2 && !(range[0]...range[1]).contains(Int(port)))
    let fd = try LoopbackServerTests.listen(on: port)
    close(fd)
  }

  /// A socket listening on 127.0.0.1:`port`.
  static func listen(on port: UInt16) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard fd >= 0, bound == 0, Glibc.listen(fd, 1) == 0 else {
      throw POSIXError(.EADDRINUSE)
    }
    return fd
  }
}

/// A pipe that passes single bytes between threads, blocking the reader until one arrives:
/// how a test holds threads without a lock.
private final class BytePipe: Sendable {
  private let read: Int32
  private let write: Int32

  init?() {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    (read, write) = (fds[0], fds[1])
  }

  deinit {
    close(read)
    close(write)
  }

  func put() {
    var byte: UInt8 = 1
    _ = Glibc.write(write, &byte, 1)
  }

  func take() {
    var byte: UInt8 = 0
    while Glibc.read(read, &byte, 1) < 0 && errno == EINTR {}
  }

  /// `take`, waiting at most `seconds`; false when no byte came.
  func take(within seconds: Int32) -> Bool {
    var entry = pollfd(fd: read, events: Int16(POLLIN), revents: 0)
    guard poll(&entry, 1, seconds * 1000) == 1 else { return false }
    take()
    return true
  }

  /// Whether a byte is waiting, without waiting for one.
  var hasByte: Bool {
    var entry = pollfd(fd: read, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) == 1
  }
}
