import AuthCore
import Loopback

extension FuzzTargets {
  /// The loopback servers' request parser (the redirect listener's and the sandbox's limits).
  ///
  /// A complete request must use no more bytes than arrived, and reading exactly those bytes
  /// again must give the same request: the server hands the rest of the buffer to the next
  /// request on that basis.
  static let httpRequest = FuzzTarget(
    name: "http-request", summary: "HTTPRequestParser: the loopback redirect server's requests"
  ) { bytes in
    for limits in [HTTPRequestParser.Limits.callback, .server] {
      let parser = HTTPRequestParser(limits: limits)
      guard case .complete(let request, let consumed) = parser.parse(bytes) else { continue }
      require(consumed <= bytes.count, "consumed \(consumed) of \(bytes.count) bytes")
      require(request.target.hasPrefix("/"), "target \(request.target) is not origin-form")
      require(request.body.count <= limits.maxBodyBytes, "body over the limit")
      guard case .complete(let again, let consumedAgain) = parser.parse(Array(bytes[..<consumed]))
      else {
        require(false, "the request's own bytes no longer parse")
        return
      }
      require(consumedAgain == consumed, "consumed \(consumedAgain), then \(consumed)")
      require(
        again.method == request.method && again.target == request.target
          && again.body == request.body && again.headers.count == request.headers.count,
        "the request's own bytes parse to another request")
      _ = request.queryItems
      _ = request.formParameters
      _ = request.path
    }
  }
}
