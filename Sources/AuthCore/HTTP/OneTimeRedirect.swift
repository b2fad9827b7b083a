import Crypto
import Foundation
import Loopback

/// A one-time loopback address of its own, for a URL that carries a secret and that a browser
/// must open outside a sign-in: the end-session (RP-initiated logout) URL, whose
/// `id_token_hint` names the user. A browser command's argv is readable by every local user,
/// so it gets `http://127.0.0.1:PORT/sign-out/RANDOM` instead, which redirects once (303) to
/// the URL and then answers 410 Gone.
///
/// When the URL's `post_logout_redirect_uri` is a loopback address authtui can listen on
/// (`PostLogoutLanding`), the same listener stands there too and serves the landing page the
/// provider returns the browser to: the URL gets a fresh random `state` (RP-Initiated Logout
/// §2), and a return without that `state` gets an error page, not "signed out". If that port
/// is taken, the URL goes without `post_logout_redirect_uri` (the provider keeps the browser)
/// and `unservedLandingPort` says so.
///
/// The listener lives until the address is fetched and, with a landing, the browser has
/// returned, or until the waits' deadlines pass, whichever comes first.
public final class OneTimeRedirect: Sendable {
  /// The address to give the browser.
  public let address: URL
  /// The `post_logout_redirect_uri` sent, when authtui serves its landing.
  public let landingURI: URL?
  /// The port of a landing that could not be served (another program listens there).
  public let unservedLandingPort: UInt16?
  private let server: LoopbackServer
  private let fetches: AsyncStream<Void>
  private let returns: AsyncStream<Void>

  /// Listens on 127.0.0.1 for one address under `/NAME/`, standing for `target`, and for
  /// `target`'s post-logout landing when authtui can serve it (on its port; any free port
  /// otherwise). `account` names the account on the landing page.
  public init(
    to target: URL, name: String = "sign-out", account: String? = nil,
    random: some RandomSource = SystemRandomSource()
  ) async throws(AuthError) {
    let addresses = OneTimeAddresses(name: name, usedPage: RedirectPages.signOutLinkUsed)
    let (fetches, fetchSink) = AsyncStream<Void>.makeStream()
    let (returns, returnSink) = AsyncStream<Void>.makeStream()
    func listen(port: UInt16, landing: (path: String, state: String)?) throws(LoopbackServerError)
      -> LoopbackServer
    {
      /// The provider's return: the landing's path, by GET, with the state sent.
      @Sendable func isReturn(_ request: HTTPRequest) -> Bool {
        guard let landing else { return false }
        return request.path == landing.path && request.method == "GET"
          && request.query("state") == landing.state
      }
      return try LoopbackServer(
        port: port, configuration: .callback,
        handler: { request in
          if let page = await addresses.answer(request).response { return page }
          guard let landing, request.path == landing.path else { return RedirectPages.notFound }
          guard request.method == "GET" else { return RedirectPages.methodNotAllowed }
          guard isReturn(request) else { return RedirectPages.signOutNotConfirmed }
          return RedirectPages.signedOut(account: account)
        },
        // Heard once the answer is written, so that the waiter closing the listener (and
        // `logout` exiting) cuts neither the redirect nor the page off. Only the address's
        // first fetch is answered 303.
        answered: { request, answer in
          if answer.status == 303 { fetchSink.yield() }
          if isReturn(request) { returnSink.yield() }
        })
    }
    var opened = target
    var landingURI: URL?
    var unservedLandingPort: UInt16?
    do {
      if let landing = PostLogoutLanding(endSession: target) {
        let state = Base64URL.encode(random.bytes(count: 32))
        do {
          server = try listen(port: landing.port, landing: (landing.path, state))
          opened = landing.endSession(target, port: server.port, state: state)
          landingURI = URL(string: "http://127.0.0.1:\(server.port)\(landing.uriAfterPort)")
        } catch .portInUse(let port) {
          server = try listen(port: 0, landing: nil)
          opened = PostLogoutLanding.withoutReturn(target)
          unservedLandingPort = port
        }
      } else {
        server = try listen(port: 0, landing: nil)
      }
    } catch {
      throw .listenerFailed(error.description)
    }
    self.fetches = fetches
    self.returns = returns
    self.landingURI = landingURI
    self.unservedLandingPort = unservedLandingPort
    let path = await addresses.add(opened, group: 0, random: random)
    address = URL(string: "\(server.baseURL)\(path)") ?? URL(fileURLWithPath: "/")
  }

  /// Waits until the address has been fetched (true) or `deadline` passed, or the task is
  /// cancelled (false). Then the listener closes, unless it was fetched and a landing waits
  /// for the browser's return (`waitForReturn`). The redirect already being written still
  /// goes out.
  public func waitUntilFetched(
    deadline: Date, clock: some WallClock = SystemClock()
  ) async -> Bool {
    let fetched = await Self.first(of: fetches, before: deadline, clock: clock)
    if !fetched || landingURI == nil { await server.stop() }
    return fetched
  }

  /// Waits until the provider has returned the browser to the landing with the right `state`
  /// (true) or `deadline` passed, or the task is cancelled (false); then closes the listener.
  /// False at once when there is no landing.
  public func waitForReturn(
    deadline: Date, clock: some WallClock = SystemClock()
  ) async -> Bool {
    guard landingURI != nil else { return false }
    let returned = await Self.first(of: returns, before: deadline, clock: clock)
    await server.stop()
    return returned
  }

  /// Closes the listener now.
  public func stop() async {
    await server.stop()
  }

  /// True when `stream` yields before `deadline`.
  private static func first(
    of stream: AsyncStream<Void>, before deadline: Date, clock: some WallClock
  ) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await _ in stream { return true }
        return false
      }
      group.addTask {
        try? await clock.sleep(until: deadline)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
  }
}
