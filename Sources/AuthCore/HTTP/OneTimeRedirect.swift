import Crypto
import Foundation
import Loopback

/// A one-time loopback address of its own, for a URL that carries a secret and that a browser
/// must open outside a sign-in: the end-session (RP-initiated logout) URL, whose
/// `id_token_hint` names the user. A browser command's argv is readable by every local user,
/// so it gets `http://127.0.0.1:PORT/sign-out/RANDOM` instead, which redirects once (303) to
/// the URL and then answers 410 Gone.
///
/// The listener lives until the address is fetched or `waitUntilFetched`'s deadline passes,
/// whichever comes first.
public final class OneTimeRedirect: Sendable {
  /// The address to give the browser.
  public let address: URL
  private let server: LoopbackServer
  private let fetches: AsyncStream<Void>

  /// Listens on a free port of 127.0.0.1 for one address under `/NAME/`, standing for
  /// `target`.
  public init(
    to target: URL, name: String = "sign-out", random: some RandomSource = SystemRandomSource()
  ) async throws(AuthError) {
    let addresses = OneTimeAddresses(name: name, usedPage: RedirectPages.signOutLinkUsed)
    let (fetches, sink) = AsyncStream<Void>.makeStream()
    do {
      server = try LoopbackServer(port: 0, configuration: .callback) { request in
        let (page, fetch) = await addresses.answer(request)
        if case .redirected = fetch { sink.yield() }
        return page ?? RedirectPages.notFound
      }
    } catch {
      throw .listenerFailed(error.description)
    }
    self.fetches = fetches
    let path = await addresses.add(target, group: 0, random: random)
    address = URL(string: "\(server.baseURL)\(path)") ?? URL(fileURLWithPath: "/")
  }

  /// Waits until the address has been fetched (true) or `deadline` passed, or the task is
  /// cancelled (false); then closes the listener. The redirect already being written still
  /// goes out.
  public func waitUntilFetched(
    deadline: Date, clock: some WallClock = SystemClock()
  ) async -> Bool {
    let fetches = self.fetches
    let fetched = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await _ in fetches { return true }
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
    await server.stop()
    return fetched
  }

  /// Closes the listener now.
  public func stop() async {
    await server.stop()
  }
}
