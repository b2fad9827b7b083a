import Crypto
import Foundation
import Loopback

/// The loopback redirect listener of a browser sign-in (RFC 8252 §7.3), on `LoopbackServer`
/// with the `.callback` limits: 127.0.0.1 only, bounded requests, a read deadline.
///
/// It answers two routes. `GET /sign-in/RANDOM` are the attempt's one-time addresses
/// (`OneTimeAddresses`): what the browser is given instead of the authorization URL; a second
/// fetch of one is reported through `events`. Every `GET {redirect_path}` is handed to the
/// attempt through `events`, which chooses the page. Strays get 404 (other paths) or 405
/// (other methods). Once stopped, redirects still in flight get "already finished".
final class RedirectListener: Sendable {
  /// A redirect waiting for the attempt's verdict.
  struct Delivery: Sendable {
    let response: AuthorizationResponse
    let reply: CheckedContinuation<HTTPResponse, Never>
  }

  /// What the attempt hears from the listener.
  enum Event: Sendable {
    /// A request to the redirect path.
    case redirect(Delivery)
    /// A one-time address of generation `group` was fetched a second time.
    case addressFetchedAgain(group: Int)
  }

  /// `http://127.0.0.1:PORT/PATH`.
  let redirectURI: String
  /// Events in arrival order; ends after `stop()` once the buffered ones are read.
  let events: AsyncStream<Event>
  private let sink: AsyncStream<Event>.Continuation
  private let server: LoopbackServer
  private let addresses: OneTimeAddresses

  /// Listens on 127.0.0.1:`port` (any free port when nil) for `GET path` and the one-time
  /// addresses.
  init(port: UInt16?, path configuredPath: String) throws(AuthError) {
    let path = configuredPath.hasPrefix("/") ? configuredPath : "/" + configuredPath
    let (events, sink) = AsyncStream<Event>.makeStream()
    let addresses = OneTimeAddresses(name: "sign-in", usedPage: RedirectPages.signInLinkUsed)
    do {
      server = try LoopbackServer(port: port ?? 0, configuration: .callback) { request in
        // The one-time addresses come first: a random path cannot shadow the redirect path.
        let (page, fetch) = await addresses.answer(request)
        if case .fetchedAgain(let group, live: true) = fetch {
          sink.yield(.addressFetchedAgain(group: group))
        }
        if let page { return page }
        guard request.path == path else { return RedirectPages.notFound }
        guard request.method == "GET" else { return RedirectPages.methodNotAllowed }
        let response = AuthorizationResponse(parameters: request.queryItems)
        return await withCheckedContinuation { reply in
          if case .terminated = sink.yield(.redirect(Delivery(response: response, reply: reply))) {
            reply.resume(returning: RedirectPages.alreadyFinished)
          }
        }
      }
    } catch .portInUse(let port) {
      throw .portInUse(port)
    } catch {
      throw .listenerFailed(error.description)
    }
    self.events = events
    self.sink = sink
    self.addresses = addresses
    redirectURI = "http://127.0.0.1:\(server.port)\(path)"
  }

  /// A new one-time address for `target`, part of attempt generation `group`.
  func oneTimeAddress(for target: URL, group: Int, random: some RandomSource) async -> URL {
    let path = await addresses.add(target, group: group, random: random)
    // Base64url and a fixed prefix: always a valid URL.
    return URL(string: "http://127.0.0.1:\(server.port)\(path)")
      ?? URL(fileURLWithPath: "/")
  }

  /// Generation `group` is over: its addresses redirect no more, and their fetches are no alarm.
  func retire(group: Int) async {
    await addresses.retire(group: group)
  }

  /// Stops taking connections and waits until the port is closed.
  func stop() async {
    sink.finish()
    await server.stop()
  }
}
