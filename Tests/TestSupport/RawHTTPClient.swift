import Foundation
import Loopback

/// Sends raw bytes to a loopback port and reads whatever comes back, for tests that need to be
/// a broken, slow or hostile client (or a browser following a redirect by hand). The client is
/// `Loopback.LoopbackHTTP` (its `async` forms, each on a thread of its own); this adds the
/// requests tests send most and a timeout that suits a test.
public enum RawHTTPClient {
  /// How long a request waits for its answer unless told otherwise. It only matters when a
  /// server never answers (a test failure), so it is generous: under load (two cores, a
  /// dozen builds) a server's answering task can wait well over ten seconds for the
  /// two-thread cooperative pool, behind every other test's work.
  public static let defaultTimeout: TimeInterval = 60

  /// Connects to 127.0.0.1:`port`, writes `bytes`, optionally keeps the connection open for
  /// `holdOpen` seconds without sending more, then reads until the server closes or `timeout`.
  public static func exchange(
    port: UInt16, bytes: [UInt8], holdOpen: TimeInterval = 0,
    timeout: TimeInterval = defaultTimeout
  ) async -> String {
    await LoopbackHTTP.exchange(port: port, bytes: bytes, holdOpen: holdOpen, timeout: timeout)
  }

  /// Sends a `GET target` request and returns the whole response text.
  public static func get(
    _ target: String, port: UInt16, headers: [String] = [],
    timeout: TimeInterval = defaultTimeout
  ) async -> String {
    let head = (["GET \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers + ["", ""])
      .joined(separator: "\r\n")
    return await exchange(port: port, bytes: Array(head.utf8), timeout: timeout)
  }

  /// Sends a `POST target` with a form body and returns the whole response text.
  public static func postForm(_ target: String, port: UInt16, body: String) async -> String {
    let head = [
      "POST \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)",
      "Content-Type: application/x-www-form-urlencoded", "Content-Length: \(body.utf8.count)", "",
      "",
    ].joined(separator: "\r\n")
    return await exchange(port: port, bytes: Array((head + body).utf8))
  }

  /// The status code of a response text, or 0.
  public static func status(of response: String) -> Int {
    LoopbackHTTP.status(of: response)
  }

  /// Sends one request with an optional body and returns the parsed response.
  public static func request(
    _ method: String, _ target: String, port: UInt16, headers: [String] = [],
    body: String? = nil, timeout: TimeInterval = defaultTimeout
  ) async -> RawHTTPResponse {
    await LoopbackHTTP.request(
      method, target, port: port, headers: headers, body: body, timeout: timeout)
  }
}
