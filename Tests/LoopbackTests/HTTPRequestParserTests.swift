import Testing

@testable import Loopback

@Suite struct HTTPRequestParserTests {
  let parser = HTTPRequestParser(limits: .init(maxHeaderBytes: 256, maxBodyBytes: 32))

  func parse(_ text: String) -> HTTPRequestParser.Outcome {
    parser.parse(Array(text.utf8))
  }

  @Test func parsesAGetWithAQueryAndHeaders() throws {
    let text =
      "GET /callback?code=a%2Bb&state=x+y HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Test:  v \r\n\r\n"
    guard case .complete(let request, let consumed) = parse(text + "next request") else {
      Issue.record("expected a complete request")
      return
    }
    #expect(request.method == "GET")
    #expect(request.path == "/callback")
    #expect(request.query("code") == "a+b")
    #expect(request.query("state") == "x y")
    #expect(request.header("x-test") == "v")
    #expect(consumed == text.utf8.count)
  }

  @Test func waitsForTheRestOfTheHeadersAndTheBody() {
    guard case .incomplete = parse("GET / HTTP/1.1\r\nHost: x\r\n") else {
      Issue.record("headers without their blank line are incomplete")
      return
    }
    guard case .incomplete = parse("POST /t HTTP/1.1\r\nContent-Length: 5\r\n\r\nab") else {
      Issue.record("a body shorter than Content-Length is incomplete")
      return
    }
  }

  @Test func readsAFormBody() {
    guard
      case .complete(let request, _) = parse(
        "POST /t HTTP/1.1\r\nContent-Length: 11\r\n\r\na=1&b=x%20y")
    else {
      Issue.record("expected a complete request")
      return
    }
    #expect(request.formParameters.map(\.value) == ["1", "x y"])
  }

  @Test(arguments: [
    ("garbage\r\n\r\n", 400), ("GET http://evil/ HTTP/1.1\r\n\r\n", 400),
    ("GET / HTTP/2\r\n\r\n", 400), ("GET /  HTTP/1.1\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nBad Header\r\n\r\n", 400), ("GET / HTTP/1.1\r\nA: b\nC: d\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
    ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nContent-Length: 33\r\n\r\n", 413),
  ])
  func refusesMalformedRequestsWithTheRightStatus(text: String, status: Int) {
    guard case .invalid(let actual, _) = parse(text) else {
      Issue.record("\(text.debugDescription) was accepted")
      return
    }
    #expect(actual == status)
  }

  @Test func refusesHeadersBeyondTheLimitBeforeTheyEnd() {
    guard
      case .invalid(let status, _) = parse(
        "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 300))
    else {
      Issue.record("an endless header was not refused")
      return
    }
    #expect(status == 431)
  }

  @Test func keepsQueriesAndBodiesOutOfTheDescription() {
    let request = HTTPRequest(
      method: "GET", target: "/callback?code=SECRET", body: Array("t=SECRET".utf8))
    #expect("\(request)" == "GET /callback")
  }

  @Test func escapesEverythingButUnreservedCharacters() {
    #expect(FormEncoding.escape("a+b/c=d e~_.-é") == "a%2Bb%2Fc%3Dd%20e~_.-%C3%A9")
    #expect(FormEncoding.unescape(FormEncoding.escape("a+b/c=d e~_.-é")) == "a+b/c=d e~_.-é")
    #expect(
      FormEncoding.encode([("scope", "openid profile"), ("x", "+")])
        == "scope=openid%20profile&x=%2B")
  }
}
