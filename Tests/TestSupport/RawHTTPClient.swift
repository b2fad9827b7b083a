import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Sends raw bytes to a loopback port and reads whatever comes back, for tests that need to be
/// a broken, slow or hostile client (or a browser following a redirect by hand).
public enum RawHTTPClient {
  /// Connects to 127.0.0.1:`port`, writes `bytes`, optionally keeps the connection open for
  /// `holdOpen` seconds without sending more, then reads until the server closes or `timeout`.
  public static func exchange(
    port: UInt16, bytes: [UInt8], holdOpen: TimeInterval = 0, timeout: TimeInterval = 10
  ) async -> String {
    await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(
          returning: exchangeBlocking(
            port: port, bytes: bytes, holdOpen: holdOpen, timeout: timeout))
      }.start()
    }
  }

  /// Sends a `GET target` request and returns the whole response text.
  public static func get(_ target: String, port: UInt16, headers: [String] = []) async -> String {
    let head = (["GET \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers + ["", ""])
      .joined(separator: "\r\n")
    return await exchange(port: port, bytes: Array(head.utf8))
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
    let parts = response.split(separator: " ", maxSplits: 2)
    return parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
  }

  static func exchangeBlocking(
    port: UInt16, bytes: [UInt8], holdOpen: TimeInterval, timeout: TimeInterval
  ) -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: INADDR_LOOPBACK.bigEndian)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return "" }
    var receiveTimeout = timeval(
      tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
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
