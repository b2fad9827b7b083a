/// A small, strict HTTP/1.1 request parser for loopback servers (RFC 9112).
///
/// It is fed whatever bytes have arrived and says whether a whole request is there yet. It
/// accepts only what a browser, `curl` or URLSession sends to a local server: origin-form
/// targets, `Content-Length` bodies, CRLF line endings; anything else is refused with a status
/// code to answer, so a stray or hostile client gets a quick 4xx and never a hang.
public struct HTTPRequestParser: Sendable {
  /// Size limits, checked before anything is allocated for the excess.
  public struct Limits: Sendable {
    /// The request line plus headers, in bytes.
    public var maxHeaderBytes: Int
    /// The body, in bytes.
    public var maxBodyBytes: Int

    public init(maxHeaderBytes: Int, maxBodyBytes: Int) {
      self.maxHeaderBytes = maxHeaderBytes
      self.maxBodyBytes = maxBodyBytes
    }

    /// What a redirect callback needs: 8 KiB of headers and no body to speak of.
    public static let callback = Limits(maxHeaderBytes: 8 * 1024, maxBodyBytes: 4 * 1024)
    /// What a local provider emulator needs for form and JSON posts.
    public static let server = Limits(maxHeaderBytes: 16 * 1024, maxBodyBytes: 256 * 1024)
  }

  /// The outcome of looking at the bytes received so far.
  public enum Outcome: Sendable {
    /// More bytes are needed.
    case incomplete
    /// A whole request, and how many bytes of the buffer it used.
    case complete(HTTPRequest, consumed: Int)
    /// The bytes cannot become a valid request; answer with `status` and close.
    case invalid(status: Int, reason: String)
  }

  /// The limits this parser enforces.
  public let limits: Limits

  public init(limits: Limits) {
    self.limits = limits
  }

  /// Parses the start of `buffer`.
  public func parse(_ buffer: [UInt8]) -> Outcome {
    guard let headerEnd = Self.endOfHeaders(in: buffer) else {
      return buffer.count > limits.maxHeaderBytes
        ? .invalid(status: 431, reason: "request headers exceed \(limits.maxHeaderBytes) bytes")
        : .incomplete
    }
    guard headerEnd <= limits.maxHeaderBytes else {
      return .invalid(status: 431, reason: "request headers exceed \(limits.maxHeaderBytes) bytes")
    }
    guard let headText = String(validating: buffer[..<headerEnd], as: UTF8.self) else {
      return .invalid(status: 400, reason: "request head is not UTF-8")
    }
    // "\r\n" is one Character in Swift, so this splits on CRLF and nothing else; a bare LF stays
    // inside a line and is refused below.
    var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)
    guard !lines.isEmpty else { return .invalid(status: 400, reason: "empty request") }
    let requestLine = lines.removeFirst()
    let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, Self.isToken(parts[0]), parts[1].hasPrefix("/"),
      parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0",
      !parts[1].contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x21 } ?? false })
    else {
      return .invalid(status: 400, reason: "malformed request line")
    }

    var headers: [(name: String, value: String)] = []
    for line in lines where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":"), Self.isToken(line[..<colon]) else {
        return .invalid(status: 400, reason: "malformed header line")
      }
      let value = line[line.index(after: colon)...].trimmingSpacesAndTabs()
      guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) else {
        return .invalid(status: 400, reason: "control character in a header")
      }
      headers.append((String(line[..<colon]), value))
    }

    let lowered = headers.map { ($0.name.lowercased(), $0.value) }
    if lowered.contains(where: { $0.0 == "transfer-encoding" }) {
      return .invalid(status: 411, reason: "chunked bodies are not accepted; send Content-Length")
    }
    let lengths = Set(lowered.filter { $0.0 == "content-length" }.map(\.1))
    var bodyLength = 0
    if !lengths.isEmpty {
      guard lengths.count == 1, let only = lengths.first, !only.isEmpty,
        only.allSatisfy(\.isASCIIDigit), only.count < 10, let length = Int(only)
      else { return .invalid(status: 400, reason: "malformed Content-Length") }
      bodyLength = length
    }
    guard bodyLength <= limits.maxBodyBytes else {
      return .invalid(status: 413, reason: "request body exceeds \(limits.maxBodyBytes) bytes")
    }
    let bodyStart = headerEnd + 4
    guard buffer.count >= bodyStart + bodyLength else { return .incomplete }
    let request = HTTPRequest(
      method: String(parts[0]), target: String(parts[1]), headers: headers,
      body: Array(buffer[bodyStart..<bodyStart + bodyLength]))
    return .complete(request, consumed: bodyStart + bodyLength)
  }

  /// Index of the `\r\n\r\n` that ends the head, if it has arrived.
  static func endOfHeaders(in buffer: [UInt8]) -> Int? {
    guard buffer.count >= 4 else { return nil }
    for index in 0...(buffer.count - 4)
    where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
      && buffer[index + 3] == 10
    {
      return index
    }
    return nil
  }

  /// RFC 9110 §5.6.2 token characters.
  static func isToken(_ text: Substring) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          return true
        default:
          return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }
}

extension Substring {
  fileprivate func trimmingSpacesAndTabs() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
