import Foundation

/// The loopback redirect listener of a browser sign-in (RFC 8252 §7.3), on `LoopbackServer`
/// with the `.callback` limits: 127.0.0.1 only, bounded requests, a read deadline.
///
/// It answers strays itself (404 for other paths, 405 for other methods) and hands every
/// `GET {redirect_path}` to the attempt through `deliveries`, waiting for the page the attempt
/// chooses. Once closed, redirects still in flight get "already finished".
final class RedirectListener: Sendable {
  /// A redirect waiting for the attempt's verdict.
  struct Delivery: Sendable {
    let response: AuthorizationResponse
    let reply: CheckedContinuation<HTTPResponse, Never>
  }

  /// `http://127.0.0.1:PORT/PATH`.
  let redirectURI: String
  /// Redirects in arrival order; ends after `close()` once the buffered ones are read.
  let deliveries: AsyncStream<Delivery>
  private let sink: AsyncStream<Delivery>.Continuation
  private let server: LoopbackServer

  /// Listens on 127.0.0.1:`port` (any free port when nil) for `GET path`.
  init(port: UInt16?, path configuredPath: String) throws(AuthError) {
    let path = configuredPath.hasPrefix("/") ? configuredPath : "/" + configuredPath
    let (deliveries, sink) = AsyncStream<Delivery>.makeStream()
    do {
      server = try LoopbackServer(port: port ?? 0, configuration: .callback) { request in
        guard request.path == path else { return RedirectPages.notFound }
        guard request.method == "GET" else { return RedirectPages.methodNotAllowed }
        let response = AuthorizationResponse(parameters: request.queryItems)
        return await withCheckedContinuation { reply in
          if case .terminated = sink.yield(Delivery(response: response, reply: reply)) {
            reply.resume(returning: RedirectPages.alreadyFinished)
          }
        }
      }
    } catch .portInUse(let port) {
      throw .portInUse(port)
    } catch {
      throw .listenerFailed(error.description)
    }
    self.deliveries = deliveries
    self.sink = sink
    redirectURI = "http://127.0.0.1:\(server.port)\(path)"
  }

  /// Stops taking connections; returns at once.
  func close() {
    sink.finish()
    server.requestStop()
  }

  /// Stops taking connections and waits until the port is closed.
  func stop() async {
    sink.finish()
    await server.stop()
  }
}
