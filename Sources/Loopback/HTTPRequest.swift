/// One HTTP/1.1 request as the loopback server received it (RFC 9112 §3).
public struct HTTPRequest: Sendable {
  /// The method token, as sent (`GET`, `POST`).
  public let method: String
  /// The request-target exactly as sent (`/callback?code=…&state=…`).
  public let target: String
  /// The headers, in order, names as sent.
  public let headers: [(name: String, value: String)]
  /// The body (empty without `Content-Length`).
  public let body: [UInt8]

  /// Assembles a request; the parser is the usual source, tests build them directly.
  public init(
    method: String, target: String, headers: [(name: String, value: String)] = [],
    body: [UInt8] = []
  ) {
    self.method = method
    self.target = target
    self.headers = headers
    self.body = body
  }

  /// The path part of the target, without the query, still percent-encoded.
  public var path: String {
    String(target.prefix { $0 != "?" && $0 != "#" })
  }

  /// The raw query string after `?` (without a fragment), or empty.
  public var rawQuery: String {
    guard let mark = target.firstIndex(of: "?") else { return "" }
    return String(target[target.index(after: mark)...].prefix { $0 != "#" })
  }

  /// The decoded query parameters, in order.
  public var queryItems: [FormEncoding.Pair] { FormEncoding.decode(rawQuery) }

  /// The first query parameter called `name`.
  public func query(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// The first header called `name`, compared case-insensitively (RFC 9110 §5.1).
  public func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.name.lowercased() == lowered }?.value
  }

  /// The body decoded as `application/x-www-form-urlencoded`.
  public var formParameters: [FormEncoding.Pair] {
    FormEncoding.decode(String(decoding: body, as: UTF8.self))
  }
}

extension HTTPRequest: CustomStringConvertible {
  /// Method and path only: queries and bodies carry codes and tokens, which must not be logged.
  public var description: String { "\(method) \(path)" }
}
