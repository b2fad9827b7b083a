import Foundation
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
    // had given up. The probe holds every thread of its own pool while a server starts and is
    // asked: in a process of its own, as holding this process's pool would stall every test.
    let result = try await ChildProcess.run(
      Products.path("LoopbackPoolProbe"), [], environment: nil, timeout: 120)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout == "status=200 full=true body=you asked for /busy\n")
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

  @Test func aThreadThatCouldNotBeStartedIsNamedAsSuch() {
    #expect(
      LoopbackServerError.socket("pthread_create", EAGAIN).description
        == "could not start the loopback listener's thread (pthread_create: Resource "
        + "temporarily unavailable); the process is at its thread limit: close other programs "
        + "and try again")
    #expect(
      LoopbackServerError.socket("bind", EACCES).description
        == "could not open a loopback socket (bind: Permission denied)")
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
