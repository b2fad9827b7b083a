import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The production `Transport`: URLSession with a deadline on every request, a cap on the body
/// it reads, no redirects followed unless the request allows them, no cookies, no cache, and
/// `User-Agent: authtui/VERSION` unless the request names another.
///
/// Redirects and the size cap need a session-level delegate: on Linux the per-task delegate of
/// `data(for:delegate:)` is ignored (PLATFORM.md), and `data(for:)` would read an endless body
/// into memory. The delegate's bookkeeping lives on the session's serial delegate queue only.
///
/// Every call into the session (making, resuming and cancelling a task, invalidating it) runs
/// on that queue too, never on the caller's thread: FoundationNetworking answers each of them
/// with a `DispatchQueue.sync` onto URLSession's work queue, where the session's curl work
/// runs too, so the call waits for that work. Under load a stack dump showed both threads of
/// the two-thread cooperative pool blocked there (`dataTask(with:)` and
/// `invalidateAndCancel()`), and every task of the program, loopback servers' answers among
/// them, stalled for seconds.
public final class URLSessionTransport: Transport {
  /// The largest body read; a bigger answer fails with `TransportError.responseTooLarge`.
  public let maxResponseBytes: Int
  private let session: URLSession
  private let delegate: SessionDelegate
  private let queue: OperationQueue

  /// A transport reading at most `maxResponseBytes` of any answer (default 1 MiB, far above any
  /// token, discovery or JWKS document).
  public init(maxResponseBytes: Int = 1 << 20) {
    self.maxResponseBytes = maxResponseBytes
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    queue.name = "authtui.transport"
    self.queue = queue
    let delegate = SessionDelegate()
    self.delegate = delegate
    self.session = URLSession(
      configuration: SessionConfiguration.make(), delegate: delegate, delegateQueue: queue)
  }

  deinit {
    // A session keeps its delegate alive until it is invalidated.
    let session = self.session
    queue.addOperation { session.invalidateAndCancel() }
  }

  public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
    if Task.isCancelled { throw .cancelled }
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method.rawValue
    // URLSession here truncates this to whole seconds (0.3 s times out at once) and restarts it
    // whenever a byte arrives; the exact deadline is the timer below, so keep this one later.
    urlRequest.timeoutInterval = request.timeout.rounded(.up) + 1
    for header in request.headers {
      urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
    }
    if request.header("User-Agent") == nil {
      urlRequest.setValue(AuthTUIVersion.userAgent, forHTTPHeaderField: "User-Agent")
    }
    // libcurl would advertise gzip, br and zstd and decode them on URLSession's own queue,
    // where the size cap cannot reach: a small compressed body expands to gigabytes before
    // the first byte of it reaches the delegate. Ask for none. An answer compressed all the
    // same is still read (decoded, under the cap as it reaches the delegate): refusing it
    // would not bound the decoding, which has happened by then, and a refresh answer refused
    // would lose a rotated refresh token the provider has already issued.
    urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    if request.method == .post {
      urlRequest.httpBody = request.body
    }
    let session = self.session
    let pending = PendingTask(urlRequest)
    let exchange = SessionDelegate.Exchange(
      followsRedirects: request.followsRedirects, limit: maxResponseBytes,
      timeout: request.timeout, host: request.url.host ?? "the provider",
      address: Self.address(of: request.url) ?? "the provider")
    let delegate = self.delegate
    let queue = self.queue
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        queue.addOperation {
          let task = session.dataTask(with: pending.urlRequest)
          pending.task = task
          delegate.begin(task, exchange: exchange, continuation: continuation)
          if pending.cancelled { task.cancel() }
        }
        // The hard deadline: URLSession's own timeout restarts whenever a byte arrives.
        DispatchQueue.global().asyncAfter(deadline: .now() + request.timeout) {
          queue.addOperation { pending.task.map { delegate.expire($0) } }
        }
      }
    } onCancel: {
      queue.addOperation {
        pending.cancelled = true
        pending.task?.cancel()
      }
    }
    return try result.get()
  }
}

/// One request's task, made on the delegate queue once the request is sent.
private final class PendingTask: @unchecked Sendable {
  // @unchecked: `task` and `cancelled` are only touched on the transport's serial
  // OperationQueue.
  let urlRequest: URLRequest
  var task: URLSessionDataTask?
  /// Cancelled before its task was made: cancel the task as soon as it is.
  var cancelled = false

  init(_ urlRequest: URLRequest) {
    self.urlRequest = urlRequest
  }
}

