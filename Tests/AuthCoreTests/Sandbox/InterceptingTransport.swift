import AuthCore
import Foundation

/// The real transport, with a chance to look at or change each request before it leaves:
/// how a test makes the client send a wrong verifier once, or ages a code just before its
/// exchange, while everything else stays real.
actor InterceptingTransport: Transport {
  private let base = URLSessionTransport()
  private let intercept: @Sendable (TransportRequest) async -> TransportRequest
  /// Every request as the client built it, before `intercept`.
  private(set) var built: [TransportRequest] = []

  init(_ intercept: @escaping @Sendable (TransportRequest) async -> TransportRequest) {
    self.intercept = intercept
  }

  func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
    built.append(request)
    return try await base.send(await intercept(request))
  }

  /// Sends a request again exactly as the client built it.
  func resend(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
    try await base.send(request)
  }
}

extension TransportRequest {
  /// This JSON request with `name` set to `value` in its body.
  func settingJSONMember(_ name: String, to value: String) -> TransportRequest {
    var object = (try? JSONSerialization.jsonObject(with: body)) as? [String: String] ?? [:]
    object[name] = value
    var copy = self
    copy.body =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? body
    return copy
  }
}
