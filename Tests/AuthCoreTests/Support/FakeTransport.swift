import AuthCore
import Foundation
import Loopback

/// A scripted provider: answers each request with the next reply queued for its path (404 when
/// none is left) and records every request, so tests assert on what went over the wire.
actor FakeTransport: Transport {
  typealias Reply = Result<TransportResponse, TransportError>

  private var replies: [String: [Reply]] = [:]
  private(set) var requests: [TransportRequest] = []
  private var requestTimes: [Date] = []
  private let clock: (any WallClock)?

  /// `clock`, when given, stamps each request so tests can check the polling schedule.
  init(clock: (any WallClock)? = nil) {
    self.clock = clock
  }

  /// Queues replies for requests whose URL path is `path`, in order.
  func enqueue(_ path: String, _ newReplies: Reply...) {
    replies[path, default: []] += newReplies
  }

  func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
    requests.append(request)
    if let clock { requestTimes.append(await clock.now()) }
    var queue = replies[request.url.path] ?? []
    guard !queue.isEmpty else {
      return TransportResponse(status: 404, body: Data("no reply scripted".utf8))
    }
    let reply = queue.removeFirst()
    replies[request.url.path] = queue
    return try reply.get()
  }

  /// The requests sent to `path`.
  func requests(to path: String) -> [TransportRequest] {
    requests.filter { $0.url.path == path }
  }

  /// When each request was sent, by the clock given at creation.
  var times: [Date] { requestTimes }

  /// A JSON reply.
  static func json(_ text: String, status: Int = 200) -> Reply {
    .success(
      TransportResponse(
        status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8)))
  }

  /// A reply with any body.
  static func raw(_ text: String, status: Int) -> Reply {
    .success(TransportResponse(status: status, body: Data(text.utf8)))
  }
}

extension TransportRequest {
  /// The body as text.
  var bodyText: String { String(decoding: body, as: UTF8.self) }

  /// The body decoded as a form, or as a flat JSON object, by its Content-Type.
  var bodyParameters: [String: String] {
    if header("Content-Type") == "application/json" {
      let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: String]
      return object ?? [:]
    }
    return Dictionary(FormEncoding.decode(bodyText).map { ($0.name, $0.value) }) { first, _ in first
    }
  }

  /// The decoded query parameters.
  var queryParameters: [String: String] {
    let query = url.query(percentEncoded: true) ?? ""
    return Dictionary(FormEncoding.decode(query).map { ($0.name, $0.value) }) { first, _ in first }
  }
}
