import Foundation
import Isolation
import Spelling

#if canImport(Glibc)
  import Glibc
#endif

/// Plain HTTP/1.1 to a loopback port over a socket of its own: what `ScriptedBrowser` uses to
/// load pages and post forms, and what tests use to be a broken, slow or hostile client.
///
/// The plain forms block the calling thread; the `async` forms run them on a thread of their
/// own, never on the cooperative pool, whose two threads the server being called needs.
public enum LoopbackHTTP {
  /// A response, split into status, headers and body.
  public struct Response: Sendable {
    /// The status code, or 0 when nothing (or no HTTP) came back.
    public let status: Int
    /// The headers, names as sent.
    public let headers: [(name: String, value: String)]
    /// The body as text.
    public let body: String

    /// Parses a whole response as `exchange` returns it.
    public init(_ text: String) {
      let parts = text.components(separatedBy: "\r\n\r\n")
      let head = parts.first ?? ""
      body = parts.dropFirst().joined(separator: "\r\n\r\n")
      let lines = head.components(separatedBy: "\r\n")
      status = LoopbackHTTP.status(of: lines.first ?? "")
      headers = lines.dropFirst().compactMap { line in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (
          String(line[..<colon]),
          line[line.index(after: colon)...].trimmingHorizontalSpace
        )
      }
    }

    /// The first header called `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
      headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
  }

  /// The status code of a response text, or 0.
  public static func status(of response: String) -> Int {
    let parts = response.split(separator: " ", maxSplits: 2)
    return parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
  }

  /// Sends one request (with `Host` and, for a body, `Content-Length`) and parses the answer.
  public static func request(
    _ method: String, _ target: String, port: UInt16, headers: [String] = [],
    body: String? = nil, timeout: TimeInterval = 10
  ) -> Response {
    var lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers
    if let body { lines.append("Content-Length: \(body.utf8.count)") }
    let bytes = Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? "")).utf8)
    return Response(exchange(port: port, bytes: bytes, timeout: timeout))
  }

  /// `request`, on a thread of its own.
  public static func request(
    _ method: String, _ target: String, port: UInt16, headers: [String] = [],
    body: String? = nil, timeout: TimeInterval = 10
  ) async -> Response {
    await onOwnThread {
      request(method, target, port: port, headers: headers, body: body, timeout: timeout)
    }
  }

  /// `exchange`, on a thread of its own.
  public static func exchange(
    port: UInt16, bytes: [UInt8], holdOpen: TimeInterval = 0, timeout: TimeInterval = 10
  ) async -> String {
    await onOwnThread { exchange(port: port, bytes: bytes, holdOpen: holdOpen, timeout: timeout) }
  }

  /// Connects to 127.0.0.1:`port`, writes `bytes`, optionally keeps the connection open for
  /// `holdOpen` seconds without sending more, then reads until the server closes or `timeout`.
  public static func exchange(
    port: UInt16, bytes: [UInt8], holdOpen: TimeInterval = 0, timeout: TimeInterval = 10
  ) -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    let connected = withLoopbackAddress(port: port) { connect(fd, $0, $1) }
    guard connected == 0 else { return "" }
    var receiveTimeout = timeval(
      tv_sec: Int(clamping: timeout),
      tv_usec: Int(clamping: (timeout - timeout.rounded(.down)) * 1_000_000))
    _ = setsockopt(
      fd, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
    if !bytes.isEmpty {
      _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
    if holdOpen > 0 { usleep(useconds_t(holdOpen * 1_000_000)) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received += buffer[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
  }
}
