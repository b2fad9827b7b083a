import AuthCore
import Foundation
import JSON
import Loopback
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real URLSession transport against a real loopback server.
@Suite struct URLSessionTransportTests {
  func serve(_ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) throws
    -> LoopbackServer
  {
    try LoopbackServer(configuration: .server, handler: handler)
  }

  func url(_ server: LoopbackServer, _ path: String) throws -> URL {
    try #require(URL(string: server.baseURL + path))
  }

  @Test func sendsTheBodyAndIdentifiesItselfAsAuthtui() async throws {
    let server = try serve { request in
      .json(
        #"{"ua":"\#(request.header("User-Agent") ?? "")","body":"\#(String(decoding: request.body, as: UTF8.self))"}"#
      )
    }
    let response = try await URLSessionTransport().send(
      TransportRequest(
        method: .post, url: url(server, "/token"),
        headers: [Header("Content-Type", "application/x-www-form-urlencoded")],
        body: Data("a=1&b=%2B".utf8)))
    #expect(response.status == 200)
    #expect(response.headers["content-type"] == "application/json")
    let json = try #require(JSONValue.object(from: response.body))
    #expect(json["ua"] == .string("authtui/\(AuthTUIVersion.current)"))
    #expect(json["body"] == .string("a=1&b=%2B"))
    await server.stop()
  }

  @Test func sendsTheProvidersOwnUserAgentWhenTheRequestNamesOne() async throws {
    let server = try serve { request in .text(request.header("User-Agent") ?? "", status: 200) }
    let response = try await URLSessionTransport().send(
      TransportRequest(
        method: .get, url: url(server, "/"), headers: [Header("User-Agent", "app/2.0")]))
    #expect(String(decoding: response.body, as: UTF8.self) == "app/2.0")
    await server.stop()
  }

  @Test func returnsARedirectInsteadOfFollowingIt() async throws {
    let server = try serve { request in
      request.path == "/token" ? .redirect(to: "/elsewhere") : .json(#"{"followed":true}"#)
    }
    let response = try await URLSessionTransport().send(
      TransportRequest(method: .post, url: url(server, "/token"), body: Data("code=c".utf8)))
    #expect(response.status == 302)
    #expect(response.headers["location"] == "/elsewhere")
    await server.stop()
  }

  @Test func stopsReadingAtTheSizeCap() async throws {
    let server = try serve { _ in .text(String(repeating: "x", count: 100_000), status: 200) }
    await #expect(throws: TransportError.responseTooLarge(limit: 4096)) {
      _ = try await URLSessionTransport(maxResponseBytes: 4096).send(
        TransportRequest(method: .get, url: url(server, "/big")))
    }
    await server.stop()
  }

  /// `{"issuer":"x"}`, gzip-compressed.
  static let gzippedJSON = [UInt8](
    Data(base64Encoded: "H4sIAAAAAAACA6tWyiwuLk0tUrJSqlCqBQCAq2lJDgAAAA==") ?? Data())

  /// libcurl decodes a compressed body on URLSession's own queue, before the size cap can see
  /// it (a 400 KB gzip answer grew to gigabytes): authtui asks for none. An answer compressed
  /// all the same is read as before: refusing it would not undo the decoding, and would lose
  /// a refresh answer the provider has already issued.
  @Test func asksForNoCompressionAndStillReadsAnAnswerCompressedAllTheSame() async throws {
    let (asked, record) = AsyncStream<String>.makeStream()
    let server = try serve { request in
      record.yield(request.header("Accept-Encoding") ?? "(none)")
      return HTTPResponse(
        status: 200,
        headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
        body: Self.gzippedJSON)
    }
    let response = try await URLSessionTransport().send(
      TransportRequest(method: .get, url: url(server, "/.well-known/openid-configuration")))
    #expect(String(decoding: response.body, as: UTF8.self) == #"{"issuer":"x"}"#)
    record.finish()
    var seen: [String] = []
    for await value in asked { seen.append(value) }
    #expect(seen == ["identity"])
    await server.stop()
  }

  @Test func givesUpAtTheRequestsDeadline() async throws {
    // The answer is held until the client has given up, however late its timer fires on a
    // busy machine (a three-second sleep here once raced a timer that fired late).
    let (held, release) = AsyncStream<Void>.makeStream()
    let server = try serve { _ in
      for await _ in held {}
      return .json("{}")
    }
    await #expect(throws: TransportError.timedOut(seconds: 0.3)) {
      _ = try await URLSessionTransport().send(
        TransportRequest(method: .get, url: url(server, "/slow"), timeout: 0.3))
    }
    release.finish()
    await server.stop()
  }

  @Test func reportsADroppedConnectionByHostOnly() async throws {
    let server = try serve { _ in .droppedConnection }
    let error = await #expect(throws: TransportError.self) {
      _ = try await URLSessionTransport().send(
        TransportRequest(
          method: .post, url: url(server, "/token?code=secret-code"),
          body: Data("code=secret-code".utf8)))
    }
    #expect(error == .connectionLost(host: "127.0.0.1:\(server.port)"))
    #expect(error.map { !"\($0)".contains("secret-code") } == true)
    await server.stop()
  }

  @Test func reportsARefusedConnection() async throws {
    // A socket bound but not listening holds the port, so no parallel test can take it, and
    // connections to it are refused.
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr = in_addr(s_addr: INADDR_LOOPBACK.bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    try #require(bound)
    let port = UInt16(bigEndian: address.sin_port)
    // Named with its port: the host alone does not say which of its servers is down.
    await #expect(throws: TransportError.cannotConnect(host: "127.0.0.1:\(port)")) {
      _ = try await URLSessionTransport().send(
        TransportRequest(method: .get, url: try #require(URL(string: "http://127.0.0.1:\(port)/"))))
    }
  }

  @Test func cancellingTheTaskCancelsTheRequest() async throws {
    // The request is cancelled once it has reached the server (not after a guess at how long
    // that takes), and the server holds its answer until the test is done, so the cancel
    // cannot lose a race against it.
    let (arrived, announce) = AsyncStream<Void>.makeStream()
    let (held, release) = AsyncStream<Void>.makeStream()
    let server = try serve { _ in
      announce.yield()
      for await _ in held {}
      return .json("{}")
    }
    let target = try url(server, "/slow")
    let request = Task {
      try await URLSessionTransport().send(TransportRequest(method: .get, url: target))
    }
    var arrivals = arrived.makeAsyncIterator()
    _ = await arrivals.next()
    request.cancel()
    await #expect(throws: TransportError.cancelled) { _ = try await request.value }
    release.finish()
    await server.stop()
  }
}
