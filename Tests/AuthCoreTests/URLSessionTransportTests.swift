import AuthCore
import Foundation
import TestSupport
import Testing

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
    let json = try #require(JSONWireValue.object(from: response.body))
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

  @Test func givesUpAtTheRequestsDeadline() async throws {
    let server = try serve { _ in
      try? await Task.sleep(nanoseconds: 3_000_000_000)
      return .json("{}")
    }
    await #expect(throws: TransportError.timedOut(seconds: 0.3)) {
      _ = try await URLSessionTransport().send(
        TransportRequest(method: .get, url: url(server, "/slow"), timeout: 0.3))
    }
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
    #expect(error == .connectionLost(host: "127.0.0.1"))
    #expect(error.map { !"\($0)".contains("secret-code") } == true)
    await server.stop()
  }

  @Test func reportsARefusedConnection() async throws {
    let server = try serve { _ in .json("{}") }
    let port = server.port
    await server.stop()
    await #expect(throws: TransportError.cannotConnect(host: "127.0.0.1")) {
      _ = try await URLSessionTransport().send(
        TransportRequest(method: .get, url: try #require(URL(string: "http://127.0.0.1:\(port)/"))))
    }
  }

  @Test func cancellingTheTaskCancelsTheRequest() async throws {
    let server = try serve { _ in
      try? await Task.sleep(nanoseconds: 5_000_000_000)
      return .json("{}")
    }
    let target = try url(server, "/slow")
    let request = Task {
      try await URLSessionTransport().send(TransportRequest(method: .get, url: target))
    }
    try await Task.sleep(nanoseconds: 100_000_000)
    request.cancel()
    await #expect(throws: TransportError.cancelled) { _ = try await request.value }
    await server.stop()
  }
}
