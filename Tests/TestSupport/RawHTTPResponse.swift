import Foundation

/// A response read by `RawHTTPClient`, split into status, headers and body.
public struct RawHTTPResponse: Sendable {
  /// The status code, or 0 when nothing (or no HTTP) came back.
  public let status: Int
  /// The headers, names as sent.
  public let headers: [(name: String, value: String)]
  /// The body as text.
  public let body: String

  /// Parses a whole response text as `RawHTTPClient.exchange` returns it.
  public init(_ text: String) {
    let parts = text.components(separatedBy: "\r\n\r\n")
    let head = parts.first ?? ""
    body = parts.dropFirst().joined(separator: "\r\n\r\n")
    let lines = head.components(separatedBy: "\r\n")
    status = RawHTTPClient.status(of: lines.first ?? "")
    headers = lines.dropFirst().compactMap { line in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (
        String(line[..<colon]),
        String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      )
    }
  }

  /// The first header called `name`, compared case-insensitively.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The body parsed as a JSON object, or nil.
  public var json: [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
  }
}

extension RawHTTPClient {
  /// Sends one request with an optional body and returns the parsed response.
  public static func request(
    _ method: String, _ target: String, port: UInt16, headers: [String] = [],
    body: String? = nil, timeout: TimeInterval = 10
  ) async -> RawHTTPResponse {
    let bytes = requestBytes(method, target, port: port, headers: headers, body: body)
    return RawHTTPResponse(await exchange(port: port, bytes: bytes, timeout: timeout))
  }

  /// The same, blocking the calling thread (for code that runs on a thread of its own).
  static func requestBlocking(
    _ method: String, _ target: String, port: UInt16, headers: [String], body: String?,
    timeout: TimeInterval
  ) -> RawHTTPResponse {
    let bytes = requestBytes(method, target, port: port, headers: headers, body: body)
    return RawHTTPResponse(
      exchangeBlocking(port: port, bytes: bytes, holdOpen: 0, timeout: timeout))
  }

  private static func requestBytes(
    _ method: String, _ target: String, port: UInt16, headers: [String], body: String?
  ) -> [UInt8] {
    var lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers
    if let body { lines.append("Content-Length: \(body.utf8.count)") }
    return Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? "")).utf8)
  }
}