/// Collects each task's answer. Only the session's serial delegate queue touches `exchanges`.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: every method runs on the transport's OperationQueue, whose
  // maxConcurrentOperationCount is 1, so the dictionary is never touched concurrently.
  typealias Continuation = CheckedContinuation<Result<TransportResponse, TransportError>, Never>

  struct Exchange {
    let followsRedirects: Bool
    let limit: Int
    let timeout: TimeInterval
    /// The host's name, for what concerns the name (DNS, its certificate).
    let host: String
    /// The host and its port, for what concerns the connection (`URLSessionTransport.address`).
    let address: String
    var continuation: Continuation?
    var body = Data()
    var failure: TransportError?
  }

  private var exchanges: [Int: Exchange] = [:]

  func begin(_ task: URLSessionDataTask, exchange: Exchange, continuation: Continuation) {
    var exchange = exchange
    exchange.continuation = continuation
    exchanges[task.taskIdentifier] = exchange
    task.resume()
  }

  func expire(_ task: URLSessionDataTask) {
    guard let exchange = exchanges[task.taskIdentifier], exchange.failure == nil else { return }
    exchanges[task.taskIdentifier]?.failure = .timedOut(seconds: exchange.timeout)
    task.cancel()
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    // Refusing makes the 3xx itself the response, which the caller reports.
    completionHandler(exchanges[task.taskIdentifier]?.followsRedirects == true ? request : nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    guard let exchange = exchanges[dataTask.taskIdentifier] else {
      completionHandler(.cancel)
      return
    }
    // FoundationNetworking ignores the disposition given to `completionHandler` (it logs
    // "Ignoring disposition from completion handler" and reads on): only `cancel()` stops the
    // transfer.
    if response.expectedContentLength > Int64(exchange.limit) {
      refuse(dataTask, .responseTooLarge(limit: exchange.limit))
    }
    completionHandler(exchanges[dataTask.taskIdentifier]?.failure == nil ? .allow : .cancel)
  }

  /// Ends `task` with `failure`, reading none of its body.
  private func refuse(_ task: URLSessionDataTask, _ failure: TransportError) {
    exchanges[task.taskIdentifier]?.failure = failure
    task.cancel()
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard var exchange = exchanges[dataTask.taskIdentifier], exchange.failure == nil else { return }
    if exchange.body.count + data.count > exchange.limit {
      exchange.failure = .responseTooLarge(limit: exchange.limit)
      exchange.body = Data()
      exchanges[dataTask.taskIdentifier] = exchange
      dataTask.cancel()
      return
    }
    exchange.body.append(data)
    exchanges[dataTask.taskIdentifier] = exchange
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let exchange = exchanges.removeValue(forKey: task.taskIdentifier) else { return }
    let result: Result<TransportResponse, TransportError>
    if let failure = exchange.failure {
      result = .failure(failure)
    } else if let error {
      result = .failure(
        URLSessionTransport.classify(
          error, host: exchange.host, address: exchange.address, timeout: exchange.timeout))
    } else if let http = task.response as? HTTPURLResponse {
      var headers: [String: String] = [:]
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String {
          headers[name.lowercased()] = value
        }
      }
      result = .success(
        TransportResponse(status: http.statusCode, headers: headers, body: exchange.body))
    } else {
      result = .failure(.connectionLost(host: exchange.address))
    }
    exchange.continuation?.resume(returning: result)
  }
}

extension URLSessionTransport {
  /// Where `url` leads, as a message names a connection to it: its host, with the port when
  /// the URL gives one (`127.0.0.1:8443`; an IPv6 address in brackets, `[::1]:8443`); nil
  /// without a host. Never the path or the query, which may carry a code.
  static func address(of url: URL) -> String? {
    guard let host = url.host, !host.isEmpty else { return nil }
    let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return url.port.map { "\(shown):\($0)" } ?? shown
  }

  /// Maps URLSession's errors to `TransportError`, keeping only the host (never the URL):
  /// `host` alone where the name is at fault (DNS, a certificate), `address` (the host and
  /// any port the URL gives, `address(of:)`; `host` when nil) where the connection is.
  ///
  /// FoundationNetworking maps few of libcurl's errors to a `URLError` code of their own
  /// (`_EasyHandle.urlErrorCode(for:)`): a refused or failed TLS handshake arrives as
  /// `.unknown` (-1) with curl's text as the description ("SSL certificate problem:
  /// self-signed certificate"), which is read here for the kind of failure only.
  static func classify(
    _ error: any Error, host: String, address: String? = nil, timeout: TimeInterval
  ) -> TransportError {
    let address = address ?? host
    guard let urlError = error as? URLError else { return .failed("the request failed") }
    switch urlError.code {
    case .timedOut:
      return .timedOut(seconds: timeout)
    case .cancelled:
      return .cancelled
    case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource,
      .cannotDecodeRawData, .cannotDecodeContentData:
      return .connectionLost(host: address)
    case .cannotFindHost, .dnsLookupFailed:
      return .hostNotFound(host: host)
    case .cannotConnectToHost, .notConnectedToInternet, .resourceUnavailable:
      return .cannotConnect(host: address)
    case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
      return .untrustedCertificate(host: host)
    case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
      .clientCertificateRejected, .clientCertificateRequired:
      return .insecureConnection(host: host)
    case .badURL, .unsupportedURL:
      return .failed(
        "the address of \(host) cannot be used (a port above 65535, or an IPv6 address such "
          + "as [::1], which this HTTP client cannot reach: use 127.0.0.1)")
    case .unknown:
      return tlsFailure(urlError.localizedDescription, host: host)
        ?? .failed("the request to \(address) failed (URLError \(urlError.code.rawValue))")
    default:
      return .failed("the request to \(address) failed (URLError \(urlError.code.rawValue))")
    }
  }

  /// The TLS failure libcurl's `description` tells of, or nil when it tells of none.
  /// OpenSSL says "self-signed certificate" ("self signed" before 3.0), "unable to get local
  /// issuer certificate" for an unknown authority; GnuTLS "certificate is not trusted".
  static func tlsFailure(_ description: String, host: String) -> TransportError? {
    let text = description.lowercased()
    let untrusted = [
      "self-signed", "self signed", "unable to get local issuer", "unknown ca",
      "not trusted", "unable to get issuer",
    ]
    if text.contains("certificate"), untrusted.contains(where: text.contains) {
      return .untrustedCertificate(host: host)
    }
    if text.contains("ssl") || text.contains("tls") || text.contains("certificate") {
      return .insecureConnection(host: host)
    }
    return nil
  }
}
