import Foundation
import Sandbox

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
    let parsed = LoopbackHTTP.Response(text)
    status = parsed.status
    headers = parsed.headers
    body = parsed.body
  }

  init(status: Int, headers: [(name: String, value: String)], body: String) {
    self.status = status
    self.headers = headers
    self.body = body
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
    body: String? = nil, timeout: TimeInterval = defaultTimeout
  ) async -> RawHTTPResponse {
    await withCheckedContinuation { continuation in
      Thread {
        let response = LoopbackHTTP.request(
          method, target, port: port, headers: headers, body: body, timeout: timeout)
        continuation.resume(
          returning: RawHTTPResponse(
            status: response.status, headers: response.headers, body: response.body))
      }.start()
    }
  }
}
