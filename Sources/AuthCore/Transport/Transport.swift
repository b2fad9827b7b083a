import Foundation

/// The network as AuthCore sees it: one request in, one response out.
///
/// AuthCore never opens a connection itself. The composition root injects
/// `URLSessionTransport`; tests inject a scripted fake. An implementation must honour the
/// request's `timeout` as a deadline for the whole exchange, must not follow redirects unless
/// `followsRedirects` says so (a 3xx is returned as a response), and must cap the body it reads.
public protocol Transport: Sendable {
  /// Sends `request` and returns the provider's answer, whatever its status code.
  func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse
}

/// One HTTP request to a provider.
public struct TransportRequest: Sendable, Equatable, CustomStringConvertible {
  /// The methods OAuth needs.
  public enum Method: String, Sendable {
    /// `GET`, with parameters in the query.
    case get = "GET"
    /// `POST`, with a body.
    case post = "POST"
    /// `DELETE`: a client registration removed (RFC 7592 §2.3).
    case delete = "DELETE"
  }

  /// The method.
  public var method: Method
  /// The full URL, query included.
  public var url: URL
  /// Header fields, in order.
  public var headers: [Header]
  /// The body (empty for `GET`).
  public var body: Data
  /// The deadline for the whole exchange, in seconds from the moment it is sent.
  public var timeout: TimeInterval
  /// Whether a 3xx answer may be followed. False for every OAuth endpoint: a token endpoint
  /// that redirects is misconfigured or hostile, and following it would resend the code.
  public var followsRedirects: Bool

  /// A request with the given parts.
  public init(
    method: Method, url: URL, headers: [Header] = [], body: Data = Data(),
    timeout: TimeInterval = 30, followsRedirects: Bool = false
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
    self.followsRedirects = followsRedirects
  }

  /// The first header called `name`, compared case-insensitively.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// Method, host and path only: queries, headers and bodies carry codes and tokens.
  public var description: String {
    "\(method.rawValue) \(url.scheme ?? "?")://\(url.host ?? "?")\(url.path)"
  }
}

/// One HTTP header field.
public struct Header: Sendable, Equatable {
  /// The field name.
  public var name: String
  /// The field value.
  public var value: String

  /// The field `name: value`.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// A provider's answer.
public struct TransportResponse: Sendable, Equatable, CustomStringConvertible {
  /// The HTTP status code.
  public var status: Int
  /// Header fields; names lowercased.
  public var headers: [String: String]
  /// The body, never larger than the transport's cap.
  public var body: Data

  /// An answer; header names are lowercased (a later duplicate is dropped).
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
    self.body = body
  }

  /// Status and size only: the body may hold tokens.
  public var description: String { "HTTP \(status), \(body.count) bytes" }
}

/// Why a request produced no response. The texts never include a URL's query, a header or a
/// body, so they are safe to show and to log.
public enum TransportError: Error, Sendable, Equatable {
  /// The whole exchange did not finish within the request's deadline.
  case timedOut(seconds: TimeInterval)
  /// The connection closed before a whole response arrived; `host` has the port the URL gives
  /// (`127.0.0.1:8443`).
  case connectionLost(host: String)
  /// No connection could be made (refused, unreachable); `host` has the port the URL gives
  /// (`127.0.0.1:8443`, `[::1]:8443`).
  case cannotConnect(host: String)
  /// The host name did not resolve (DNS).
  case hostNotFound(host: String)
  /// The server's certificate is self-signed or from an authority this computer does not
  /// trust.
  case untrustedCertificate(host: String)
  /// The TLS handshake failed otherwise (an expired certificate, another host's, no common
  /// protocol).
  case insecureConnection(host: String)
  /// The body was larger than the cap; the rest was not read.
  case responseTooLarge(limit: Int)
  /// The caller cancelled the request.
  case cancelled
  /// Any other failure, described without secrets.
  case failed(String)
}
