/// One HTTP/1.1 response written by the loopback server.
public struct HTTPResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Headers besides `Content-Length` and `Connection`, which the server writes itself.
  public var headers: [(name: String, value: String)]
  /// The body.
  public var body: [UInt8]
  /// When true the server closes the connection without answering (a fault the sandbox can
  /// inject to imitate a provider that drops the connection).
  public var dropsConnection: Bool

  /// A response with the given status, headers and body.
  public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
    self.dropsConnection = false
  }

  /// A response that is never sent: the connection is closed instead.
  public static var droppedConnection: HTTPResponse {
    var response = HTTPResponse(status: 0)
    response.dropsConnection = true
    return response
  }

  /// An HTML page (`text/html; charset=utf-8`), never cached.
  public static func html(_ page: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status,
      headers: [
        ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
      ],
      body: Array(page.utf8))
  }

  /// `text` made safe to place in HTML text or a quoted attribute: `& < > " '` escaped.
  public static func escapingHTML(_ text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      default: output.append(character)
      }
    }
    return output
  }

  /// A JSON body (`application/json`), never cached (RFC 6749 §5.1 asks this of token answers).
  public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status,
      headers: [
        ("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("Pragma", "no-cache"),
      ],
      body: Array(text.utf8))
  }

  /// A plain-text body.
  public static func text(_ text: String, status: Int) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
      body: Array(text.utf8))
  }

  /// A `302 Found` redirect to `location`.
  public static func redirect(to location: String) -> HTTPResponse {
    HTTPResponse(status: 302, headers: [("Location", location), ("Cache-Control", "no-store")])
  }

  /// The bytes on the wire: status line, headers, `Content-Length`, `Connection: close`, body.
  public func serialized() -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
    for (name, value) in headers {
      head += "\(name): \(value)\r\n"
    }
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    return Array(head.utf8) + body
  }

  /// The reason phrase for the status codes authtui and the sandbox use.
  static func reason(for status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 201: return "Created"
    case 204: return "No Content"
    case 302: return "Found"
    case 303: return "See Other"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 410: return "Gone"
    case 411: return "Length Required"
    case 413: return "Content Too Large"
    case 429: return "Too Many Requests"
    case 431: return "Request Header Fields Too Large"
    case 500: return "Internal Server Error"
    case 503: return "Service Unavailable"
    default: return "Status"
    }
  }
}
